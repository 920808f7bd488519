"""A lying referee who resolves a turn with other orders than the rule picks: every resolution
must use, for each power due, exactly the highest-seq order file accepted and logged since the
previous resolution (or the standing orders where there is none). Each way to drop, swap or
downgrade an order is caught at the resolution, naming it, on the game directory, the full
export and the public export (which withholds the order files and their digests).

The game is the real one of tests/engine/audit/test_audit_game.py (played through the cron job); the
lying referee rewrites the log, recomputes every hash after the change and re-signs the exports with
the real referee key."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes, audit_path
from pbem.audit.export import lines_of
from pbem.game import registry
from pbem.store import replay
from pbem.store.referee import referee_key
from tests.support.lying import TURN2, TURN3, Items, chain_of, items_of, re_resolve_without
from tests.support.played import Played, played

AD = registry.load("4000ad")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory)


def sha_at(items: Items, seq: int) -> str:
    assert items[seq]["kind"] == "orders"
    return str(items[seq]["body"]["sha256"])


def audited(game: Played, items: Items, source: str, tmp: Path) -> None:
    """Audit the lying referee's log as ``source``: dir, full or public."""
    chain = chain_of(items)
    if source == "dir":
        gamedir = tmp / "g1"
        gamedir.mkdir()
        (gamedir / "log.jsonl").write_bytes(b"".join(e.line() for e in chain))
        audit_path(gamedir)
        return
    key, _ = referee_key(game.host.root)
    data = b"".join(lines_of(chain, AD, "g1", key, source == "public"))
    audit_bytes(data, f"g1.{source}")


def fails(game: Played, items: Items, source: str, tmp: Path) -> AuditFailure:
    with pytest.raises(AuditFailure) as info:
        audited(game, items, source, tmp)
    return info.value


SOURCES = ("dir", "full", "public")


def test_the_layout_this_file_relies_on(game):
    items = items_of(game)
    kinds = [(i["kind"], i["body"].get("turn"), i["body"].get("power"), i["body"].get("seq"))
             for i in items]
    assert kinds[TURN2][:2] == ("resolve", 2) and kinds[TURN3][:2] == ("resolve", 3)
    assert kinds[7] == ("orders", 2, "algol", 2) and kinds[8][2] == "regulus"
    assert kinds[4] == ("orders", 1, "algol", 1)
    assert kinds[14] == ("orders", 3, "algol", 3) and kinds[15] == ("orders", 3, "algol", 4)


@pytest.mark.parametrize("source", SOURCES)
def test_the_honest_game_passes_and_every_resolution_is_checked(game, source, tmp_path):
    audited(game, items_of(game), source, tmp_path)
    chain = chain_of(items_of(game))
    key, _ = referee_key(game.host.root)
    data = b"".join(lines_of(chain, AD, "g1", key, source == "public"))
    assert audit_bytes(data, "x").tally.used_checked == 3


Change = Callable[[Items], None]


def _set_used(seq: int, power: str, value: Callable[[Items], str]) -> Change:
    def change(items: Items) -> None:
        items[seq]["body"]["used"][power] = value(items)
    return change


