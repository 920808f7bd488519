"""The root index (pbem.host.rootindex): ingest reads only the games a mail concerns, and the
index always gives way to the game directories — a replaced key, a hand-edited address, a new
game, a deleted or damaged index and a forged entry without the index's MAC are all seen by the
next mail, through the real ``pbem ingest --stdin`` process."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.cli.main import main as pbem_main
from pbem.host import rootindex
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from tests.support.ingest_helpers import REPO, order_mail
from tests.support.pbem_host import Host, at, instance_of, iso


def signed(host: Host, power: str, seq: int, key: PrivateKey | None = None) -> str:
    doc: dict[str, Any] = {"pbem": 1, "game": host.game_id, "power": power,
                           "turn": host.state()["turn"], "seq": seq,
                           "instance": instance_of(host.path), "orders": {}}
    return sign_orders(yaml.safe_dump(doc, sort_keys=False), key or host.keys[power])


def ingest(host: Host, raw: bytes, hours: float) -> str:
    done = subprocess.run([sys.executable, "-m", "pbem", "ingest", str(host.root), "--stdin",
                           "--now", iso(at(hours))], input=raw, capture_output=True, cwd=REPO,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def send(host: Host, power: str, seq: int, hours: float, key: PrivateKey | None = None,
         sender: str | None = None) -> str:
    raw = order_mail(signed(host, power, seq, key), msgid=f"<{power}.{seq}.{hours}@example.org>",
                     sender=sender or f"{power}@example.org")
    return ingest(host, raw, hours)


def test_a_mail_is_routed_through_the_index_and_a_replaced_key_is_seen_at_once(
        tmp_path: Path) -> None:
    host = Host(tmp_path)
    assert "accepted: g1/algol" in send(host, "algol", 1, 1)
    index = host.root / rootindex.DIR
    assert (index / "meta.json").is_file() and (index / "game-g1.json").is_file()
    assert pbem_main(["keygen", str(tmp_path / "newbie")]) == 0
    new_key = PrivateKey.load(tmp_path / "newbie.key")
    assert pbem_main(["gm", "replace", str(host.path), "algol", "--email",
                      "newbie@example.org", "--key", str(tmp_path / "newbie.pub"),
                      "--now", iso(at(2))]) == 0
    assert "rejected" in send(host, "algol", 2, 3)  # the old key: no longer registered
    assert "accepted: g1/algol" in send(host, "algol", 3, 4, new_key, "newbie@example.org")


def test_an_index_that_disagrees_with_the_game_gives_way(tmp_path: Path) -> None:
    host = Host(tmp_path)
    assert "accepted: g1/pavo" in send(host, "pavo", 1, 1)
    index = host.root / rootindex.DIR
    # A forged key entry pointing a stranger's fingerprint at a power: the game's own entry
    # does not hold that key, so the index is rebuilt from the game and the stranger refused.
    stranger = PrivateKey.generate()
    (index / f"fp-{stranger.public.fingerprint}").write_text(
        f'["g1", "pavo", "{stranger.public.text()}"]')
    out = send(host, "pavo", 2, 2, stranger)
    assert "rejected" in out and "accepted" not in out
    assert not (index / f"fp-{stranger.public.fingerprint}").exists()  # rebuilt without it
    # A damaged or deleted index is rebuilt.
    (index / "meta.json").write_text("{not json")
    (index / "game-g1.json").unlink()
    assert "accepted: g1/pavo" in send(host, "pavo", 3, 3)


def test_a_hand_edited_address_and_a_new_game_are_seen_by_the_next_mail(
        tmp_path: Path) -> None:
    host = Host(tmp_path)
    assert "accepted: g1/regulus" in send(host, "regulus", 1, 1)
    config = host.path / "config.yaml"
    config.write_text(config.read_text().replace("regulus@example.org",
                                                 "regulus-new@example.org"))
    plain = order_mail("hello, no orders here", msgid="<plain.1@example.org>",
                       sender="regulus-new@example.org")
    assert "answered at regulus-new@example.org" in ingest(host, plain, 2)
    plain = order_mail("hello again", msgid="<plain.2@example.org>",
                       sender="regulus@example.org")
    assert "unregistered regulus@example.org" in ingest(host, plain, 3)
    (tmp_path / "second").mkdir()
    other = Host(tmp_path / "second", game_id="g2")  # its own root: then moved beside g1
    other.path.rename(host.root / "g2")
    other.path = host.root / "g2"
    other.root = host.root
    keys = other.keys
    out = ingest(other, order_mail(sign_orders(yaml.safe_dump(
        {"pbem": 1, "game": "g2", "power": "antares", "turn": 1, "seq": 1,
         "instance": instance_of(host.root / "g2"), "orders": {}},
        sort_keys=False), keys["antares"]), msgid="<g2.1@example.org>",
        sender="antares@example.org"), 4)
    assert "accepted: g2/antares" in out, out


def _payload(raw: bytes) -> Any:
    """An index file's JSON (after its MAC line, if it has one)."""
    first, _, rest = raw.partition(b"\n")
    return json.loads(rest if rest and re.fullmatch(rb"[0-9a-f]{64}", first) else raw)


