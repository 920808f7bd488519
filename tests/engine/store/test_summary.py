"""The running summary (pbem.store.summary) is the one definition of every fact the engine reads
from the log. Over generated logs (orders with equal, lower and higher seqs, tips and chance
values, stale files, standing files (``turn: standing``, kept across resolutions), resolutions
made as the turn job makes them, some drawing, game-master operations, key replacements, press,
the chance secret, steps whose silence is the default answer: ``Window.silence``), on every
prefix:

- the summary folded entry by entry through trusted points (to_data, JSON, from_data: what a
  visit opening a game does) equals the summary folded from scratch, fact by fact;
- every fact equals what the log says read plainly (the reference below, written from the
  log format's description in pbem.store.replay and docs/protocol.md);
- the standing orders are the files the engine then uses: each resolution records the files the
  turn job chose from the summary, and the replay (which holds every resolution to the files
  the log's orders entries make stand) accepts them.

The drift this catches: a fold that kept the later of two equal-seq files (``>=``) while
``orderdoc.replaces`` keeps the first; see test_the_property_fails_on_the_old_equal_seq_drift.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.chance.contributions import Contributions
from pbem.errors import Problem
from pbem.game.plugin import Resolution
from pbem.protocol.envelope import STANDING_TURN
from pbem.store import chance, replay, summary
from pbem.store.gamedir import GameDir
from pbem.store.log import Entry, GameLog, LogError, make_entry
from pbem.store.summary import Summary, summarize
from tests.support.pbem_host import Host, at

POWERS = ("algol", "pavo", "vega")
T = "2026-12-01T00:00:00Z"
GAME = "fold-1"


class Toy:
    """The least a plugin needs for the turn job's choice and the replay: every file checks but
    one marked stale, the state records the orders each resolution used."""

    id = "toy"

    def powers_due(self, state: dict[str, Any]) -> list[str]:
        return list(POWERS) if state["turn"] % 2 else list(POWERS[:2])

    def window(self, state: dict[str, Any]) -> None:
        return None

    def view(self, state: dict[str, Any], power: str) -> dict[str, Any]:
        return {"turn": state["turn"]}

    def normalize_orders(self, orders: Any, view: Any) -> tuple[Any, list[Problem]]:
        if orders.get("stale"):
            return None, [Problem("stale", "orders", "no longer fits")]
        return orders, []

    def nmr_orders(self, state: dict[str, Any], power: str, opener: Any) -> tuple[Any, Any]:
        return {"nmr": power}, {}

    def resolve(self, state: dict[str, Any], orders: Any, drawn: Any) -> Resolution:
        return Resolution({"turn": state["turn"] + 1, "used": orders}, [])

    def concede(self, state: dict[str, Any], power: str) -> Resolution:
        return Resolution({**state, "conceded": power}, [])

    def end_game(self, state: dict[str, Any], reason: str) -> Resolution:
        return Resolution({**state, "over": reason}, [])


TOY = Toy()
INITIAL = {"turn": 1}


def _hex(n: int) -> str:
    return canonical.digest({"n": n})


def build(steps: list[tuple[Any, ...]]) -> tuple[list[Entry], list[Summary]]:
    """The log the steps make, each resolution chosen as the turn job chooses it (the summary's
    standing orders through ``replay.gather_orders``), and the summary kept incrementally at
    each entry (through a trusted point's round trip where a step asks for one)."""
    entries = [make_entry(None, "genesis", T, {
        "game_id": GAME, "deadline": "2026-12-03T00:00:00Z",
        "keys": {p: f"key-{p}" for p in POWERS}})]
    inc = summarize(entries)
    kept = [Summary.from_data(inc.to_data())]
    state: dict[str, Any] = dict(INITIAL)
    for step in steps:
        kind = step[0]
        n = len(entries)
        if kind == "trusted":
            inc = Summary.from_data(json.loads(canonical.encode(inc.to_data())))
            continue
        if kind == "orders":
            _, power, how, entropy, stale = step
            last = inc.last_seq.get(power, 0)
            seq = {"equal": last, "lower": max(0, last - 1), "higher": last + 1}[how]
            body = {"turn": state["turn"], "power": power, "seq": seq, "sha256": _hex(n),
                    "text": "é" * (n % 3), "orders": {"n": n, "stale": stale},
                    "entropy": [None, {"tip": _hex(-n)}, _hex(-n), "not hex"][entropy]}
        elif kind == "standing":
            _, power, how, stale = step
            kind = "orders"  # a standing file is an orders entry of turn 0
            last = inc.last_seq.get(power, 0)
            seq = {"equal": last, "lower": max(0, last - 1), "higher": last + 1}[how]
            body = {"turn": STANDING_TURN, "power": power, "seq": seq, "sha256": _hex(n),
                    "text": "s", "orders": {"n": n, "stale": stale}, "entropy": None}
        elif kind == "resolve":
            _, drew, day, *rest = step
            orders, used, _opened, _stale = replay.gather_orders(
                TOY, state, inc.standing_orders(), None,
                inc.standing_files)  # the turn job's choice
            body = {"turn": state["turn"], "due": TOY.powers_due(state), "used": used,
                    "escrow": {}, "deadline": f"2026-12-{day:02d}T00:00:00Z"}
            if rest and rest[0]:  # Window.silence "default": the turn job marks the step
                body["silence"] = "default"
            if drew:
                body["random"] = {"referee": _hex(n), "players": {
                    p: (_hex(n + 1) if used.get(p) else None) for p in body["due"]}}
            drawn = replay.step_chance(body, GAME, inc.chance_ledger().step + 1)
            result = replay.resolve_step(TOY, state, orders, drawn)  # type: ignore[arg-type]
            body.update(state=canonical.digest(result.state), events=result.events)
            state = result.state
        elif kind == "gm":
            _, op, power = step
            body = {"op": op, "deadline": "2026-12-20T00:00:00Z", "power": power}
            done = replay.gm_resolution(TOY, state, body)  # type: ignore[arg-type]
            if done is not None:
                body["state"] = canonical.digest(done.state)
                state = done.state
        elif kind == "key":
            body = {"power": step[1], "key": f"key-{step[1]}-{n}"}
        else:
            body = {"turn": state["turn"], "power": step[1], "messages": [{}] * step[2]}
        entries.append(make_entry(entries[-1], kind, T, body))
        inc.fold(entries[-1])
        kept.append(Summary.from_data(inc.to_data()))
    return entries, kept


def plainly(prefix: list[Entry]) -> dict[str, Any]:
    """Every summary fact, as the log says it read from the first entry (Summary.to_data's
    shape): the reference the fold is held to."""
    genesis = prefix[0]
    out: dict[str, Any] = {
        "seq": prefix[-1].seq, "deadline": genesis.body.get("deadline"), "paused": False,
        "last_resolution": 0, "last_resolution_time": genesis.time, "standing": {},
        "missed": {}, "keys": dict(genesis.body["keys"]), "last_state_change": 0,
        "state_head": [1, genesis.hash], "last_seq": {}, "notices": [], "turn_notices": [],
        "press": [], "turn_orders": [], "drew": False, "secret": False,
        "standing_files": {}, "autopilot": {}}
    ledger = chance.Ledger()
    made = Contributions()
    for e in prefix[1:]:
        body = e.body
        if e.kind not in ("orders", "key", "press"):
            out["state_head"] = [e.seq + 1, e.hash]
        if e.kind in ("orders", "resolve", "key"):
            ledger.add(e)
        if e.kind in ("orders", "key"):  # the seat has its player again
            out["autopilot"].pop(body["power"], None)
        if e.kind == "orders" and body["turn"] == STANDING_TURN:  # a standing file: kept
            power, seq = body["power"], body["seq"]
            held = out["standing_files"].get(power)
            if held is None or seq > held["seq"]:
                out["standing_files"][power] = body
            out["last_seq"][power] = max(out["last_seq"].get(power, -1), seq)
        elif e.kind == "orders":
            power, seq = body["power"], body["seq"]
            held = out["standing"].get(power)
            if held is None or seq > held["seq"]:  # the highest seq; of equal ones the first
                out["standing"][power] = body
            out["last_seq"][power] = max(out["last_seq"].get(power, -1), seq)
            if not out["turn_orders"] or out["turn_orders"][0] != body["turn"]:
                out["turn_orders"] = [body["turn"], []]
            out["turn_orders"][1].append([e.seq, power, body["sha256"],
                                          len(body["text"].encode())])
        elif e.kind == "resolve":
            out["turn_notices"], out["notices"] = out["notices"], []
            out["standing"] = {}
            out["deadline"] = body["deadline"]
            out["last_resolution"] = out["last_state_change"] = e.seq
            out["last_resolution_time"] = e.time
            if "random" in body:
                out["drew"] = True
                made.add(ledger.step, body["random"])
            for power, sha in body["used"].items():
                if power not in body["due"]:
                    continue
                if sha is None and body.get("silence") == "default":
                    continue  # silence was the default answer: no turn missed
                rec = out["missed"].setdefault(power, {"total": 0, "in_a_row": 0})
                rec["total"] += sha is None
                rec["in_a_row"] = rec["in_a_row"] + 1 if sha is None else 0
        elif e.kind == "gm":
            op = body["op"]
            out["paused"] = {"pause": True, "resume": False}.get(op, out["paused"])
            if op in ("resume", "extend"):
                out["deadline"] = body["deadline"]
            if "state" in body:
                out["last_state_change"] = e.seq
            out["secret"] = out["secret"] or op == chance.SECRET_OP
            if op == "autopilot":
                out["autopilot"][body["power"]] = e.seq
            elif op == "concede":
                out["autopilot"].pop(body["power"], None)
        elif e.kind == "key":
            out["keys"][body["power"]] = body["key"]
        elif e.kind == "press":
            if not out["press"] or out["press"][0] != body["turn"]:
                out["press"] = [body["turn"], {}]
            counts = out["press"][1]
            counts[body["power"]] = counts.get(body["power"], 0) + len(body["messages"])
        if e.kind in ("gm", "key"):
            out["notices"].append({"seq": e.seq, "kind": e.kind, "time": e.time, "body": body})
    took = any(e.kind in ("orders", "resolve", "key") for e in prefix[1:])
    out["ledger"] = ledger.to_data() if took else {}
    out["contributions"] = made.to_data() if out["drew"] else {}
    return out


def check(entries: list[Entry], kept: list[Summary]) -> None:
    """The three comparisons of the module docstring, on every prefix."""
    for end in range(1, len(entries) + 1):
        prefix = entries[:end]
        scratch = summarize(prefix).to_data()
        incremental = kept[end - 1].to_data()
        reference = plainly(prefix)
        assert set(scratch) == set(reference)
        for fact in scratch:
            assert incremental[fact] == scratch[fact], (end, fact, "incremental vs scratch")
            assert scratch[fact] == reference[fact], (end, fact, "fold vs the log read plainly")
    # What the engine then does: the replay holds each resolution to the files the log's
    # orders entries make stand, which must be the ones the turn job took from the summary.
    replay.replay(TOY, entries, dict(INITIAL))  # type: ignore[arg-type]


def _orders(power: str) -> Any:
    return st.tuples(st.just("orders"), st.just(power),
                     st.sampled_from(["equal", "lower", "higher", "higher"]),
                     st.integers(0, 3), st.sampled_from([False, False, False, True]))


def _standing(power: str) -> Any:
    return st.tuples(st.just("standing"), st.just(power),
                     st.sampled_from(["equal", "lower", "higher", "higher"]),
                     st.sampled_from([False, False, True]))


STEP = st.one_of(
    st.sampled_from(POWERS).flatmap(_orders),
    st.sampled_from(POWERS).flatmap(_standing),
    st.sampled_from(POWERS).flatmap(_orders),
    st.tuples(st.just("resolve"), st.booleans(), st.integers(3, 27),
              st.sampled_from([False, False, True])),
    st.tuples(st.just("gm"), st.sampled_from(["pause", "resume", "extend", "concede", "autopilot",
                                              "replace", "end", chance.SECRET_OP]),
              st.sampled_from(POWERS)),
    st.tuples(st.just("key"), st.sampled_from(POWERS)),
    st.tuples(st.just("press"), st.sampled_from(POWERS), st.integers(1, 3)),
    st.tuples(st.just("trusted")),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, max_size=45))
