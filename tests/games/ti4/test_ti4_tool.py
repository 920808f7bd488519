"""The player's tool for TI4 (games/ti4/tool.py, toolflags.py): each flag writes its section of
the order file in the shape games/ti4/STATE.md agrees, every bad flag is refused with one
sentence naming the flag, and the flags are the real ``pbem orders ti4`` parser's."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from games.ti4 import tool
from pbem.errors import UsageError


def parser() -> argparse.ArgumentParser:
    """``pbem orders``'s subcommands as pbem registers a game's tool."""
    p = argparse.ArgumentParser(prog="pbem orders")
    tool.TOOL.register_orders(p.add_subparsers())
    return p


def written(*flags: str, orders: dict[str, Any] | None = None,
            view: dict[str, Any] | None = None) -> dict[str, Any]:
    args = parser().parse_args(["ti4", "orders.yaml", *flags])
    return tool.body(orders or {}, args, view)


def test_draft_is_the_ranked_list() -> None:
    assert written("--draft", "warfare, commerce,command") == {
        "draft": ["warfare", "commerce", "command"]}


def test_pass_and_strategic_with_one_choice_per_primitive() -> None:
    assert written("--pass") == {"action": {"pass": True}}
    assert written("--strategic", "command", "--choice", "-", "--choice",
                   "tokens=1 exhaust=abren,bellis trade_goods=1 pools=fleet:1") == {
        "action": {"strategic": "command", "choices": [
            {}, {"tokens": 1, "exhaust": ["abren", "bellis"], "trade_goods": 1,
                 "pools": {"fleet": 1}}]}}
    assert written("--strategic", "dominion", "--choice",
                   "objective=o1-coin resources.exhaust=abren resources.tg=2") == {
        "action": {"strategic": "dominion", "choices": [
            {"objective": "o1-coin", "resources": {"exhaust": ["abren"], "trade_goods": 2}}]}}


def test_tactical_action_moves_carry_lift_invade_produce_pay_and_custodians() -> None:
    view = {"pack": {"units": {"trooper": {"kind": "ground"}, "wing": {"kind": "ship"}}}}
    got = written("--activate", "S24", "--move", "tender,frigate=2:S18>S10>S24",
                  "--carry", "wing=2", "--lift", "abren:trooper", "--move", "picket:S08>S24",
                  "--bombard", "farro:bastion=1", "--invade", "farro:2",
                  "--produce", "frigate,wing=2", "--pay", "abren,tg=1",
                  "--custodians", "dassa,gesk,tg=1", view=view)
    assert got == {"action": {
        "tactical": {"activate": "S24",
                     "move": [{"path": ["S18", "S10", "S24"], "ships": {"tender": 1, "frigate": 2},
                               "carry": {"wing": 2}, "lift": {"abren": {"trooper": 1}}},
                              {"path": ["S08", "S24"], "ships": {"picket": 1}}],
                     "bombard": {"farro": {"bastion": 1}}, "invade": {"farro": {"trooper": 2}},
                     "produce": {"frigate": 1, "wing": 2}},
        "pay": {"exhaust": ["abren"], "trade_goods": 1},
        "custodians": {"exhaust": ["dassa", "gesk"], "trade_goods": 1}}}


def test_secondary_status_agenda() -> None:
    assert written("--follow", "--choice", "pools=strategy:1") == {
        "secondary": {"follow": True, "choices": [{"pools": {"strategy": 1}}]}}
    assert written("--decline") == {"secondary": {"follow": False, "choices": []}}
    assert written("--score-public", "o1-coin", "--score-secret", "s-hoard",
                   "--resources", "abren,bellis", "--influence", "tg=2", "--pools", "4/3/3") == {
        "status": {"public": "o1-coin", "secret": "s-hoard",
                   "resources": {"exhaust": ["abren", "bellis"]},
                   "influence": {"trade_goods": 2},
                   "pools": {"tactic": 4, "fleet": 3, "strategy": 3}}}
    assert written("--pools", "fleet=2,tactic=5,strategy=3")["status"]["pools"] == {
        "tactic": 5, "fleet": 2, "strategy": 3}
    assert written("--vote", "for:dassa,gesk", "--vote", "abstain", "--tie", "for",
                   "--tie", "red") == {
        "agenda": {"ballots": [{"outcome": "for", "exhaust": ["dassa", "gesk"]}, {}],
                   "ties": ["for", "red"]}}


def test_standing_answers_key_by_key_from_those_in_force() -> None:
    got = written("--hits", "wing,sustain,frigate", "--retreat-at-most", "1", "--retreat-to",
                  "S18,S10", "--space-cannon", "off", "--standing-follow", "command",
                  "--standing-decline", "warfare", "--standing-default", "decline",
                  "--standing-draft", "warfare,command", "--queue-pass")
    assert got == {"standing": {
        "combat": {"hits": ["wing", "sustain", "frigate"],
                   "retreat": {"at_most": 1, "to": ["S18", "S10"]}, "space_cannon": False},
        "secondaries": {"command": {"follow": True, "choices": []},
                        "warfare": {"follow": False, "choices": []}, "default": "decline"},
        "draft": ["warfare", "command"], "queued": ["pass"]}}
    # a standing section replaces the answers in force whole: the tool starts from them
    view = {"you": {"standing": got["standing"]}}
    again = written("--no-queue", view=view)["standing"]
    assert again == {**got["standing"], "queued": []}
    assert written("--never-retreat", orders={"standing": got["standing"]})["standing"][
        "combat"]["retreat"] == {"to": ["S18", "S10"]}
    # no standing flag: the file is left without a standing section
    assert written("--pass", view=view) == {"action": {"pass": True}}


def test_other_sections_of_the_file_are_kept_and_a_section_is_replaced_whole() -> None:
    before = {"draft": ["command"], "action": {"strategic": "command", "choices": []}}
    assert written("--pass", orders=before) == {"draft": ["command"], "action": {"pass": True}}


@pytest.mark.parametrize("flags,words", [
    (["--draft", "warfare,,command"], "--draft: 'warfare,,command' is not CARD,CARD"),
    (["--draft", "warfare,warfare"], "--draft: warfare named twice"),
    (["--pass", "--strategic", "command"], "one action a turn: --pass and --strategic"),
    (["--move", "tender:S1>S2"], "--move belongs to a tactical action: give --activate"),
    (["--activate", "S24", "--carry", "wing=2"], "--carry 'wing=2': it belongs to a --move"),
    (["--activate", "S24", "--move", "tender"], "--move: 'tender' is not SHIPS:FROM>"),
    (["--activate", "S24", "--move", "tender:S24"], "--move: 'tender:S24' is not SHIPS:FROM>"),
    (["--activate", "S24", "--move", "tender=0:S1>S24"], "--move: 'tender=0' is not UNIT[=N]"),
    (["--activate", "S24", "--move", "tender=x:S1>S24"], "--move: 'tender=x' is not UNIT[=N]"),
    (["--activate", "S24", "--invade", "farro:2"], "--invade: 'farro:2': name the unit"),
    (["--activate", "S24", "--invade", "farro"], "--invade: 'farro' is not PLANET:UNIT=N"),
    (["--activate", "S24", "--invade", "a:trooper", "--invade", "a:trooper"],
     "--invade: a named twice"),
    (["--activate", "S24", "--produce", "farro:wing=2"], "--produce: 'farro:wing=2' is not "
     "UNIT=N,... (units are built at the active system's docks"),
    (["--activate", "S24", "--pay", "abren,tg=x"], "--pay: 'x' is not a whole number"),
    (["--activate", "S24", "--pay", "abren,abren"], "--pay: abren named twice"),
    (["--activate", "S24", "--custodians", "gold=3"], "--custodians: 'gold=3' is not PLANET"),
    (["--pay", "abren"], "--pay belongs to a tactical action"),
    (["--activate", "S24", "--choice", "tokens=1"], "--choice belongs to --strategic CARD or "
     "--follow"),
    (["--strategic", "command", "--choice", "colour=red"], "--choice: no choice 'colour'"),
    (["--strategic", "command", "--choice", "tokens"], "--choice: 'tokens' is not KEY=VALUE"),
    (["--strategic", "command", "--choice", "tokens=two"], "--choice: 'two' is not a whole"),
    (["--strategic", "command", "--choice", "pools=fleet"], "--choice: 'pools=fleet' is not "
     "pools=NAME:N"),
    (["--strategic", "command", "--choice", "exhaust.tg=1"], "--choice: no choice 'exhaust.tg'"),
    (["--follow", "--decline"], "--follow and --decline: give one"),
    (["--decline", "--choice", "tokens=1"], "--choice belongs to --follow, not --decline"),
    (["--strategic", "command", "--follow"], "--follow answers another player's card"),
    (["--pools", "3/3"], "--pools: '3/3' is not T/F/S"),
    (["--pools", "tactic=3,fleet=3"], "--pools: 'tactic=3,fleet=3' must give all three pools"),
    (["--pools", "tactic=3,fleet=3,reserve=2"], "--pools: 'tactic=3,fleet=3,reserve=2' is not"),
    (["--vote", "for"], "--vote: 'for' is not OUTCOME:PLANET,PLANET"),
    (["--vote", "for:dassa,tg=2"], "--vote: 'for:dassa,tg=2': trade goods cannot be spent as "
     "votes"),
    (["--hits", ""], "--hits: '' is not UNIT,UNIT,sustain"),
    (["--retreat-at-most", "one"], "--retreat-at-most: 'one' is not a whole number"),
    (["--retreat-at-most", "1", "--never-retreat"], "--never-retreat and --retreat-at-most: "
     "give one"),
    (["--standing-follow", "command", "--standing-decline", "command"],
     "--standing-decline command: --standing-follow names it too"),
    (["--queue-pass", "--no-queue"], "--queue-pass and --no-queue: give one"),
])
def test_every_bad_flag_is_refused_naming_the_flag_and_the_problem(
        flags: list[str], words: str) -> None:
    with pytest.raises(UsageError) as refused:
        written(*flags)
    assert words in str(refused.value)


@pytest.mark.parametrize("flags", [["--space-cannon", "maybe"], ["--standing-default", "yes"]])
def test_argparse_refuses_a_word_off_the_list(flags: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["ti4", "orders.yaml", *flags])
    assert f"argument {flags[0]}: invalid choice: '{flags[1]}'" in capsys.readouterr().err


def test_help_explains_every_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["ti4", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for a in tool.ARGUMENTS:
        assert a.flags[0] in out and a.options["help"].split()[0] in out
    assert "exactly as the referee will" in out