@pytest.mark.parametrize("forgery", ["no-mac", "mac-under-another-key"])
def test_a_forged_but_consistent_index_entry_is_never_trusted(tmp_path: Path,
                                                              forgery: str) -> None:
    """Whoever can write ROOT/.pbem-index/ but not read referee.key forges a game entry and a
    key entry that agree with each other and with config.yaml's mark, registering their own key
    for Pavo: without a MAC the index alone would let their orders in."""
    host = Host(tmp_path)
    assert "accepted: g1/pavo" in send(host, "pavo", 1, 1)
    index = host.root / rootindex.DIR
    stranger = PrivateKey.generate()
    entry = _payload((index / "game-g1.json").read_bytes())
    entry["keys"]["pavo"] = stranger.public.text()
    entry["fingerprints"]["pavo"] = stranger.public.fingerprint
    forged = {"game-g1.json": entry,
              f"fp-{stranger.public.fingerprint}": ["g1", "pavo", stranger.public.text()]}
    for name, value in forged.items():
        payload = json.dumps(value, sort_keys=True).encode()
        if forgery == "no-mac":
            data = payload
        else:
            mac = hmac.new(b"k" * 32, name.encode() + b"\0" + payload, hashlib.sha256)
            data = mac.hexdigest().encode() + b"\n" + payload
        (index / name).write_bytes(data)
    out = send(host, "pavo", 2, 2, stranger)
    assert "rejected" in out and "accepted" not in out, out
    # Rebuilt from the game directory: the stranger's key is nowhere in the index.
    assert not (index / f"fp-{stranger.public.fingerprint}").exists()
    rebuilt = _payload((index / "game-g1.json").read_bytes())
    assert rebuilt["keys"]["pavo"] == host.keys["pavo"].public.text()
    assert "accepted: g1/pavo" in send(host, "pavo", 3, 3)


def test_every_ingest_reads_a_small_meta_file_and_the_marks_only_on_a_miss(
        tmp_path: Path) -> None:
    """meta.json (read by every ingest) holds the root's mark and the referee's addresses; the
    config mark of every game (~50 bytes a game: 250 KB at 5,000 games, parsed per mail when
    it was in meta.json) is in marks.json, read on a miss; an index file larger than one read
    (1 MiB) is read whole."""
    host = Host(tmp_path)
    assert "accepted: g1/algol" in send(host, "algol", 1, 1)
    index = rootindex.RootIndex(host.root)
    meta = index.check_root()
    assert set(meta) == {"root", "ours"}
    assert index._read("marks.json") == {"g1": rootindex._mark(host.path / "config.yaml")}
    index.check_marks()  # agrees with the game
    big = {f"g{i:07d}": [i, i, i] for i in range(60_000)}  # ~1.4 MB of JSON
    fresh = rootindex.RootIndex(host.root)
    fresh._write("marks.json", big)
    assert len((host.root / rootindex.DIR / "marks.json").read_bytes()) > 1 << 20
    assert rootindex.RootIndex(host.root)._read("marks.json") == big
    # A game that is not in the marks (the file above names none of the root's games, and
    # many that do not exist) makes the next miss rebuild: a stranger is still refused and
    # the player still accepted.
    out = send(host, "algol", 2, 2, PrivateKey.generate())
    assert "rejected" in out and "accepted" not in out
    assert rootindex.RootIndex(host.root)._read("marks.json") == {
        "g1": rootindex._mark(host.path / "config.yaml")}
    assert "accepted: g1/algol" in send(host, "algol", 3, 3)


