"""Cross-game promises (the start of the suite that checks each promise the same way in every
game: docs and README promise them to every player, whatever the game): here, **every problem
of a file at once**, and **rulings cited in words**.

Parametrized over every game (4000 A.D., The Ashes of Empire, Babylon 5 CGS and the toy game
High Card): a player whose turn is due writes a file with several independent problems (an
unknown order beside problems in two or more orders, some found only against his position) and

- ``pbem orders check`` names every one of them in one run;
- mailed, signed, through ``pbem ingest --stdin``, the rejection lists every one of them;
- no text he gets (rejection, receipt) cites a ruling by a bare code: "ruling A5" is always
  followed by its sentence (``our ruling A5: ...``), and ``pbem rules GAME`` prints the game's
  rules document named there.

The processes: ``pbem orders check`` (what the player reads, and its exit code) and the
bad file's mail through ``pbem ingest --stdin`` (as an MTA pipes it) in every game, and ``pbem
rules``; the steps before play, and the writing and signing of the bad file, run the same
command lines in the test process (tests.support.run: ``pbem_here``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.ingest_helpers import REPO, everything_in
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at
from tests.support.run import pbem, pbem_here

Body = Callable[[Mapping[str, Any]], dict[str, Any]]
#: "ruling A5" with no sentence after it: a code a player cannot look up.
BARE_RULING = re.compile(r"\bruling [A-Z][0-9]{1,2}\b(?!:)")
FROZEN = {" is not on an exposed map piece (ruling E3)"}
"""Texts a game must keep byte for byte for games recorded under an older rules version (a
void reason is part of the logged events, which a replay recomputes): B5 rules version 1."""


def _ashes(view: Mapping[str, Any]) -> dict[str, Any]:
    """An unknown order; a placement over the reinforcements and the stacking limit (found
    only against the position); an exchange of no planet; a retreat to a neutral planet."""
    hand = sorted(view["you"]["hand"])
    other = sorted(view["galaxy"])[0]  # a neutral planet: never his
    return {"bogus": 1, "place": {hand[0]: 50}, "move": {"exchange": "Z9"},
            "retreat": [other]}


def _b5(view: Mapping[str, Any]) -> dict[str, Any]:
    """An unknown section; a base told to move (only ships move); a volley at no token; a
    malformed build beside a build into the Babylon 5 hex."""
    me = view["viewer"]
    base = next(t for t, tok in sorted(view["tokens"].items()) if tok["owner"] == me)
    return {"bogus": 1, "move": [{"unit": base, "to": "1,1", "facing": 1}],
            "fire": [{"target": "t99", "with": [base]}],
            "allocate": {"build": [{"nonsense": 1},
                                   {"token": "base-4", "hex": view["map"]["b5_hex"],
                                    "by": base}]}}


def _ad(view: Mapping[str, Any]) -> dict[str, Any]:
    """An unknown order; a departure from no star; a concession that is not true or false;
    a permission for no power."""
    return {"bogus": 1, "depart": [{"warp": 1, "from": "Nowhere", "ships": 5,
                                    "commitment": "00"}],
            "concede": "yes", "permit": {"home": ["nobody"]}}


def _ti4(view: Mapping[str, Any]) -> dict[str, Any]:
    """In the strategy step: an unknown section; a ranked list with an unknown card and one
    twice; an action, which is not asked now; a standing hit order naming no unit."""
    return {"bogus": 1, "draft": ["nope", "command", "command"], "action": {"pass": True},
            "standing": {"combat": {"hits": ["dreadnaught"]}}}


def _toy(view: Mapping[str, Any]) -> dict[str, Any]:
    """Two unknown orders and a card not in the hand."""
    return {"bogus": 1, "other": 2, "play": "nope-1"}


@dataclass(frozen=True)
class Case:
    game: str
    variant: str
    body: Body
    #: paths that must all be named (independent problems in different orders)
    paths: tuple[str, ...]


CASES = [
    Case("4000ad", "independents-4", _ad, ("bogus", "concede")),
    Case("ashes", "rounds-3", _ashes, ("bogus", "place", "move.exchange", "retreat")),
    Case("b5cgs", "basic-2", _b5, ("bogus", "move[0]", "fire[0].target",
                                   "allocate.build[0].nonsense", "allocate.build[1]")),
    Case("ti4", "small-3", _ti4, ("bogus", "draft[0]", "draft[2]", "action",
                                  "standing.combat.hits[0]")),
    Case("highcard", "duel-2", _toy, ("bogus", "other", "play")),
]


@dataclass
class Refused:
    case: Case
    expected: list[Any]      # the referee's problems, computed here by the game's own check
    check_output: str        # pbem orders check
    rejection: str           # the rejection mail, every part
    check_rc: int


def _past_setup(host: Host, players: dict[str, MailPlayer]) -> float:
    """Every step before play (empty orders, with each player's chance) played; the next
    hour."""
    hour = 1.0
    for _ in range(8):  # set-up, the deal, B5's starting-fleet steps (rules version 3, R7)
        window = host.plugin.window(host.state())
        if window is None or window.kind not in ("setup", "deal", "fleet"):
            break
        for power in window.due:
            players[power].newest_view()
            players[power].mail_orders(hour)
        hour += 1
        host.run(at(hour))
        hour += 1
    return hour


@pytest.fixture(scope="module", params=CASES, ids=[c.game for c in CASES])
def refused(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> Refused:
    case: Case = request.param
    tmp = tmp_path_factory.mktemp(case.game)
    host = Host(tmp, case.variant, game=case.game, game_id="cg-1")
    players = {p: MailPlayer(host, p, tmp / "players", process=False) for p in host.powers}
    host.run(at(0.1))  # the welcome mails
    hour = _past_setup(host, players)
    power = host.plugin.powers_due(host.state())[0]
    player = players[power]
    view = player.newest_view()
    body = case.body(view)
    _, expected = host.plugin.normalize_orders(body, view)
    orders = player.work / "bad.yaml"
    done = pbem_here("orders", "new", "--view", str(player.work / "view.json"), "--seq", "1",
                     "-o", str(orders), "--force", "--vault", str(player.vault))
    assert done.returncode == 0, done.stderr
    doc = yaml.safe_load(orders.read_text())
    doc["orders"] = body
    orders.write_text(yaml.safe_dump(doc, sort_keys=False))
    check = pbem("orders", "check", str(orders), "--view", str(player.work / "view.json"))
    # Signed as a player may sign without his view (no check): the referee must find them all.
    signed = pbem_here("orders", "sign", str(orders), "--key", str(player.key))
    assert signed.returncode == 0, signed.stderr
    player.seq = 1
    player.process = True  # his mail through a pbem ingest --stdin process, as an MTA pipes it
    player.deliver(signed.stdout.decode(), hour)
    host.run(at(hour + 0.1))  # sends the replies the ingest queued (before any deadline)
    new = host.sent(player.address)  # files are not named in the order sent
    rejections = [m for m in new if "NOT accepted" in everything_in(m)]
    assert len(rejections) == 1, [str(m["Subject"]) for m in new]
    return Refused(case, list(expected), (check.stdout + check.stderr).decode(),
                   everything_in(rejections[0]), check.returncode)


def _unfold(text: str) -> str:
    """Mail text with its line wrapping undone (a problem may be wrapped over lines)."""
    return re.sub(r"\s+", " ", text)


def test_the_file_has_several_independent_problems(refused: Refused) -> None:
    paths = {p.path for p in refused.expected}
    for path in refused.case.paths:
        assert path in paths, (path, refused.expected)


def test_orders_check_names_every_problem_at_once(refused: Refused) -> None:
    assert refused.check_rc != 0
    out = _unfold(refused.check_output)
    for p in refused.expected:
        assert _unfold(p.message) in out, (p, refused.check_output)


def test_the_rejection_mail_lists_every_problem_at_once(refused: Refused) -> None:
    out = _unfold(refused.rejection)
    assert "Every problem found" in out
    for p in refused.expected:
        assert _unfold(p.message) in out, (p, refused.rejection)


def test_no_bare_ruling_code_in_what_the_player_reads(refused: Refused) -> None:
    for text in (refused.check_output, refused.rejection):
        assert not BARE_RULING.search(_unfold(text)), text


# -- rulings in words, in every game's source ---------------------------------------------------
def _player_strings(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module but its docstrings (what may reach a player)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docs:
            out.append((node.lineno, node.value))
    return out


GAME_SOURCES = sorted([*(REPO / "games").glob("*/*.py"),
                       *(REPO / "tests" / "toygame").glob("*/*.py")])


def test_no_game_text_cites_a_ruling_by_a_bare_code() -> None:
    """A sentence that may reach a player never says "(ruling A5)" alone: each game cites a
    ruling with its sentence (its rulings.cite), e.g. "(our ruling A5: ...; pbem rules ashes)".
    Templates too."""
    bad = [f"{path.relative_to(REPO)}:{line}: {text!r}" for path in GAME_SOURCES
           for line, text in _player_strings(path) if BARE_RULING.search(text)
           and text not in FROZEN]
    for tpl in [*(REPO / "templates").rglob("*"), *(REPO / "games").glob("*/templates/*")]:
        if tpl.is_file() and BARE_RULING.search(tpl.read_text(encoding="utf-8")):
            bad.append(str(tpl.relative_to(REPO)))
    assert bad == []


@pytest.mark.parametrize("game", ["ashes", "b5cgs"])
def test_every_cited_ruling_is_in_the_rules_document_a_player_can_print(game: str) -> None:
    """Each ruling a game cites in words is a heading of its RULES.md, which ``pbem rules
    GAME`` prints (the file ships in the wheel: test_packaging)."""
    import importlib

    from pbem.game import registry

    registry.load(game)  # registers the game's package under its import name
    rulings = importlib.import_module(f"{registry.module_name(game)}.rulings")
    done = pbem("rules", game)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode()
    for code, sentence in rulings.RULINGS.items():
        assert re.search(rf"\*\*{code}[ .—]", text), code
        cited = rulings.cite(code)
        assert cited.startswith(f"(our ruling {code}: {sentence}")
        assert f"pbem rules {game}" in cited and not BARE_RULING.search(cited)
