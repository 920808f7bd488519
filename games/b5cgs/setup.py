"""Set-up: the initial state, the Random Game Set-up step (C1.4) and the starting fleets (C4.3).

``setup`` is pure and secret-free (pbem's rule: deal in the first step): it lays the map's
geometry (C2.1), Babylon 5 face up in the centre (C2.31; C1.45 skips C2, so the C2.42 flip
does not happen: ruling R5) and records the pack. The first step (window kind ``setup``) draws
nothing: every player commits his chance. The second (kind ``deal``, ``setup_step``) rolls
for the order of play in public (C2.2: everyone rolls a D6, the highest plays first, ties roll
again), places the homeworlds face up in positions 1, 2, ... in the order of play (C2.32,
rotation 0: ruling R6) with their starting bases (C4.3), shuffles the other pieces and deals
them face down from ``chance.secret("deal:pieces")`` so that nobody knows them (C1.42), and
draws the referee's salt. Starting fleets are bought with the empire discount always (C4.3):
from rules version 3 every player places his in the order of play, one step each, before the
first turn (C4.3, C4.4; ruling R7, ``turn.place_fleet``); under versions 1 and 2 they are each
player's first orders (``start:``), bought at the start of his first turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.errors import PbemError
from pbem.game.chance import Chance
from pbem.game.events import private

from . import components as comp
from . import hexes as hx

SCHEMA = 1
GAME = "b5cgs"
RULES_VERSION = 4
"""The rules version new games play (pbem.game.versions). Version 2 (RULES.md): a ship may be
built into a hex of a face-down piece, exposing it (D4.31; RULES.md E3); a ship crippled earlier
in its Move phase still moves and sweeps (D4.43; RULES.md R17). Version 3: every starting fleet
is placed, in the order of play, before the first turn (C4.3, C4.4; RULES.md R7); contested
space only in the modular variants, a hex contested only if a neighbour says so (A4, D3.42;
RULES.md E4); a Long Range Support roll and a volley's damage named as players count them
(RULES.md W1). Version 4: mail by touch (RULES.md R23): a turn's full report goes to the powers
it touched (an ``under_fire`` event names whoever was fired on), the others read it at their
digest pace, and a contested-space answer repeated unchanged says nothing. Games recorded under
earlier versions play on as they began; the version is kept in ``options.rules_version``
(absent: 1)."""
RULES_VERSIONS = (1, 2, 3, 4)
#: From this rules version the starting fleets are placed before play (RULES.md R7).
FLEETS_BEFORE_PLAY = 3
#: From this rules version contested space is a modular rule, answered allow unless a player
#: says deny (RULES.md E4).
MODULAR_CONTESTED = 3
#: From this rules version a step's full report goes to the powers it touched, a unit fired on
#: names its owner (``under_fire``) and an unchanged contested answer is silent (RULES.md R23).
MAIL_BY_TOUCH = 4
#: The stand-in's empires are the seats, in this order (a custom pack's empires are matched
#: by id, the rest in the pack's order: ``empire_of``).
SEATS = ("earth-alliance", "minbari", "valdri", "korath")
GAME_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,62}")
MAX_TIE_ROLLS = 20


class SetupError(PbemError):
    """A bad variant, option or component pack at set-up."""


def _variants() -> dict[str, dict[str, Any]]:
    out = {}
    for n in (2, 3, 4):
        out[f"basic-{n}"] = {"players": n, "mines": False, "territorial": False,
                             "discounts": False}
        out[f"modular-{n}"] = {"players": n, "mines": True, "territorial": True,
                               "discounts": True}
    return out


VARIANTS = _variants()


def powers_of(variant: str) -> tuple[str, ...]:
    return SEATS[:VARIANTS[variant]["players"]]


def empire_of(pack: Mapping[str, Any], seats: tuple[str, ...]) -> dict[str, str]:
    """Each seat's empire: the pack's empire of the same id, else the pack's next unused one
    (C1.41: "by choice or at random"; the seat names the choice)."""
    empires = list(pack["empires"])
    out = {s: s for s in seats if s in empires}
    rest = [e for e in empires if e not in out.values()]
    for s in seats:
        if s not in out:
            if not rest:
                raise SetupError(f"the pack has {len(empires)} empires, too few for "
                                 f"{len(seats)} players")
            out[s] = rest.pop(0)
    return out


def setup(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    if variant not in VARIANTS:
        raise SetupError(f"unknown variant {variant!r} of b5cgs (known: "
                         f"{', '.join(sorted(VARIANTS))})")
    game_id = options.get("game_id")
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise SetupError(f"game_id must be a lower-case slug (letters, digits, . _ -), "
                         f"not {game_id!r}")
    data = options.get("components") or comp.standin()
    problems = comp.check_components(data)
    if problems:
        raise SetupError("the component pack is not usable: " +
                         "; ".join(map(str, problems[:5])))
    pack = comp.catalogue(data)
    version = options.get("rules_version", RULES_VERSION)
    if version not in RULES_VERSIONS:
        raise SetupError(f"b5cgs plays rules versions {RULES_VERSIONS}, not {version!r}")
    opts = dict(VARIANTS[variant])
    if version != 1:  # a version 1 state stays exactly as it was
        opts["rules_version"] = version
    if version >= MODULAR_CONTESTED:  # A4: a modular rule; D3.42: contested if desired
        opts["contested"] = not variant.startswith("basic")
    default_answer = "allow" if version >= MODULAR_CONTESTED else "deny"
    n = opts["players"]
    seats = powers_of(variant)
    empires = empire_of(pack, seats)
    size = hx.MAP_PIECES[n]
    standard = [p for p, piece in pack["pieces"].items() if piece["kind"] == "standard"]
    if len(standard) < size - 1 - n:
        raise SetupError(f"the pack has {len(standard)} standard map pieces; a {n}-player map "
                         f"needs {size - 1 - n}")
    opts["pieces"] = size
    homes = hx.HOMEWORLD_SLOTS[n]
    slots = []
    b5 = next(p for p, piece in pack["pieces"].items() if piece["kind"] == "b5")
    for i, centre in enumerate(hx.layout(size)):
        kind = "b5" if i == 0 else "homeworld" if i in homes else "deal"
        slots.append({"slot": i, "centre": hx.key(centre), "kind": kind,
                      "hexes": [hx.key(h) for h in hx.flower(centre)],
                      "exposed": False, "piece": None, "rotation": None, "flip": None})
    st: dict[str, Any] = {
        "schema": SCHEMA, "game": GAME, "game_id": game_id, "variant": variant,
        "options": opts, "pack": pack, "phase": "setup", "turn": 1, "round": 0,
        "seats": list(seats), "order": [], "current": None,
        "powers": {p: {"empire": empires[p], "reserve": 0, "war_tokens": [],
                       "contested": {"default": default_answer, "allow": [], "deny": []},
                       "surrendered": False, "declared": None, "turns": 0,
                       "homeworld_slot": None}
                   for p in seats},
        "map": {"pieces": size, "b5_hex": hx.key(hx.CENTRE), "slots": slots},
        "hexes": {}, "tokens": {}, "next_token": 1,
        "flags": {"moved": [], "fired": [], "targeted": []},
        "referee": {"pieces": {}, "backs": {}, "aside": [], "salt": None},
        "result": None,
    }
    expose(st, 0, b5, 0, None)
    return st


# -- helpers shared with movement and the econ modules ---------------------------------------
def rules_version(board: Mapping[str, Any]) -> int:
    """The rules version of a state or a view (``options.rules_version``; absent: 1)."""
    return int(board["options"].get("rules_version", 1))


def fleet_due(view: Mapping[str, Any]) -> bool:
    """Whether the viewer's orders for the open step may place his starting fleet (C4.3):
    from rules version 3 in his own starting-fleet step (window ``fleet``), before that in his
    first turn (ruling R7)."""
    window = view.get("window") or {}
    if rules_version(view) >= FLEETS_BEFORE_PLAY:
        return window.get("kind") == "fleet" and view.get("viewer") in (window.get("due") or [])
    return bool((view.get("you") or {}).get("first_turn"))


def expose(st: dict[str, Any], slot: int, piece: str, rotation: int, flip: int | None) -> None:
    """Turn a slot face up: its piece, rotation and flip become public and its hexes' map
    elements are written into ``st["hexes"]``."""
    s = st["map"]["slots"][slot]
    s.update({"exposed": True, "piece": piece, "rotation": rotation, "flip": flip})
    printed = st["pack"]["pieces"][piece]["hexes"]
    centre = hx.parse(s["centre"])
    assert centre is not None
    for name, h in hx.piece_hexes(centre, rotation).items():
        st["hexes"][hx.key(h)] = {"slot": slot, "printed": name, **printed.get(name, {})}
    st["hexes"] = dict(sorted(st["hexes"].items()))
    st["referee"]["pieces"].pop(str(slot), None)
    st["referee"]["backs"].pop(str(slot), None)


def new_token(st: dict[str, Any], ttype: str, owner: str | None, hex_: str | None,
              facing: int | None, built: list[Any]) -> str:
    """Put a token of type ``ttype`` into play; returns its instance id (``t<n>``)."""
    tid = f"t{st['next_token']}"
    st["next_token"] += 1
    st["tokens"][tid] = {"type": ttype, "owner": owner, "hex": hex_, "facing": facing,
                         "crippled": False, "scrap": False, "built": built}
    return tid


def in_play(st: Mapping[str, Any], ttype: str) -> int:
    """Tokens of a type on the map or in a Scrap Yard (no proxies: at most ``count``)."""
    return sum(1 for t in st["tokens"].values() if t["type"] == ttype)


def roll(chance: Chance, label: str, die: str, faces: list[int], count: int, why: str
         ) -> tuple[list[int], dict[str, Any]]:
    """One labelled public roll and its event (every roll is listed in the report)."""
    result = chance.public(label).roll(faces, count)
    return result, {"type": "roll", "label": label, "die": die, "faces": list(faces),
                    "count": count, "result": list(result), "for": why}


# -- the set-up step -------------------------------------------------------------------------
def first_player(st: dict[str, Any], chance: Chance) -> tuple[str, list[dict[str, Any]]]:
    """C2.2: every player rolls a D6, the highest goes first; tied players roll again (ruling
    R8: after 20 tied rolls the first tied player in seat order goes first)."""
    events = []
    tied = list(st["seats"])
    d6 = st["pack"]["dice"]["d6"]
    for k in range(1, MAX_TIE_ROLLS + 1):
        result, ev = roll(chance, f"first-player:{k}", "d6", d6, len(tied),
                          "the order of play: " + ", ".join(tied))
        ev["powers"] = list(tied)
        events.append(ev)
        best = max(result)
        tied = [p for p, r in zip(tied, result, strict=True) if r == best]
        if len(tied) == 1:
            break
    return tied[0], events


def setup_step(st: dict[str, Any], chance: Chance) -> list[dict[str, Any]]:
    """The deal (the step after set-up): order of play, homeworlds and their bases, the
    face-down deal, salt."""
    first, events = first_player(st, chance)
    seats = st["seats"]
    i = seats.index(first)
    order = seats[i:] + seats[:i]
    st["order"], st["current"], st["phase"], st["round"] = order, first, "play", 1
    if rules_version(st) >= FLEETS_BEFORE_PLAY:  # C4.3 first: the fleets, in the order of play
        st["phase"], st["round"] = "fleet", 0
    events.append({"type": "order_of_play", "order": list(order)})
    pack = st["pack"]
    homes = hx.HOMEWORLD_SLOTS[st["options"]["players"]]
    for position, power in enumerate(order):
        me = st["powers"][power]
        emp = pack["empires"][me["empire"]]
        slot = homes[position]
        me["homeworld_slot"] = slot
        me["reserve"] = emp["reserve"]
        expose(st, slot, emp["homeworld"], 0, None)
        events.append({"type": "homeworld", "power": power, "slot": slot,
                       "piece": piece_name(emp["homeworld"]), "position": position + 1})
        centre = hx.parse(st["map"]["slots"][slot]["centre"])
        assert centre is not None
        for base in emp["bases"]:
            h = hx.key(hx.printed_to_board(centre, base["hex"], 0))
            tid = new_token(st, base["token"], power, h, 1, [st["turn"], "setup"])
            events.append({"type": "placed", "power": power, "token": tid,
                           "token_type": base["token"], "hex": h, "facing": 1})
        events.append({"type": "economy", "power": power, "reserve": me["reserve"],
                       "why": "starting Economy Reserve (C4.2)"})
    deal_slots = [s["slot"] for s in st["map"]["slots"] if s["kind"] == "deal"]
    standard = sorted(p for p, piece in pack["pieces"].items() if piece["kind"] == "standard")
    shuffled = chance.secret("deal:pieces").shuffle(standard)
    backs = chance.secret("deal:backs")
    for slot, piece in zip(deal_slots, shuffled, strict=False):
        st["referee"]["pieces"][str(slot)] = piece
        st["referee"]["backs"][str(slot)] = backs.below(6)
    st["referee"]["aside"] = sorted(shuffled[len(deal_slots):])
    st["referee"]["salt"] = f"{chance.secret('salt').below(2**64):016x}"
    events.append({"type": "dealt", "slots": deal_slots,
                   "why": "map pieces shuffled and dealt face down; nobody has seen them (C1.42)"})
    return events


def piece_name(piece: str) -> str:
    """How a map piece is named in views and events (and looked for by the leak tests)."""
    return f"piece:{piece}"


def homeworld_hexes(st: Mapping[str, Any], power: str) -> list[str]:
    slot = st["powers"][power]["homeworld_slot"]
    return [] if slot is None else list(st["map"]["slots"][slot]["hexes"])



# -- the starting fleet (C4.3) ----------------------------------------------------------------
def start_cost(pack: Mapping[str, Any], empire: str, ttype: str) -> int:
    """C4.3: "Your empire tokens are built using empire discounts (D3.22)": build - upkeep for
    a token of the player's own empire, the full build cost for a generic one."""
    t = pack["tokens"][ttype]
    return int(t["build"]) - (int(t.get("upkeep", 0)) if t["empire"] == empire else 0)


