"""The audit streams the log (flat memory) and may verify lines in worker processes: neither
changes a verdict.

- Memory: a fresh process audits a 40 MB log under an address-space cap (RLIMIT_AS) of 64 MiB
  above what it had mapped after a first small audit; the same process holding the parsed log
  (pbem.audit.verified_records) runs out of memory under that cap, so the cap is well below
  what a whole-log audit needs.
- Workers: with worker processes (forced, in chunks of a few lines so chunks, key changes and
  in-order consumption all happen on a small game) every export, valid or tampered, gets the
  same report or the same failure, word for word, as the audit in one process.
- A file read piece by piece gives what its bytes give (cut short, empty, tampered, valid).
- One pass: a walk failure followed by a broken line later in the file is reported as the
  broken chain (the verdict of verifying the whole chain before walking it).
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, _parallel, audit_bytes, audit_path
from pbem.game import registry, versions
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.gamedir import GENESIS_FORMAT
from tests.support.lying import join, lines_of, lying_referee
from tests.support.played import Played, played

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory)


def outcome(data: bytes, workers: int) -> tuple[Any, ...]:
    """The report's lines, or the failure's message and place."""
    try:
        return ("passed", *audit_bytes(data, "game.export", workers=workers).lines())
    except AuditFailure as exc:
        return ("failed", str(exc), exc.seq, exc.line, exc.field)


@pytest.fixture(params=[False, True], ids=["workers-do-all", "walk-takes-unstarted"])
def small_chunks(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Chunks of three lines; the walk either waits for the workers' findings on every chunk
    (so every finding is used) or takes a chunk no worker has started (as it does on a busy
    machine: the verdict is the same whoever checked which line)."""
    monkeypatch.setattr(_parallel, "CHUNK_LINES", 3)
    monkeypatch.setattr(_parallel, "STEAL", request.param)


def flip(data: bytes, line: int, at: int = 30) -> bytes:
    lines = lines_of(data)
    raw = bytearray(lines[line - 1])
    raw[at] ^= 0x01
    lines[line - 1] = bytes(raw)
    return join(lines)


def _change_orders(seq: int) -> Callable[[list[dict[str, Any]]], None]:
    def change(items: list[dict[str, Any]]) -> None:
        items[seq]["body"]["orders"] = {"depart": {"from": "Algol", "ships": 99, "to": "Spica"}}
    return change


def _nobody_sent(items: list[dict[str, Any]]) -> None:
    resolve = next(i for i in items if i["kind"] == replay.RESOLVE)
    power = sorted(resolve["body"]["used"])[0]
    resolve["body"]["used"][power] = "f" * 64


def _resigned(game: Played, seq: int, key: PrivateKey) -> Callable[[list[dict[str, Any]]],
                                                                     None]:
    def change(items: list[dict[str, Any]]) -> None:
        body = items[seq]["body"]
        text = body["text"].split("-----BEGIN PBEM SIGNATURE-----")[0]
        text = text.replace("-----BEGIN PBEM SIGNED ORDERS-----\n", "")
        body["text"] = sign_orders(text, key)
        body["key"] = key.public.fingerprint
    return change


def tampered(game: Played) -> dict[str, bytes]:
    lines = lines_of(game.export)
    first_orders = next(i for i, raw in enumerate(lines[1:]) if b'"kind":"orders"' in raw)
    last_orders = max(i for i, raw in enumerate(lines[1:]) if b'"kind":"orders"' in raw)
    return {
        "byte flip in an order file": flip(game.export, first_orders + 2),
        "byte flip in the last line": flip(game.export, len(lines)),
        "deleted line": join(lines[:4] + lines[5:]),
        "duplicated line": join(lines[:6] + [lines[5]] + lines[6:]),
        "parsed orders differ from the signed text": lying_referee(
            game, _change_orders(first_orders)),
        "an order after the key change differs": lying_referee(
            game, _change_orders(last_orders)),
        "a resolution uses orders nobody sent": lying_referee(game, _nobody_sent),
        "signed with the key replaced before": lying_referee(game, _resigned(
            game, game.key_seq + 3, PrivateKey.load(game.host.tmp / "keys" / "g1-antares.key"))),
        "signed with another player's key": lying_referee(game, _resigned(
            game, 2, game.host.keys["regulus"])),
        "public export with a flipped byte": flip(game.public, 5),
    }


def test_workers_give_the_same_report_on_a_valid_game(game, small_chunks, tmp_path):
    for data in (game.export, game.public):
        serial = outcome(data, 0)
        assert serial[0] == "passed"
        assert outcome(data, 1) == serial == outcome(data, 2)
    directory = [audit_path(game.host.path, workers=w).lines() for w in (0, 1)]
    assert directory[0] == directory[1]
    assert directory[0][0].startswith("audit passed")


def test_workers_give_the_same_failure_on_every_tampered_export(game, small_chunks):
    for name, data in tampered(game).items():
        serial = outcome(data, 0)
        assert serial[0] == "failed", name
        assert outcome(data, 1) == serial, name


def test_workers_reading_the_file_give_the_same_verdicts(game, small_chunks, tmp_path):
    """audit_path hands the workers the place of each chunk in the file, not its lines: each
    export, valid or tampered, gets the same report or failure as in one process."""
    path = tmp_path / "game.export"
    for name, data in {"valid": game.export, **tampered(game)}.items():
        path.write_bytes(data)
        found = []
        for workers in (0, 1, 2):
            try:
                found.append(("passed", *audit_path(path, workers=workers).lines()))
            except AuditFailure as exc:
                found.append(("failed", str(exc), exc.seq, exc.line, exc.field))
        assert found[0] == found[1] == found[2], name
        assert found[0][0] == ("passed" if name == "valid" else "failed"), name


