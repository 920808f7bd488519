"""Set-up: the initial state (secret-free) and the deal (STATE.md, "The round loop").

``setup`` is pure and draws nothing: it checks the pack, seats the powers, gives each a
faction in the pack's order (public) and records the pack. The first step (window ``setup``)
draws nothing: every player commits his chance. The second (``deal``) picks the speaker by a
public draw, deals the objectives, secrets and agendas from secret shuffles
(``table.set_up``), sets up the board (``board.start``) and draws the referee's salt.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pbem.errors import PbemError, Problem
from pbem.game.chance import Chance

from . import pack as packmod
from . import traits
from .board import Board, start
from .table import Table, set_up
from .units import Catalog

SCHEMA = 1
GAME = "ti4"
#: 2: a step's events carry the round it was played in (not the next one, where its status or
#: agenda phase moved the round on), and a ``ready_planets`` trait or law acts at the start of
#: the status phase, before the scoring (RULES.md T84, T83). Games recorded under 1 play on as
#: they began.
RULES_VERSION = 2
RULES_VERSIONS = (1, 2)
#: The powers, in seat order (clockwise); a game seats the first ``players`` of them.
POWERS = ("red", "blue", "green", "yellow", "purple", "orange")
GAME_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,62}")
SALT_BYTES = 16


class SetupError(PbemError):
    """A bad variant, option or component pack at set-up."""


def variants(pack: Mapping[str, Any]) -> dict[str, int]:
    """Variant name -> players: the pack's layouts."""
    return {name: int(lay["players"]) for name, lay in pack["layouts"].items()}


def powers_of(players: int) -> tuple[str, ...]:
    return POWERS[:players]


def factions_of(pack: Mapping[str, Any], seats: tuple[str, ...]) -> dict[str, str]:
    """Each seat's faction: the pack's factions in the pack's order."""
    names = list(pack["factions"])
    if len(names) < len(seats):
        raise SetupError(f"the pack has {len(names)} factions, too few for {len(seats)} "
                         "players")
    return dict(zip(seats, names, strict=False))


def check_components(data: object) -> list[Problem]:
    """The pack's check, on a pack as loaded from YAML or as it came through JSON (the engine
    passes ``--components`` so: ``rules.picks`` keyed by player counts written as text)."""
    return packmod.check_components(_numbered(data))


def _numbered(data: object) -> object:
    """``data`` with ``rules.picks`` keyed by numbers where its keys are digits."""
    try:
        rules = data["rules"]  # type: ignore[index]
        picks = rules["picks"]
        keyed = {int(k) if isinstance(k, str) and k.isdigit() else k: v
                 for k, v in picks.items()}
    except (TypeError, KeyError, AttributeError):
        return data
    return {**data, "rules": {**rules, "picks": keyed}}  # type: ignore[dict-item]