def start_problem(board: Mapping[str, Any], power: str, entry: Mapping[str, Any],
                  taken: set[str], spent: int) -> str | None:
    """Why one starting purchase cannot be made (None: it can), on a state or a view:
    ``taken`` are hexes already bought into, ``spent`` the Reserve already spent."""
    pack = board["pack"]
    me = board["powers"][power]
    ttype, h, facing = entry.get("token"), entry.get("hex"), entry.get("facing")
    t = pack["tokens"].get(ttype) if isinstance(ttype, str) else None
    if t is None:
        return f"there is no token type {ttype!r} in the pack"
    assert isinstance(ttype, str)
    if t["empire"] not in (me["empire"], comp.GENERIC):
        return f"{ttype} is a token of {t['empire']}: buy your empire's or generic (C4.3)"
    if t["kind"] not in ("ship", "base"):
        return f"{ttype} is a {t['kind']}: the starting fleet is ships and bases (C4.3)"
    if not isinstance(h, str) or h not in homeworld_hexes(board, power):
        return f"{h!r} is not a hex of your homeworld piece (C4.3)"
    if h in taken or any(tok["hex"] == h and pack["tokens"][tok["type"]]["kind"] in
                         ("ship", "base") for tok in board["tokens"].values()):
        return f"{h} is occupied (one unit per hex, B4.35)"
    if not isinstance(facing, int) or isinstance(facing, bool) or not 1 <= facing <= 6:
        return f"facing is a direction 1..6, not {facing!r}"
    if t["kind"] == "base":
        indicator = board["hexes"].get(h, {}).get("economy")
        if indicator != t["economy"]:
            return (f"a {ttype} needs an Economy Indicator of {t['economy']} (D3.24); {h} has "
                    f"{indicator or 'none'}")
    used = sum(1 for tok in board["tokens"].values() if tok["type"] == ttype)
    if used >= t["count"]:
        return f"all {t['count']} {ttype} tokens are in play (no proxies, C1.33)"
    cost = start_cost(pack, me["empire"], ttype)
    if spent + cost > me["reserve"]:
        return (f"{ttype} costs {cost} and only {me['reserve'] - spent} is left in the Reserve "
                "(no financing, D1.92)")
    return None


