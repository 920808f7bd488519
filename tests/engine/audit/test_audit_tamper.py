"""Tampering with the export of a finished game (tests/engine/audit/test_audit_game.py): every
change is detected and the audit names the entry where it is.

Two kinds of attacker: one who edits the file (a byte flip, a deleted, inserted, duplicated or
reordered line, a cut) and breaks the hash chain or the referee's signatures; and a lying
referee, who rewrites entries, recomputes every hash after them and re-signs the export with
the real referee key -- only the signatures of the players and the rules core can catch it."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes
from pbem.audit.export import make_header
from pbem.game import registry
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.checkpoint import Checkpoint
from pbem.store.referee import referee_key
from tests.support.genesis_setup import setup_options
from tests.support.lying import entries_of, join, lines_of, lying_referee
from tests.support.played import Played, played

AD = registry.load("4000ad")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory)


def fails(data: bytes, checkpoints: list[Checkpoint] | None = None) -> AuditFailure:
    with pytest.raises(AuditFailure) as info:
        audit_bytes(data, "game.export", checkpoints or [])
    return info.value


def state_before(game: Played, seq: int) -> dict[str, Any]:
    entries = entries_of(game.export)
    initial = AD.setup(entries[0].body["variant"], setup_options(entries[0].body))
    return replay.replay(AD, entries[:seq], initial)


# -- an attacker editing the file ---------------------------------------------------------------
def test_every_sampled_single_byte_flip_is_detected_at_its_line(game):
    data = game.export
    rng = random.Random(7)
    newlines = [i for i, b in enumerate(data) if b == 0x0A]
    starts = [0] + [i + 1 for i in newlines[:-1]]
    positions = sorted(set(rng.sample(range(len(data)), 400) + newlines + starts))
    for pos in positions:
        flipped = bytearray(data)
        flipped[pos] ^= rng.randrange(1, 256)
        failure = fails(bytes(flipped))
        line = data.count(b"\n", 0, pos) + 1
        assert failure.line == line, (pos, line, str(failure))


def test_single_byte_flips_in_the_public_export_are_detected_at_their_line(game):
    data = game.public
    rng = random.Random(11)
    for pos in sorted(rng.sample(range(len(data)), 200)):
        flipped = bytearray(data)
        flipped[pos] ^= rng.randrange(1, 256)
        assert fails(bytes(flipped)).line == data.count(b"\n", 0, pos) + 1, pos


def test_a_deleted_entry_is_named_where_the_gap_is(game):
    lines = lines_of(game.export)
    del lines[1 + 8]  # seq 8
    failure = fails(join(lines))
    assert (failure.seq, failure.line) == (9, 10)
    assert "expected seq 8, found seq 9" in str(failure)


def test_an_inserted_entry_breaks_the_chain_at_the_next_one(game):
    lines = lines_of(game.export)
    entries = entries_of(game.export)
    forged = glog.make_entry(entries[7], "orders", "2026-12-01T05:00:00Z", entries[8].body)
    lines.insert(1 + 8, forged.line().rstrip(b"\n"))
    failure = fails(join(lines))
    assert failure.line == 11 and "expected seq 9, found seq 8" in str(failure)


def test_a_duplicated_entry_is_named(game):
    lines = lines_of(game.export)
    lines.insert(1 + 5, lines[1 + 4])
    failure = fails(join(lines))
    assert failure.line == 7 and "duplicate of line 6" in str(failure)


def test_reordered_entries_are_named(game):
    lines = lines_of(game.export)
    lines[1 + 2], lines[1 + 3] = lines[1 + 3], lines[1 + 2]
    failure = fails(join(lines))
    assert failure.line == 4 and "expected seq 2, found seq 3" in str(failure)


def test_a_truncated_export_is_caught_by_the_checkpoint_in_its_header(game):
    failure = fails(join(lines_of(game.export)[:-3]))
    assert "truncated" in str(failure) and failure.field == "checkpoint"


def test_a_truncated_and_re_signed_export_is_caught_by_a_players_checkpoint(game):
    key, _ = referee_key(game.host.root)
    entries = entries_of(game.export)
    kept = entries[:-3]
    cut = join([canonical.encode(make_header(key, "g1", kept, False, {})),
                *(e.line().rstrip(b"\n") for e in kept)])
    audit_bytes(cut, "cut.export")  # consistent in itself
    mine = Checkpoint.sign(key, "g1", len(entries) - 1, entries[-2].hash)
    failure = fails(cut, [mine])
    assert "the log was truncated" in str(failure) and failure.field == "checkpoint"


def test_an_appended_entry_after_the_signed_head_is_named(game):
    entries = entries_of(game.export)
    extra = glog.make_entry(entries[-1], "gm", entries[-1].time, {"op": "pause"})
    failure = fails(join([*lines_of(game.export), extra.line().rstrip(b"\n")]))
    assert failure.seq == 17 and "added after export" in str(failure)


# -- a lying referee --------------------------------------------------------------------------
def test_a_changed_ship_count_in_a_recorded_state_is_caught_by_the_replay(game):
    seq = game.battle_seq
    true_after = state_before(game, seq + 1)
    lie = copy.deepcopy(true_after)
    star = next(s for s, v in sorted(lie["stars"].items()) if v["ships"])
    power = sorted(lie["stars"][star]["ships"])[0]
    lie["stars"][star]["ships"][power] += 3

    def change(items):
        items[seq]["body"]["state"] = canonical.digest(lie)

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq and failure.field == "state"
    assert canonical.digest(true_after) in str(failure) and "turn 2" in str(failure)


def test_a_changed_ship_count_in_a_battle_event_is_named_with_its_field(game):
    seq = game.battle_seq

    def change(items):
        events = items[seq]["body"]["events"]
        battle = next(e for e in events if e["type"] == "battle")
        key = next(k for k, v in battle.items() if isinstance(v, int) and v > 0)
        battle[key] += 1

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq and failure.field.startswith("events[6]")


def test_a_reveal_swapped_in_the_signed_order_file_breaks_its_signature(game):
    def change(items):
        body = items[8]["body"]  # regulus, turn 2: arrive at Schedar
        body["text"] = body["text"].replace("arrive: Schedar", "arrive: Ruchbah")

    failure = fails(lying_referee(game, change))
    assert failure.seq == 8 and failure.field.startswith("text")
    assert "power regulus" in str(failure) and "signature" in str(failure)


def test_a_reveal_swapped_in_the_parsed_orders_differs_from_the_signed_text(game):
    def change(items):
        items[8]["body"]["orders"]["warps"]["1"]["arrive"] = "Ruchbah"

    failure = fails(lying_referee(game, change))
    assert failure.seq == 8 and failure.field == "orders.warps.1.arrive"
    assert "Schedar" in str(failure) and "Ruchbah" in str(failure)


def test_an_invented_reveal_in_an_escrow_opening_fails_the_commitment_check(game):
    seq = game.escrow_seq

    def change(items):
        opening = items[seq]["body"]["escrow"]["pavo"]["1"]
        assert opening["value"] == "Spica"
        opening["value"] = "Porrima"  # also 2 from Pavo: the distance is right

    failure = fails(lying_referee(game, change))
    # The rules core opens the commitment with Porrima and the recorded nonce: no match, so the
    # fleet cannot arrive, yet the referee recorded the opening as used.
    assert failure.seq == seq and failure.field == "escrow.pavo.1.used"
    assert "commitment" in str(failure) and "turn 2" in str(failure)


def test_an_escrow_opening_flagged_unused_is_caught(game):
    seq = game.escrow_seq

    def change(items):
        items[seq]["body"]["escrow"]["pavo"]["1"]["used"] = False

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq and failure.field == "escrow.pavo.1.used"


def test_an_order_re_signed_with_another_players_key_is_refused(game):
    def change(items):
        body = items[2]["body"]  # antares, turn 1
        yaml_text = body["text"].split("-----BEGIN PBEM SIGNATURE-----")[0]
        yaml_text = yaml_text.replace("-----BEGIN PBEM SIGNED ORDERS-----\n", "")
        body["text"] = sign_orders(yaml_text, game.host.keys["regulus"])
        body["key"] = game.host.keys["regulus"].public.fingerprint

    failure = fails(lying_referee(game, change))
    assert failure.seq == 2 and "power antares" in str(failure)
    assert "regulus's key" in str(failure)


def test_an_order_signed_with_a_replaced_key_is_refused(game):
    old_key = PrivateKey.load(game.host.tmp / "keys" / "g1-antares.key")

    def change(items):
        body = items[9]["body"]  # antares, turn 2, after the key replacement at seq 6
        yaml_text = body["text"].split("-----BEGIN PBEM SIGNATURE-----")[0]
        yaml_text = yaml_text.replace("-----BEGIN PBEM SIGNED ORDERS-----\n", "")
        body["text"] = sign_orders(yaml_text, old_key)
        body["key"] = old_key.public.fingerprint

    failure = fails(lying_referee(game, change))
    assert failure.seq == 9 and f"replaced it at seq {game.key_seq}" in str(failure)


def test_an_old_order_file_logged_again_for_a_later_turn_is_refused(game):
    def change(items):
        replayed = copy.deepcopy(items[4])  # algol's turn-1 file, replayed in turn 2
        replayed["time"] = items[7]["time"]  # at a time that fits its new place in the log
        items.insert(8, replayed)

    failure = fails(lying_referee(game, change))
    assert failure.seq == 8 and failure.field == "turn"


def test_a_key_entry_not_signed_by_the_referee_is_refused(game):
    def change(items):
        items[game.key_seq]["body"]["key"] = PrivateKey.generate().public.text()

    failure = fails(lying_referee(game, change))
    assert failure.seq == game.key_seq and failure.field == "signature"


def test_a_resolution_using_orders_nobody_sent_is_refused(game):
    def change(items):
        items[5]["body"]["used"]["pavo"] = "0" * 64

    failure = fails(lying_referee(game, change))
    assert failure.seq == 5 and failure.field == "used.pavo"


# -- checkpoints a player kept ------------------------------------------------------------------
def test_checkpoints_of_the_real_log_are_extended(game):
    key, _ = referee_key(game.host.root)
    entries = entries_of(game.export)
    kept = [Checkpoint.sign(key, "g1", n, entries[n - 1].hash) for n in (1, 6, 11, 16)]
    report = audit_bytes(game.export, "game.export", kept)
    assert len(report.checkpoints) == 5
    line = next(x for x in report.lines() if x.startswith("checkpoints: "))
    # named, not counted: "1 given … 2 given" read like counts (issue 13)
    assert "given" not in line and "the export header's g1@17:" in line
    assert f"--checkpoint #2 g1@6:{entries[5].hash[:12]} is extended by this log" in line


def test_a_checkpoint_from_a_forked_log_names_the_fork(game):
    key, _ = referee_key(game.host.root)

    def change(items):
        items[5]["body"]["deadline"] = "2026-12-04T00:00:00Z"  # harmless for the rules

    forked = entries_of(lying_referee(game, change))
    audit_bytes(lying_referee(game, change), "forked.export")  # consistent in itself
    from_fork = Checkpoint.sign(key, "g1", 9, forked[8].hash)
    entries = entries_of(game.export)
    early = Checkpoint.sign(key, "g1", 4, entries[3].hash)
    failure = fails(game.export, [early, from_fork])
    assert failure.field == "checkpoint" and failure.seq == 8
    assert "--checkpoint #2" in str(failure) and "forked at or before seq 8" in str(failure)


def test_a_checkpoint_with_a_bad_signature_or_for_another_game_is_refused(game):
    entries = entries_of(game.export)
    forged = Checkpoint.sign(PrivateKey.generate(), "g1", 4, entries[3].hash)
    assert "signature" in str(fails(game.export, [forged]))
    key, _ = referee_key(game.host.root)
    other = Checkpoint.sign(key, "g2", 4, entries[3].hash)
    assert "for game g2" in str(fails(game.export, [other]))


def test_the_checkpoint_of_a_public_export_is_extended_by_the_full_export(game):
    header = json.loads(lines_of(game.public)[0])
    cp = header["checkpoint"]
    kept = Checkpoint.parse(f"pbem-checkpoint game=g1 length={cp['length']} head={cp['head']} "
                            f"sig={cp['sig']}")
    assert audit_bytes(game.export, "full", [kept]).checkpoints


def test_a_step_marked_as_one_whose_silence_is_an_answer_is_caught(game):
    """A referee who marks a resolution ``"silence": "default"`` (Window.silence) where the
    game's window counts silence as a missed turn hides missed turns: the replay names it."""
    seq = game.battle_seq

    def change(items):
        items[seq]["body"]["silence"] = "default"

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq and failure.field == "silence"
    assert "missed turn" in str(failure)