def test_every_summary_fact_is_the_same_folded_incrementally_from_scratch_and_plainly(
        steps: list[tuple[Any, ...]]) -> None:
    check(*build(steps))


#: Two files of one power with the same seq, then a resolution: the first one stands.
EQUAL_SEQS = [("orders", "algol", "higher", 0, False), ("orders", "algol", "equal", 0, False),
              ("resolve", False, 5)]


def test_equal_seqs_the_first_file_stands() -> None:
    entries, _kept = build(EQUAL_SEQS)
    first, second, resolved = entries[1], entries[2], entries[3]
    assert first.body["seq"] == second.body["seq"]
    assert summarize(entries[:3]).standing_orders()["algol"] is first.body
    assert resolved.body["used"]["algol"] == first.body["sha256"]
    check(*build(EQUAL_SEQS))


#: A standing file, a step file of another power, two resolutions: the standing file is used
#: by both and stays in the summary; a file of the step wins over it for its step.
STANDING = [("standing", "algol", "higher", False), ("orders", "pavo", "higher", 0, False),
            ("resolve", False, 5), ("resolve", False, 6), ("orders", "algol", "higher", 0, False),
            ("resolve", False, 7)]


def test_a_standing_file_is_used_by_every_later_resolution_until_a_step_file() -> None:
    entries, kept = build(STANDING)
    standing = entries[1].body
    first, second, third = entries[3], entries[4], entries[6]
    assert first.body["used"]["algol"] == standing["sha256"]
    assert second.body["used"]["algol"] == standing["sha256"]
    assert third.body["used"]["algol"] == entries[5].body["sha256"]
    assert kept[-1].standing_file("algol") == standing
    check(entries, kept)


