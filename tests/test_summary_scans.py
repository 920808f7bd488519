"""The running summary (pbem.store.summary) gives what a visit and a game-turn used to scan the
whole log for, exactly: compared with each scan on every prefix of generated logs (orders with
chance tips and values, resolutions that drew, pauses, resumes, extensions, key replacements,
press, the chance secret) and of a game played through the real turn job; and a visit or a
game-turn at a long game's end reads no entry below its trusted point."""

from __future__ import annotations

import random

import pytest

from pbem.host import notify
from pbem.store import chance, replay
from pbem.store.gamedir import STATELESS_KINDS, GameDir
from pbem.store.log import Entry, GameLog, LogError, make_entry
from pbem.store.summary import GM, KEY, summarize
from tests.pbem_host import Host, at

POWERS = ("algol", "pavo", "vega")
T = "2026-12-01T00:00:00Z"


def _hex(rng: random.Random) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(64))


def generated(seed: int, length: int = 120) -> list[Entry]:
    """A log of every kind of entry, in an order a game could write them."""
    rng = random.Random(seed)
    entries = [make_entry(None, "genesis", T, {"deadline": "2026-12-03T00:00:00Z",
                                               "keys": {p: f"key-{p}" for p in POWERS}})]
    turn = 1
    for _ in range(length):
        roll = rng.random()
        power = rng.choice(POWERS)
        if roll < 0.35:
            entropy = rng.choice([None, {"tip": _hex(rng)}, _hex(rng), "not hex"])
            kind, body = "orders", {"power": power, "seq": rng.randrange(5), "turn": turn,
                                    "text": "é" * rng.randrange(3), "entropy": entropy,
                                    "sha256": _hex(rng)}
        elif roll < 0.55:
            body = {"turn": turn, "deadline": f"2026-12-{rng.randrange(3, 28):02d}T00:00:00Z",
                    "used": {p: rng.choice([None, "a" * 64]) for p in POWERS}}
            if rng.random() < 0.4:
                body["random"] = {"referee": _hex(rng),
                                  "players": {p: _hex(rng) for p in POWERS[:2]}}
            kind = "resolve"
            turn += rng.choice([0, 1])
        elif roll < 0.75:
            op = rng.choice(["pause", "resume", "extend", "concede", "replace",
                             chance.SECRET_OP])
            kind, body = "gm", {"op": op, "deadline": "2026-12-20T00:00:00Z", "power": power}
            if op == "concede":
                body["state"] = "d" * 64
        elif roll < 0.85:
            kind, body = "key", {"power": power, "key": f"key-{power}-{rng.random()}"}
        else:
            kind, body = "press", {"turn": turn, "power": power,
                                   "messages": [{}] * rng.randrange(1, 4)}
        entries.append(make_entry(entries[-1], kind, T, body))
    return entries


def check_prefix(prefix: list[Entry]) -> None:
    summary = summarize(prefix)
    last_stateful = max(e.seq for e in prefix if e.kind not in STATELESS_KINDS)
    assert summary.state_head == [last_stateful + 1, prefix[last_stateful].hash]
    assert summary.last_seq == notify.last_seqs(prefix)
    assert summary.chance_ledger() == chance.ledger(prefix)
    since = replay.since_last_resolution(prefix)
    assert [(n.seq, n.kind, n.time, n.body) for n in summary.noted()] == [
        (e.seq, e.kind, e.time, e.body) for e in since if e.kind in (GM, KEY)]
    resolves = [e.seq for e in prefix if e.kind == "resolve"]
    if resolves:
        last = prefix[resolves[-1]]
        start = resolves[-2] if len(resolves) > 1 else 0
        assert [n.seq for n in summary.noted(this_turn=False)] == [
            e.seq for e in prefix[start + 1:last.seq] if e.kind in (GM, KEY)]
        if last.seq == len(prefix) - 1:  # how a game-turn asks, right after its resolution
            facts = notify.turn_facts(prefix, last, 2)
            noted = summary.noted(this_turn=False)
            assert notify._facts(last.body, noted, summary.missed_turns(), 2) == facts
            assert summary.press_counts(last.body["turn"]) == notify.press_counts(
                prefix, last.body["turn"])
    for turn in {e.body["turn"] for e in prefix if e.kind == "press"}:
        latest = summary.press[0]
        if turn >= latest:
            assert summary.press_counts(turn) == notify.press_counts(prefix, turn)
    for turn in {e.body["turn"] for e in prefix if e.kind == "orders"} | {0, 10_000}:
        files = summary.turn_files(turn)
        scanned = [[e.seq, e.body["power"], e.body.get("sha256"),
                    len(str(e.body.get("text", "")).encode())]
                   for e in prefix if e.kind == "orders" and e.body.get("turn") == turn]
        if files is not None:
            assert files == scanned
        else:
            assert turn < summary.turn_orders[0]
    assert summary.drew == any(e.kind == "resolve" and "random" in e.body for e in prefix)
    assert summary.secret == any(e.kind == "gm" and e.body.get("op") == chance.SECRET_OP
                                 for e in prefix)