def test_a_run_between_two_mails_leaves_the_index_current(tmp_path: Path) -> None:
    """``pbem run`` rewrites its due list (and its other notes) at every run; kept in
    ``ROOT/.pbem-run/`` they never change the root's mtime, so the next mail finds the index
    current (no rebuild: O(1) in the number of games), where a file replaced in ROOT made every
    first ingest after a run re-read every game."""
    host = Host(tmp_path)
    assert "accepted: g1/algol" in send(host, "algol", 1, 1)
    host.run(at(1.5))  # the first run makes ROOT/.pbem-run/ (the root's mtime changes once)
    rootindex.RootIndex(host.root).rebuild()  # the index, current now
    before = (host.root / rootindex.DIR / "meta.json").read_bytes()
    for hours in (2, 3):
        names = sorted(os.listdir(host.root))
        host.run(at(hours))
        assert sorted(os.listdir(host.root)) == names, "a run added or removed a name in ROOT"
        assert (host.root / ".pbem-run").is_dir() and not (host.root / ".pbem-due").exists()
        rootindex.RootIndex(host.root).check_root()  # raises Stale if the root looks changed
    assert "accepted: g1/algol" in send(host, "algol", 2, 3.5)
    assert (host.root / rootindex.DIR / "meta.json").read_bytes() == before  # not rebuilt


def _index_files(host: Host) -> dict[str, int]:
    """Each key and address file of the index, by its inode (a rebuild replaces every one)."""
    index = host.root / rootindex.DIR
    return {p.name: p.stat().st_ino for p in index.iterdir()
            if p.name.startswith(("fp-", "addr-", "game-"))}


def test_a_new_name_in_root_that_is_no_game_rebuilds_nothing(tmp_path: Path) -> None:
    """The first ``pbem run`` makes ``ROOT/.pbem-run/``, and an operator may add files beside
    the games: the root's mtime changes, but the games are the ones the index holds, so the
    next mail re-reads no game (one listing of the root: the same cost at 10 games as at
    5,000); a game removed is still seen at once."""
    host = Host(tmp_path)
    assert "accepted: g1/algol" in send(host, "algol", 1, 1)
    files = _index_files(host)
    host.run(at(1.5))  # the first run (the first receipt made ROOT/.pbem-run/ already)
    (host.root / "notes").mkdir()
    (host.root / "README").write_text("the referee's notes\n")
    index = rootindex.RootIndex(host.root)
    assert index._read("meta.json")["root"] != rootindex._mark(host.root)  # mtime changed
    assert index._read("names.json") == "g1"  # the games' names, read instead of the marks
    assert "accepted: g1/algol" in send(host, "algol", 2, 2)
    assert _index_files(host) == files  # nothing re-read or rewritten
    index = rootindex.RootIndex(host.root)
    assert index._read("meta.json")["root"] == rootindex._mark(host.root)  # current again
    raw = order_mail(signed(host, "algol", 3), msgid="<algol.3@example.org>",
                     sender="algol@example.org")
    (host.root / "g1").rename(host.root / ".g1-archived")  # the game leaves the root
    out = ingest(host, raw, 3)
    assert "accepted" not in out and "rejected" in out, out
    assert not any(name.startswith("game-g1") for name in _index_files(host))