def starting_fleet(st: dict[str, Any], power: str, entries: list[Any], chance: Chance
                   ) -> list[dict[str, Any]]:
    """C4.3: the purchases of the player's first orders, placed on his homeworld piece with the
    facing he chose, paid from the starting Reserve with the empire discount; each placement
    enters its hex (D4.31). A purchase that cannot be made is void; the others go on."""
    from .movement import enter  # movement imports this module

    events: list[dict[str, Any]] = []
    me = st["powers"][power]
    for i, entry in enumerate(entries):
        why = start_problem(st, power, entry, set(), 0)
        if why is not None:
            events.append(private({"type": "start_void", "power": power, "entry": i,
                                   "reason": why}, power))
            continue
        cost = start_cost(st["pack"], me["empire"], entry["token"])
        me["reserve"] -= cost
        tid = new_token(st, entry["token"], power, entry["hex"], entry["facing"],
                        [st["turn"], "start"])
        events.append({"type": "placed", "power": power, "token": tid,
                       "token_type": entry["token"], "hex": entry["hex"],
                       "facing": entry["facing"], "cost": cost})
        events.append({"type": "economy", "power": power, "reserve": me["reserve"],
                       "why": f"starting fleet: {entry['token']} for {cost} (C4.3)"})
        events += enter(st, tid, entry["hex"], False, chance, f"start{i}:{tid}")
    return events