def test_the_property_fails_on_the_old_equal_seq_drift(monkeypatch) -> None:
    """With the fold's old rule (an equal seq replaces the file standing), the turn job chooses
    the later file and the replay refuses the resolution: the property test catches it."""
    monkeypatch.setattr(summary, "replaces",
                        lambda seq, standing: standing is None or seq >= standing)
    with pytest.raises((AssertionError, replay.ReplayMismatch)):
        check(*build(EQUAL_SEQS))


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


def test_the_summary_of_a_played_game_is_its_log_read_plainly(tmp_path) -> None:
    host, _when = played(tmp_path)
    entries = list(GameLog.load(host.path / "log.jsonl").entries)
    assert {"orders", "resolve", "gm"} <= {e.kind for e in entries}
    assert GameDir.open(host.path).log.summary == summarize(entries)
    for end in range(1, len(entries) + 1):
        reference = plainly(entries[:end])
        scratch = summarize(entries[:end]).to_data()
        for fact in ("deadline", "paused", "last_resolution", "standing", "missed", "keys",
                     "last_seq", "notices", "turn_notices", "press", "turn_orders"):
            assert scratch[fact] == reference[fact], (end, fact)


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


#: A power silent in a step whose silence is the default answer, then silent in an ordinary
#: one: only the second is a missed turn, and a file sent in the first is a turn played.
SILENT = [("resolve", False, 5, True), ("orders", "algol", "higher", 0, False),
          ("resolve", False, 7, True), ("resolve", False, 9, False)]


def test_silence_in_a_default_window_is_no_missed_turn() -> None:
    entries, kept = build(SILENT)
    assert [e.body.get("silence") for e in entries if e.kind == "resolve"] == [
        "default", "default", None]
    assert entries[1].body["used"]["pavo"] is None  # the log still says pavo sent nothing
    missed = kept[-1].missed_turns()
    assert missed["pavo"] == {"total": 1, "in_a_row": 1}
    assert missed["algol"] == {"total": 1, "in_a_row": 1}
    assert summarize(entries[:4]).missed_turns() == {"algol": {"total": 0, "in_a_row": 0}}
    check(entries, kept)
