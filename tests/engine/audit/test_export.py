"""pbem export: the full export holds the log byte for byte; the public export withholds the
secrets and still lets the chain over the order files be checked (SHA-256 midstates)."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes, audit_path, sha256mid
from pbem.audit.export import DOMAIN, PAYLOAD_TYPE, ExportError, export_game, header_payload
from pbem.cli.main import main as pbem_main
from pbem.host import gmops
from pbem.protocol import escrow
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.referee import referee_key
from tests.support.pbem_host import Host, at
from tests.support.played import Played, played


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory)


def test_midstate_finishes_like_hashlib():
    sha256mid.self_test()
    data = bytes(range(256)) * 5
    for cut in (0, 63, 64, 65, 700, 1280):
        assert sha256mid.finish(sha256mid.midstate(data[:cut]), data[cut:]) == \
            hashlib.sha256(data).hexdigest()


def test_full_export_holds_every_log_line_byte_for_byte(game):
    log = (game.host.path / "log.jsonl").read_bytes()
    lines = game.export.split(b"\n")
    header = json.loads(lines[0])
    assert header["format"] == "pbem-export-v1" and header["public"] is False
    assert b"\n".join(lines[1:]) == log
    assert header["checkpoint"]["length"] == log.count(b"\n")


def test_public_export_withholds_order_files_escrow_and_digests(game):
    public = game.public
    secrets: list[str] = []
    for entry in game.host.entries():
        if entry.kind == "orders":
            secrets += [entry.body["text"], entry.body["sha256"]]
            secrets += [line for line in entry.body["text"].splitlines()
                        if line.startswith(("sig:", "      nonce:"))]
            depart = entry.body["orders"].get("depart") or {}
            if depart.get("escrow"):
                secrets.append(depart["escrow"])
        if entry.kind == "resolve":
            secrets += [sha for sha in entry.body["used"].values() if sha]
            for openings in entry.body["escrow"].values():
                secrets += [o["nonce"] for o in openings.values()]
            secrets += [canonical.dumps(e) for e in entry.body["events"] if "_visible_to" in e]
    assert any("escrow" in s or len(s) > 200 for s in secrets)
    for secret in secrets:
        assert secret.encode() not in public, secret[:40]
    # nor in the bytes a midstate publishes
    for raw in public.split(b"\n")[1:-1]:
        record = json.loads(raw)
        sha = record.get("withheld", {}).get("sha256")
        if sha:
            tail = bytes.fromhex(sha["tail"]).decode()
            assert not any(s in tail for s in secrets if len(s) < 100)


def test_public_export_audit_says_what_could_not_be_verified(game):
    report = audit_bytes(game.public, "game.public")
    text = "\n".join(report.lines())
    assert report.public and report.tally.withheld_orders == 12
    assert "12 order files withheld" in text and "3 withheld resolutions" in text
    lines = report.lines()
    # the first line and the last agree: a partial audit, the withheld part not verified
    assert lines[0].startswith("partial audit passed: game.public is a public export")
    assert "not verified" in lines[0] and lines[-1].startswith("not verified (public export)")
    assert lines[-1].endswith("audit the full export when it is published")
    assert "3 resolutions used, for each power due, the highest-seq order file" in text
    assert report.tally.keys_replaced == ["antares"]  # key entries stay whole and are checked


def test_a_withheld_record_whose_link_was_changed_is_refused_even_if_re_signed(game):
    lines = game.public.split(b"\n")[:-1]
    record = json.loads(lines[1 + 2])  # seq 2, an order file
    record["time"] = "2026-12-01T01:30:00Z"
    lines[3] = canonical.encode(record)
    header = json.loads(lines[0])
    header["withheld"]["2"] = hashlib.sha256(lines[3] + b"\n").hexdigest()
    key, _ = referee_key(game.host.root)
    header["signature"] = key.sign(DOMAIN, PAYLOAD_TYPE, header_payload(header)).hex()
    lines[0] = canonical.encode(header)
    with pytest.raises(AuditFailure) as info:
        audit_bytes(b"".join(x + b"\n" for x in lines), "x")
    assert info.value.line == 4 and "does not follow from its midstate" in str(info.value)


def test_export_refuses_a_referee_key_that_did_not_start_the_game(game, tmp_path):
    other = tmp_path / "other-root"
    shutil.copytree(game.host.path, other / "g1")
    referee_key(other, create=True)
    with pytest.raises(ExportError, match="not the key this game was started with"):
        export_game(other / "g1", tmp_path / "x.export")


# -- game-master operations -------------------------------------------------------------------
@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> Host:
    host = Host(tmp_path_factory.mktemp("gm-end"), game_id="g2")
    for power in host.powers:
        host.submit(power, {}, at(1))
    host.run(at(2))
    gmops.pause(host.path, at(3), "holidays")
    gmops.resume(host.path, at(4))
    gmops.concede(host.path, at(5), "pavo")
    gmops.end(host.path, at(6), "agreed by mail")
    return host


def test_a_game_ended_by_the_game_master_passes(ended):
    report = audit_path(ended.path)
    assert report.tally.gm_ops == ["pause", "resume", "concede", "end"]
    assert report.tally.over and "agreed by mail" in "\n".join(report.lines())


def _rewrite(host: Host, seq: int, change) -> bytes:
    entries = list(host.game().log.entries)
    items = [(e.kind, e.time, copy.deepcopy(e.body)) for e in entries]
    change(items[seq][2])
    chain: list[glog.Entry] = []
    for kind, time, body in items:
        chain.append(glog.make_entry(chain[-1] if chain else None, kind, time, body))
    return b"".join(e.line() for e in chain)


def test_a_gm_end_with_another_state_is_caught_even_when_re_signed(ended):
    from pbem.store import replay

    key, _ = referee_key(ended.root)
    seq = len(ended.entries()) - 1

    def change(body):
        body["state"] = "0" * 64
        body.update(replay.sign_gm(key, body))

    with pytest.raises(AuditFailure) as info:
        audit_bytes(_rewrite(ended, seq, change), "log.jsonl")
    assert info.value.seq == seq and info.value.field == "state"


def test_a_gm_entry_not_signed_by_the_referee_is_refused(ended):
    seq = len(ended.entries()) - 2  # the concession

    def change(body):
        body["power"] = "antares"

    with pytest.raises(AuditFailure) as info:
        audit_bytes(_rewrite(ended, seq, change), "log.jsonl")
    assert info.value.seq == seq and info.value.field == "signature"


# -- an escrow does not show in the length of a withheld order file (issue 27) ------------------
def _played_with(tmp: Path, with_escrow: bool) -> bytes:
    """Turn 1 of a four-power game: pavo departs for Spica, its reveal sealed to the referee's
    escrow key or not; the others send empty orders. Its public export."""
    tmp.mkdir()
    host = Host(tmp, "independents-4")
    assert pbem_main(["keygen", "--x25519", str(host.root / "referee")]) == 0
    pavo = host.depart("pavo", "Pavo", 4, "Spica")
    if with_escrow:
        star, nonce = host.vault[("pavo", "1", 1)]
        pavo["escrow"] = escrow.seal(escrow.load_public(host.root / "referee.x25519.pub"),
                                     host.game_id, "pavo", 1, 1, star, nonce)
    for power in host.powers:
        body = {"depart": pavo} if power == "pavo" else {}
        assert host.submit(power, body, at(1)).verdict == "accepted"
    assert host.run(at(2))[0].status == "resolved"
    out = tmp / "public.export"
    export_game(host.path, out, public=True)
    return out.read_bytes()


def _withheld_orders(public: bytes) -> list[tuple[int, str, int, int]]:
    """(seq, power, hashed length the midstate shows, length of the record's line) of every
    withheld order file."""
    out = []
    for raw in public.split(b"\n")[1:-1]:
        record = json.loads(raw)
        if record["kind"] == "orders":
            held = record["withheld"]
            out.append((record["seq"], held["public"]["power"], held["sha256"]["length"],
                        len(raw)))
    return out


def test_a_departure_with_escrow_is_as_long_as_one_without_and_as_no_orders(tmp_path):
    """Two games that differ only in whether pavo's departure carries an escrow: their public
    exports show withheld order files of one length, the same as the empty orders beside them
    (every order file is padded to replay.ORDERS_CLASS)."""
    plain = _withheld_orders(_played_with(tmp_path / "plain", False))
    sealed = _withheld_orders(_played_with(tmp_path / "sealed", True))
    assert len(plain) == len(sealed) == 4
    assert plain == sealed
    assert {length for _, _, length, _ in sealed} == {replay.ORDERS_CLASS}


def test_an_order_file_past_the_class_shows_only_its_kib_bucket():
    small = replay.orders_body(turn=1, power="algol", seq=0, sha256="0" * 64, text="x",
                               orders={}, received="t", message_id=None, key="k")
    big = replay.orders_body(turn=1, power="algol", seq=0, sha256="0" * 64,
                             text="x" * replay.ORDERS_CLASS, orders={}, received="t",
                             message_id=None, key="k")
    prefix = len(glog.DOMAIN) + len(b'{"body":')
    assert prefix + len(canonical.encode(small)) == replay.ORDERS_CLASS
    size = prefix + len(canonical.encode(big))
    assert size % replay.PAD_BUCKET == 0 and replay.ORDERS_CLASS < size <= (
        2 * replay.ORDERS_CLASS + replay.PAD_BUCKET)