@pytest.mark.parametrize("seed", range(12))
def test_the_summary_matches_every_scan_on_every_prefix_of_generated_logs(seed: int) -> None:
    entries = generated(seed)
    for end in range(1, len(entries) + 1):
        check_prefix(entries[:end])


def test_the_summary_survives_its_trip_through_the_trusted_point(tmp_path) -> None:
    """Folded in two parts through to_data/from_data, as a visit after a trusted point does."""
    entries = generated(99)
    half = summarize(entries[:60])
    from pbem.store.summary import Summary

    again = Summary.from_data(half.to_data())
    for entry in entries[60:]:
        again.fold(entry)
    assert again == summarize(entries)


def played(tmp_path) -> tuple[Host, float]:
    """A game played through the real turn job, with game-master operations between turns."""
    from pbem.cli.main import main as pbem_main

    host = Host(tmp_path)
    when = 1.0
    for turn in range(4):
        host.submit("algol", {}, at(when))
        if turn == 1:
            assert pbem_main(["gm", "extend", str(host.path), "--by", "2h", "--now",
                              f"{at(when + 1):%Y-%m-%dT%H:%M:%SZ}"]) == 0
        if turn == 2:
            assert pbem_main(["gm", "pause", str(host.path), "--now",
                              f"{at(when + 1):%Y-%m-%dT%H:%M:%SZ}"]) == 0
            assert pbem_main(["gm", "resume", str(host.path), "--now",
                              f"{at(when + 2):%Y-%m-%dT%H:%M:%SZ}"]) == 0
            when += 2
        when += 51
        [run] = host.run(at(when))
        assert run.status == "resolved", run.line()
    return host, when


def test_the_summary_matches_every_scan_on_a_played_game(tmp_path) -> None:
    host, _when = played(tmp_path)
    entries = list(GameLog.load(host.path / "log.jsonl").entries)
    assert {"orders", "resolve", "gm"} <= {e.kind for e in entries}
    for end in range(1, len(entries) + 1):
        check_prefix(entries[:end])


def test_a_visit_and_a_game_turn_read_nothing_below_the_trusted_point(tmp_path) -> None:
    """At the end of a played game, with orders in after the trusted point's last resolution:
    neither the visit (state cache, reminders, notices) nor the game-turn (reports, gm summary,
    chance step) reads an entry below the point — an early line made unreadable in place
    (which reading it would report: "the log changed below its verified point") goes
    unnoticed until the whole chain is verified."""
    host, when = played(tmp_path)
    host.submit("pavo", {}, at(when + 1))
    [run] = host.run(at(when + 1.5))  # the trusted point moves past the last resolution
    assert run.status == "waiting", run.line()
    log = host.path / "log.jsonl"
    data = log.read_bytes()
    second = data.index(b"\n") + 1
    damaged = data[:second] + b"#" + data[second + 1:]
    log.write_bytes(damaged)
    [run] = host.run(at(when + 2))
    assert run.status == "waiting" and not run.notes, run.line()
    [run] = host.run(at(when + 60))
    assert run.status == "resolved" and not run.notes, run.line()
    with pytest.raises(LogError):
        GameDir.open(host.path, full=True)
    log.write_bytes(data[:second] + data[second:second + 1] + log.read_bytes()[second + 1:])
    assert GameDir.open(host.path, full=True).log.summary == GameDir.open(host.path).log.summary