def setup(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    data = options.get("components") or packmod.standin()
    problems = check_components(data)
    if problems:
        raise SetupError("the component pack is not usable: "
                         + "; ".join(map(str, problems[:5])))
    known = variants(data)
    if variant not in known:
        raise SetupError(f"unknown variant {variant!r} of ti4 (known: "
                         f"{', '.join(sorted(known))})")
    game_id = options.get("game_id")
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise SetupError("game_id must be a lower-case slug (letters, digits, . _ -), "
                         f"not {game_id!r}")
    version = options.get("rules_version", RULES_VERSION)
    if version not in RULES_VERSIONS:
        raise SetupError(f"ti4 plays rules versions {RULES_VERSIONS}, not {version!r}")
    players = known[variant]
    seats = powers_of(players)
    factions_of(data, seats)  # enough factions, or refused now
    return {"schema": SCHEMA, "game": GAME, "game_id": game_id, "variant": variant,
            "options": {"players": players, "rules_version": version},
            "pack": json.loads(json.dumps(data)),
            "phase": "setup", "turn": 1, "round": 0, "table": None, "board": None,
            "standing": {p: {} for p in seats}, "pending": None, "conceded": [], "drawn": {},
            "salt": None, "result": None}


_CORE: list[Any] = [None, None]


def core(pk: Mapping[str, Any]) -> Mapping[str, Any]:
    """The state's pack (plain JSON: every key a string) as the rules core reads it: the
    ``rules.picks`` table keyed by player counts as numbers. One per pack object."""
    if _CORE[0] is not pk:
        rules = pk["rules"]
        _CORE[:] = [pk, {**pk, "rules": {**rules, "picks": {int(k): v for k, v in
                                                              rules["picks"].items()}}}]
    return _CORE[1]  # type: ignore[no-any-return]


def rules_version(state: Mapping[str, Any]) -> int:
    """The rules version the game plays (recorded at genesis, in its options)."""
    return int(state["options"].get("rules_version", 1))


def seats(state: Mapping[str, Any]) -> tuple[str, ...]:
    return powers_of(int(state["options"]["players"]))


def catalog(state: Mapping[str, Any]) -> Catalog:
    """The fixed facts of this game's galaxy (a state or a view: both carry the pack, the
    variant and, from the deal on, the table), with each player's units as he fields them: the
    ``unit_override`` technologies he holds (RULES.md T1, T71) and the unit modifiers of his
    faction's traits and his technologies (T73)."""
    pk = state["pack"]
    table = state.get("table") or {}
    factions = table.get("factions") or factions_of(pk, seats(state))
    order = seats(state)
    homes = tuple(pk["factions"][factions[p]]["home"] for p in order)
    ups = tuple((p, t) for p, seat in sorted((table.get("players") or {}).items())
                for t in seat["techs"]
                if (pk["technologies"].get(t) or {}).get("effect", {}).get("do") in UNIT_EFFECTS)
    return _catalog(pk, state["variant"], homes, tuple(factions[p] for p in order), ups)


#: Technology effects that change a unit (the catalog is built again when one is researched).
UNIT_EFFECTS = ("unit_override", "unit_cost", "unit_move", "unit_combat")
_CATALOGS: dict[tuple[str, tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]],
                tuple[Mapping[str, Any], Catalog]] = {}


def _catalog(pk: Mapping[str, Any], layout: str, homes: tuple[str, ...],
             factions: tuple[str, ...], ups: tuple[tuple[str, str], ...]) -> Catalog:
    """One catalog per pack, layout, homes and upgrades (a catalog is frozen facts, and
    building it is most of a small step's work): kept with the pack it was built from and used
    again for an equal pack (the same object, or a copy of it: every step's state has one)."""
    key = (layout, homes, factions, ups)
    kept = _CATALOGS.get(key)
    if kept is not None and kept[0] is not pk and kept[0] == pk:
        kept = _CATALOGS[key] = (pk, kept[1])  # this copy of the pack from now on: no compare
    if kept is None or kept[0] is not pk:
        if len(_CATALOGS) > 64:
            _CATALOGS.clear()
        upgrades = {p: traits.unit_fields(pk, f, [t for q, t in ups if q == p])
                     for p, f in zip(powers_of(len(factions)), factions, strict=True)}
        kept = (pk, Catalog.from_pack(pk, layout, list(homes), upgrades))
        _CATALOGS[key] = kept
    return kept[1]


def deal(st: dict[str, Any], chance: Chance) -> list[dict[str, Any]]:
    """The deal step on the working copy ``st``: speaker, table, board, salt."""
    pk = st["pack"]
    order = seats(st)
    factions = factions_of(pk, order)
    speaker = order[chance.public("deal:speaker").below(len(order))]
    table = set_up(core(pk), order, factions, speaker, chance)
    cat = catalog(st)
    board = start(pk, cat, factions)
    st["table"] = table.to_data()
    st["board"] = board.to_data()
    salt = chance.secret("deal:salt").roll(range(256), SALT_BYTES)
    st["salt"] = bytes(salt).hex()
    st["round"] = table.round
    st["phase"] = "strategy"
    names = ", ".join(f"{p} plays {pk['factions'][f].get('name', f)}"
                      for p, f in factions.items())
    return [{"type": "deal", "speaker": speaker, "factions": dict(factions),
             "text": f"The galaxy is set up: {names}. {speaker} is the speaker."}]


def table_of(state: Mapping[str, Any]) -> Table:
    return Table.from_data(state["table"])


def board_of(state: Mapping[str, Any]) -> Board:
    return Board.from_data(state["board"])
