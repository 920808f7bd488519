"""The turn job's cheaper write order (docs/operations.md, "The turn job's write order"):

- state.json is written without fsync, as a cache: whatever a crash leaves of it (nothing, the
  old file, the new name with its data lost or torn, garbage) is found by the next visit and
  rebuilt from the log, and the game goes on with the right state;
- the resolution's mail batch is written before the log commit and fsynced with it, and queued
  after it; the file transport's deliveries are written and fsynced together, their directory
  synced once, then the batch's sent records appended at once, without a sync: killed
  (SIGKILL, a real process) at each of those steps and run again, every mail ends up
  delivered, recorded exactly once, and nothing stays pending;
- sent records a power cut loses (the file transport's are not synced) send nothing twice.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pbem import canonical
from pbem.game import registry
from pbem.mail.outbox_batch import Batch
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.log import GameLog
from tests.support.pbem_host import Host, at


def ready(tmp_path: Path) -> Host:
    """A game whose four powers have sent orders (the embedded file outbox)."""
    host = Host(tmp_path)
    for power in host.powers:
        body = {"depart": host.depart(power, host.state()["powers"][power]["home"], 3,
                                      "Hamal" if power == "algol" else "Vega")}
        assert host.submit(power, body, at(1)).verdict == "accepted"
    return host


def resolves(host: Host) -> list:
    return [e for e in GameLog.load(host.path / "log.jsonl").entries if e.kind == "resolve"]


# -- state.json: a cache that needs no fsync -----------------------------------------------
def _empty(raw: bytes, _old: bytes) -> bytes:
    return b""


def _half(raw: bytes, _old: bytes) -> bytes:
    return raw[: len(raw) // 2]


def _zeros(raw: bytes, _old: bytes) -> bytes:
    return b"\0" * len(raw)  # the new name, its data blocks never written


def _flipped(raw: bytes, _old: bytes) -> bytes:
    data = json.loads(raw)
    data["state"]["turn"] = data["state"]["turn"] + 7  # valid JSON, wrong state
    return canonical.encode(data) + b"\n"


def _old(_raw: bytes, old: bytes) -> bytes:
    return old  # the rename was lost: the cache of the previous head


TEARS = {"empty": _empty, "half": _half, "zeros": _zeros, "wrong state": _flipped,
         "previous head": _old}


@pytest.mark.parametrize("tear", list(TEARS))
def test_a_torn_or_lost_state_cache_is_rebuilt_from_the_log(tmp_path, tear):
    host = ready(tmp_path)
    before = (host.path / "state.json").read_bytes()
    runs = host.run(at(2))
    assert runs[0].status == "resolved"
    cache = host.path / "state.json"
    good = json.loads(cache.read_bytes())
    cache.write_bytes(TEARS[tear](cache.read_bytes(), before))

    game = GameDir.open(host.path)
    plugin = registry.load("4000ad")
    loaded = replay.load_state(plugin, game)
    assert loaded.rebuilt, "the damaged cache was noticed"
    assert loaded.state == good["state"]
    assert canonical.digest(loaded.state) == resolves(host)[-1].body["state"]
    assert json.loads(cache.read_bytes()) == good, "and written back whole"

    # A visit after the damage goes on from the right state: the next turn resolves once.
    for power in host.powers:
        assert host.submit(power, {}, at(3)).verdict == "accepted"
    cache.write_bytes(TEARS[tear](cache.read_bytes(), before))
    runs = host.run(at(60))
    assert runs[0].status == "resolved", runs[0].line()
    assert any("state rebuilt" in note for note in runs[0].notes)
    assert len(resolves(host)) == 2
    last = json.loads(cache.read_bytes())
    assert canonical.digest(last["state"]) == resolves(host)[-1].body["state"]


# -- the file transport: written, one directory sync, records appended at once -------------
FILE_POINTS = [
    "resolution-batch-written",  # the mail's batch file written, nothing synced
    "resolution-batch-synced",  # the log entry and the batch file synced, not queued
    "outbox-accepted",        # the first message written, nothing synced or recorded
    "outbox-before-commit",   # every due message written, the directory not synced
    "outbox-committed",       # the directory synced, no record yet
    "outbox-recorded",        # the records appended
    "after-state-write",      # the state cache written (no fsync), nothing queued
]


def delivered(host: Host) -> set[bytes]:
    return {p.read_bytes() for p in (host.root / "sent-mail").glob("*.eml")}


def outbox_messages(host: Host) -> tuple[list[bytes], list[int]]:
    """Every message the outbox queued (batched and single), and for each batched one how many
    sent records its batch holds for it."""
    out, records = [], []
    sent = host.path / "outbox" / "sent"
    for path in sorted(sent.glob("*.batch")):
        batch = Batch.read(path)
        data = path.read_bytes()
        for ident in batch.ids():
            out.append(batch.raw(ident))
            records.append(data.count(f'"id":"{ident}"'.encode()) - 1)  # minus the header
    out += [p.read_bytes() for p in sorted(sent.glob("*.eml"))]
    return out, records


@pytest.mark.parametrize("point", FILE_POINTS)
def test_kill_during_file_delivery_then_rerun_delivers_and_records_every_mail_once(tmp_path,
                                                                                 point):
    host = ready(tmp_path)
    crashed = host.run_cli(at(2), env={"PBEM_CRASH_AT": point})
    assert crashed.returncode == -9, (crashed.returncode, crashed.stderr)
    done = host.run_cli(at(2))
    assert done.returncode == 0, done.stderr
    assert len(resolves(host)) == 1, "resolved exactly once"
    queued, records = outbox_messages(host)
    assert queued and set(queued) <= delivered(host), "every queued mail was delivered"
    assert records and all(n == 1 for n in records), f"recorded exactly once: {records}"
    outbox = host.path / "outbox" / "pending"
    assert not list(outbox.glob("*.eml")) and not list(outbox.glob("*.batch"))
    assert not list(host.path.rglob(".*.tmp-*")), "no temporary file left"
    reports = [m for m in host.sent() if "report" in str(m["Subject"]).lower()]
    assert len({str(m["To"]) for m in reports}) == 4, "every player's report"
    assert len(reports) == 4, "each once"


# -- the file transport's sent records: appended without a sync ---------------------------
def _without_records(path: Path, keep: float) -> bytes:
    """The batch file at ``path`` as a power cut may leave it: its messages whole, and of its
    sent records only the first ``keep`` share of their bytes (0: none; else a torn line)."""
    data = path.read_bytes()
    batch = Batch.read(path)
    end = data.index(b"\n", len(b"pbem-outbox-batch 1\n")) + 1
    end += sum(m["length"] for m in batch.members)
    return data[: end + int((len(data) - end) * keep)]


def _record(line: bytes) -> dict | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


@pytest.mark.parametrize(("keep", "moved"), [(0, False), (0.5, False), (0, True)])
def test_sent_records_lost_in_a_power_cut_send_no_mail_twice(tmp_path, keep, moved):
    """The file transport's records are written after its commit returned, without a sync: a
    power cut may lose them (whole or torn), with the batch's unsynced move to sent/ (the
    messages are pending again) or not (the batch is in sent/, unrecorded). Either way the
    next run leaves every mail delivered once: a message sent again is the same file under
    the same name, and a batch in sent/ is never sent again."""
    host = ready(tmp_path)
    assert host.run_cli(at(2)).returncode == 0
    before = {p.name: p.read_bytes() for p in (host.root / "sent-mail").glob("*.eml")}
    sent_dir = host.path / "outbox" / "sent"
    batches = sorted(sent_dir.glob("*.batch"))
    assert batches and before
    for path in batches:
        data = _without_records(path, keep)
        target = path if moved else host.path / "outbox" / "pending" / path.name
        path.unlink()
        target.write_bytes(data)
    done = host.run_cli(at(2))
    assert done.returncode == 0, done.stderr
    after = {p.name: p.read_bytes() for p in (host.root / "sent-mail").glob("*.eml")}
    assert after == before, "no mail written anew under another name, none lost"
    queued, _ = outbox_messages(host)
    assert set(queued) == set(before.values()), "every queued mail delivered"
    for path in sorted(sent_dir.glob("*.batch")):  # whole record lines (a torn one is skipped)
        batch, data = Batch.read(path), path.read_bytes()
        lines = data[len(_without_records(path, 0)):].split(b"\n")
        ids = [record["id"] for record in map(_record, lines) if record is not None]
        if moved:
            assert ids == [], "a batch in sent/ is never sent again"
        else:
            assert sorted(ids) == sorted(batch.ids()), "each message recorded exactly once"
    assert not list((host.path / "outbox" / "pending").glob("*.batch"))
    reports = [m for m in host.sent() if "report" in str(m["Subject"]).lower()]
    assert len(reports) == 4 and len({str(m["To"]) for m in reports}) == 4


# -- the resolution batch's key: linked, not fsynced ------------------------------------------
@pytest.mark.parametrize("delivered_first", [False, True])
def test_a_resolution_key_lost_in_a_power_cut_queues_nothing_again(tmp_path, delivered_first):
    """The turn job queues a resolution's mail without an fsync of ``outbox/keys/`` (its
    batch and ``pending/`` are fsynced): a power cut may lose the key and the unsynced
    ``mailed.json`` hint while the batch stays queued (or, delivered, moved to sent/). The
    next run's catch-up finds the batch by its header, links the key again, and queues
    nothing twice: every report is queued and delivered once."""
    host = ready(tmp_path)
    resolved = host.run_cli(at(2), env=None if delivered_first else
                            {"PBEM_CRASH_AT": "after-mailed-mark"})
    assert resolved.returncode == (0 if delivered_first else -9), resolved.stderr
    seq = resolves(host)[0].seq
    key = host.path / "outbox" / "keys" / hashlib.sha256(
        f"resolution:{host.game_id}:{seq}".encode()).hexdigest()
    key.unlink()  # what the power cut lost: the key's link, and the hint
    (host.path / "mailed.json").unlink()
    done = host.run_cli(at(2))
    assert done.returncode == 0, done.stderr
    assert key.exists(), "the catch-up linked the key again"
    queued, records = outbox_messages(host)
    assert len(queued) == len(set(queued)) and all(n == 1 for n in records), records
    reports = [m for m in host.sent() if "report" in str(m["Subject"]).lower()]
    assert len(reports) == 4 and len({str(m["To"]) for m in reports}) == 4