def test_a_worker_finds_nothing_where_the_file_no_longer_holds_the_lines(game, tmp_path):
    """A chunk read from the file (check_range) is checked as check_chunk checks its lines;
    where the file does not hold lines of the lengths the walk read (it changed), the worker
    finds nothing and the walk checks those lines itself."""
    path = tmp_path / "game.export"
    path.write_bytes(game.export)
    lines = lines_of(game.export)
    start = len(lines[0]) + 1  # the header line
    entries = lines[1:6]
    lengths = [len(raw) for raw in entries]
    args = ("game.export", "g1", 0, {})
    read = pickle.loads(_parallel.check_range(str(path), start, lengths, 2, *args))
    given = pickle.loads(_parallel.check_chunk(entries, 2, *args))
    assert read == given and all(a is not None and a.verified for a in read)
    for wrong in ([*lengths[:-1], lengths[-1] + 1], [lengths[0] - 1, *lengths[1:]]):
        found = pickle.loads(_parallel.check_range(str(path), start, wrong, 2, *args))
        assert found == [None] * len(wrong)
    assert pickle.loads(_parallel.check_range(str(tmp_path / "gone"), start, lengths, 2,
                                              *args)) == [None] * len(lengths)


def test_a_file_is_audited_as_its_bytes_are(game, tmp_path):
    cases = {**tampered(game), "valid": game.export, "cut short": game.export[:-10],
             "empty": b"", "header only": lines_of(game.export)[0] + b"\n"}
    for name, data in cases.items():
        path = tmp_path / "game.export"
        path.write_bytes(data)
        try:
            streamed: tuple[Any, ...] = ("passed", *audit_path(path, workers=0).lines())
        except AuditFailure as exc:
            streamed = ("failed", str(exc), exc.seq, exc.line, exc.field)
        try:
            held: tuple[Any, ...] = ("passed", *audit_bytes(data, str(path), workers=0).lines())
        except AuditFailure as exc:
            held = ("failed", str(exc), exc.seq, exc.line, exc.field)
        assert streamed == held, name


def test_a_walk_failure_before_a_broken_line_is_reported_as_the_broken_chain(game):
    lines = lines_of(game.export)
    first_orders = next(i for i, raw in enumerate(lines[1:]) if b'"kind":"orders"' in raw)
    lying = lying_referee(game, _change_orders(first_orders))
    alone = outcome(lying, 0)  # alone, the walk names the changed order file
    assert alone[0] == "failed" and alone[2] == first_orders and alone[4] != "hash chain"
    broken = flip(lying, len(lines) - 1)
    for workers in (0, 1):
        with pytest.raises(AuditFailure) as info:
            audit_bytes(broken, "game.export", workers=workers)
        assert info.value.field == "hash chain" and info.value.line == len(lines) - 1


def long_log(path: Path, entries: int, note_bytes: int) -> None:
    """A valid log: a 4000 A.D. genesis and ``entries`` referee-signed pauses, each with a
    ``note_bytes`` reason (a long log that is cheap to make and to audit)."""
    AD = registry.load("4000ad")
    referee = PrivateKey.generate()
    recorded = versions.genesis_fields(AD, None)
    options = {"game_id": "long"}
    initial = AD.setup("independents-4", versions.setup_options(
        {**recorded, "options": options}))
    genesis = {"format": GENESIS_FORMAT, "game_id": "long", "config": {"generated": "test"},
               "keys": {p: PrivateKey.generate().public.text() for p in AD.powers_due(initial)},
               "referee": referee.public.text(), "plugin": AD.id, "variant": "independents-4",
               "options": options, "initial_state": canonical.digest(initial),
               "deadline": "2026-12-01T00:00:00Z", **recorded}
    entry = glog.make_entry(None, glog.GENESIS_KIND, "2026-12-01T00:00:00Z", genesis)
    with open(path, "wb") as out:
        out.write(entry.line())
        for n in range(entries):
            reason = f"pause {n} " + "x" * note_bytes
            body = replay.sign_gm(referee, {"op": "pause", "reason": reason})
            entry = glog.make_entry(entry, replay.GM, "2026-12-01T01:00:00Z", body)
            out.write(entry.line())


_CAPPED = """
import json, resource, sys
from pathlib import Path
from pbem.audit import AuditFailure, audit_path, verified_records

small, big, workers = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
audit_path(small, workers=0)  # imports, plugin and allocator warmed up
mapped = next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmSize"))
cap = mapped * 1024 + 64 * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
report = audit_path(big, workers=workers)
try:
    verified_records(big.read_bytes(), str(big))
    held = "held"
except MemoryError:
    held = "MemoryError"
print(json.dumps({"first": report.lines()[0], "gm": report.tally.gm_ops.count("pause"),
                  "whole": held}))
"""


@pytest.mark.parametrize("workers", [0, 1])
def test_memory_stays_flat_under_an_address_space_cap(tmp_path, workers):
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    long_log(small, 3, 100)
    long_log(big, 400, 100_000)
    assert big.stat().st_size > 40_000_000
    run = subprocess.run([sys.executable, "-c", _CAPPED, str(small), str(big), str(workers)],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout)
    assert found["first"].startswith(f"audit passed: {big}")
    assert found["gm"] == 400
    assert found["whole"] == "MemoryError"  # holding the parsed log does not fit the cap
