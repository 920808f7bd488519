"""The player's tool for TI4 (games/ti4/tool.py, toolflags.py): each flag writes its section of
the order file in the shape games/ti4/STATE.md agrees, every bad flag is refused with one
sentence naming the flag, and the flags are the real ``pbem orders ti4`` parser's; on a real
game's view the tool checks exactly as the referee does (``normalize_orders`` on the view): the
same problems in one line, and the file left as it was."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
import yaml

from games.ti4 import tool
from pbem import canonical
from pbem.cli.main import main as pbem_main
from pbem.errors import UsageError
from tests.support.ti4_play import PLUGIN, resolve_step

State = dict[str, Any]
INSTANCE = "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"
DRAFTS = {"red": ["command", "industry"], "blue": ["counsel", "research"],
          "green": ["blockade", "dominion"], "yellow": ["commerce", "warfare"]}


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


# -- against the real plugin: the tool's check is the referee's -----------------------------------

def action_state() -> tuple[State, str]:
    """A small-4 game in round 1's action phase, and the power whose turn it is."""
    state = step(step(PLUGIN.setup("small-4", {"game_id": "tool-1"})))
    state = step(state, {p: {"draft": d} for p, d in DRAFTS.items()})
    assert state["phase"] == "action"
    return state, state["table"]["turn"]


def step(state: State, orders: dict[str, Any] | None = None) -> State:
    return resolve_step(state, orders, b"k" * 32).state


def view_file(tmp_path: Path, state: State, power: str) -> tuple[dict[str, Any], Path]:
    """The player's view.json, as the referee attaches it (with the game's instance)."""
    view = {**PLUGIN.view(state, power), "instance": INSTANCE}
    path = tmp_path / f"{power}-view.json"
    path.write_bytes(canonical.encode(view) + b"\n")
    return view, path


def pbem(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = pbem_main([str(a) for a in argv])
    got = capsys.readouterr()
    return code, got.out, got.err


def new_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, view: Path) -> Path:
    orders = tmp_path / "orders.yaml"
    code, _, err = pbem(capsys, "orders", "new", "--view", view, "-o", orders, "--force")
    assert code == 0, err
    return orders


def test_the_tool_writes_the_section_and_checks_it_on_the_view(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state, me = action_state()
    view, path = view_file(tmp_path, state, me)
    orders = new_file(capsys, tmp_path, path)
    text = orders.read_text()
    assert "# round 1, action: you are due (action: ...)" in text and "# your planets:" in text
    code, _, err = pbem(capsys, "orders", "check", orders, "--view", path)
    assert code == 0 and "no action: section for this action window" in err
    card = sorted(view["table"]["players"][me]["cards"],
                  key=lambda c: view["pack"]["strategy_cards"][c]["initiative"])[0]
    code, out, err = pbem(capsys, "orders", "ti4", orders, "--strategic", card, "--choice", "-",
                          "--hits", "wing,sustain", "--queue-pass", "--view", path)
    assert code == 0, err
    assert f"{orders}: orders written and checked" in out
    doc = yaml.safe_load(orders.read_text())
    assert doc["orders"] == {"action": {"strategic": card, "choices": [{}]},
                             "standing": {"combat": {"hits": ["wing", "sustain"]},
                                          "queued": ["pass"]}}
    assert PLUGIN.normalize_orders(doc["orders"], view)[1] == []
    code, out, _ = pbem(capsys, "orders", "check", orders, "--view", path)
    assert code == 0 and "ok" in out


def refusals(state: State, me: str, other: str) -> list[tuple[str, list[str]]]:
    """(who, flags) the referee refuses in the action phase, one reason each."""
    home = state["pack"]["factions"][state["table"]["factions"][me]]["home"]
    return [
        (me, ["--pass"]),                                        # before his strategic action
        (me, ["--strategic", "nosuch"]),
        (me, ["--activate", "S02", "--invade", "bellis:2"]),     # no troopers will be there
        (me, ["--activate", home, "--produce", "frigate=9"]),    # past the dock's production
        (me, ["--activate", "C0", "--move", f"frigate:{home}>C0"]),   # not adjacent
        (me, ["--activate", "S99"]),
        (me, ["--draft", "command"]),                            # not the strategy window
        (me, ["--vote", "for:nowhere"]),
        (me, ["--hits", "wing,dreadnought", "--retreat-to", "S99"]),
        (other, ["--pass"]),                                     # not his turn
        (other, ["--follow"]),                                   # no secondary open
    ]


def test_every_refusal_is_the_referees_own_in_one_line_and_the_file_is_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state, me = action_state()
    other = next(p for p in state["table"]["seats"] if p != me)
    for who, flags in refusals(state, me, other):
        view, path = view_file(tmp_path, state, who)
        orders = new_file(capsys, tmp_path, path)
        before = orders.read_text()
        args = parser().parse_args(["ti4", str(orders), *flags])
        body = tool.body({}, args, view)
        problems = PLUGIN.normalize_orders(body, view)[1]
        assert problems, (who, flags, body)
        code, out, err = pbem(capsys, "orders", "ti4", orders, *flags, "--view", path)
        assert code != 0 and not out, (flags, out)
        assert err.strip() == "pbem orders: " + "; ".join(map(str, problems)), (flags, err)
        assert orders.read_text() == before, flags


def test_without_a_view_the_file_is_written_and_pbem_orders_check_refuses_it_as_the_referee(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state, me = action_state()
    view, path = view_file(tmp_path, state, me)
    orders = new_file(capsys, tmp_path, path)
    code, out, _ = pbem(capsys, "orders", "ti4", orders, "--pass")
    assert code == 0 and "orders written" in out and "checked" not in out
    problems = PLUGIN.normalize_orders({"action": {"pass": True}}, view)[1]
    assert [p.code for p in problems] == ["pass-strategic"]
    code, out, err = pbem(capsys, "orders", "check", orders, "--view", path)
    assert code != 0 and str(problems[0]) in out + err


def test_invade_n_means_the_packs_ground_force_with_a_view(tmp_path: Path) -> None:
    state, me = action_state()
    view = PLUGIN.view(state, me)
    assert tool.ground_unit(view) == "trooper"
    assert written("--activate", "S02", "--invade", "bellis:2", view=view)["action"][
        "tactical"]["invade"] == {"bellis": {"trooper": 2}}