CASES: dict[str, tuple[int, Change, str, str]] = {
    # name: (resolution seq, the lie, what the failure says was found, why)
    "dropped": (TURN2, lambda items: re_resolve_without(items, TURN2, "algol"),
                "null (the standing orders)", "a dropped order"),
    "older seq": (TURN3, _set_used(TURN3, "algol", lambda items: sha_at(items, 14)),
                  "algol's order file seq 3 for turn 3 (log entry 14), superseded by seq 4 "
                  "(log entry 15)", "an older order file was used"),
    "another power's file": (TURN2, _set_used(TURN2, "algol", lambda items: sha_at(items, 8)),
                             "regulus's order file seq 2 for turn 2 (log entry 8)",
                             "taken from another power's order file"),
    "a file of the previous turn": (TURN2, _set_used(TURN2, "algol",
                                                     lambda items: sha_at(items, 4)),
                                    "algol's order file seq 1 for turn 1 (log entry 4), logged "
                                    "before the previous resolution",
                                    "an order file of an earlier turn"),
    "a file logged after the resolution": (TURN2, _set_used(TURN2, "algol",
                                                            lambda items: sha_at(items, 15)),
                                           "algol's order file seq 4 for turn 3 (log entry "
                                           "15), logged after this resolution",
                                           "cannot be used by a resolution made before"),
    "a file nobody sent": (TURN2, _set_used(TURN2, "algol", lambda items: "ab" * 32),
                           "", "no player sent"),
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_resolution_that_did_not_use_the_latest_accepted_file_is_named(game, case, source,
                                                                          tmp_path):
    seq, change, found, why = CASES[case]
    items = items_of(game)
    change(items)
    failure = fails(game, items, source, tmp_path)
    text = str(failure)
    assert failure.seq == seq, text
    assert failure.field is not None and failure.field.endswith("used.algol"), text
    assert text.startswith(f"log entry seq {seq} (resolve, turn {items[seq]['body']['turn']}")
    wanted = {TURN2: "algol's order file seq 2 for turn 2 (log entry 7)",
              TURN3: "algol's order file seq 4 for turn 3 (log entry 15)"}[seq]
    assert f"expected {wanted}" in text, text
    assert f"found {found}" in text and why.lower() in text.lower(), text


def test_the_dropped_order_passes_every_other_check(game, tmp_path):
    """The drop is consistent in itself: the recorded state and events are the rules core's
    resolution without algol's orders. Only the rule on used order files catches it: with
    algol's order file removed from the log as well, the same resolution passes."""
    items = items_of(game)
    re_resolve_without(items, TURN2, "algol")
    del items[7]  # algol's turn-2 file, never logged
    for later in items[7:]:
        assert later["kind"] != "orders" or later["body"]["turn"] == 2
    audited(game, items, "full", tmp_path)


def test_a_stale_claim_without_an_order_file_is_refused_in_the_public_export(game):
    key, _ = referee_key(game.host.root)
    lines = lines_of(game.host.entries(), AD, "g1", key, True)
    record = json.loads(lines[1 + TURN2])
    assert record["withheld"]["public"]["stale"] == []
    record["withheld"]["public"]["stale"] = ["pavo"]  # pavo sent nothing in turn 2
    lines[1 + TURN2] = canonical.encode(record) + b"\n"
    header = json.loads(lines[0])
    import hashlib

    from pbem.audit.export import DOMAIN, PAYLOAD_TYPE, header_payload
    header["withheld"][str(TURN2)] = hashlib.sha256(lines[1 + TURN2]).hexdigest()
    header["signature"] = key.sign(DOMAIN, PAYLOAD_TYPE, header_payload(header)).hex()
    lines[0] = canonical.encode(header) + b"\n"
    with pytest.raises(AuditFailure) as info:
        audit_bytes(b"".join(lines), "x")
    assert info.value.seq == TURN2 and info.value.field == "withheld.public.stale.pavo"


# -- the length of withheld order files ---------------------------------------------------------
def test_withheld_order_files_show_only_the_bucket_of_their_length(game):
    lengths = set()
    for raw in game.public.split(b"\n")[1:-1]:
        record = json.loads(raw)
        sha = record.get("withheld", {}).get("sha256")
        if sha:
            assert sha["tail"] == "" and sha["length"] % replay.PAD_BUCKET == 0
            lengths.add(sha["length"])
    # the files differ in length (reveals, escrow, concessions, corrections), the buckets not
    texts = {len(e.body["text"]) for e in game.host.entries("orders")}
    assert len(texts) > len(lengths)


def test_a_pad_that_carries_something_is_refused(game, tmp_path):
    items = items_of(game)
    pad = items[7]["body"]["pad"]
    items[7]["body"]["pad"] = "x" + pad[1:]
    failure = fails(game, items, "full", tmp_path)
    assert failure.seq == 7 and failure.field == "pad"


def test_stale_orders_may_be_left_out_but_not_used():
    """The rules core's verdict at the resolution decides: a stale file gives the standing
    orders (null is right), and using it anyway is named."""
    from pbem.audit._used import OrderRef, misuse

    stale = OrderRef(7, "algol", 2, 2, "a" * 64)
    assert misuse(None, None, stale, "algol", 10, 5) is None
    expected, found, why = misuse(stale, None, stale, "algol", 10, 5) or ("", "", "")
    assert expected.startswith("no order file (the standing orders): algol's order file seq 2")
    assert "stale" in expected and found == stale.name() and "refuses" in why
    assert misuse(None, None, None, "algol", 10, 5) is None
