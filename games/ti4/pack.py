"""The component pack: rules constants, galaxies, systems, planets, units, factions, strategy
cards, technologies, objectives and agendas, and its check (RULES.md, "The component pack").

The project ships a STAND-IN pack (data/standin.yaml), labelled "not TI4": every name and card in
it is invented. An owner may type his own pack into the same schema. ``check_components``
returns every problem with its path and never raises, so a bad pack is refused whole before a
game starts. Card behaviour is data: lists of **effect primitives** (``{do: NAME, ...}``,
``PRIMITIVES``) and objective **predicates** (``{test: NAME, ...}``, ``PREDICATES``); a card is
supported only as far as it is written in them.

Size: the check of one pack schema, one function per section (constants, layouts, systems,
planets, units, factions, cards, technologies, objectives, agendas) and the cross-references
between them; the loader is a few lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import Problem
from pbem.game import datafile
from pbem.game.checker import Checker, field, item, show

from .galaxy import ANOMALIES, WORMHOLES, parse, spiral

HERE = Path(__file__).resolve().parent
STANDIN = HERE / "data" / "standin.yaml"

SECTIONS = ("rules", "layouts", "planets", "systems", "units", "factions", "strategy_cards",
            "technologies", "objectives", "agendas")
PLAYER_COUNTS = (3, 4, 5, 6)
TRAITS = ("arid", "lush", "frigid")
COLOURS = ("green", "blue", "red", "yellow")
UNIT_KINDS = ("ship", "ground", "structure")
UNIT_FIELDS = ("kind", "cost", "combat", "move", "capacity", "production", "sustain", "afb",
               "bombardment", "space_cannon", "planetary_shield", "needs_capacity", "limit")
RULES = {"victory_points": 1, "status_tokens": 0, "hand_limit": 0, "custodians_cost": 0,
         "custodians_vp": 0, "agendas_per_phase": 1}

#: Effect primitives: name -> {parameter: kind}; a kind ending in "?" is optional.
PRIMITIVES: dict[str, dict[str, str]] = {
    "gain_tokens": {"count": "count"},
    "buy_tokens": {"influence_per_token": "positive"},
    "gain_trade_goods": {"count": "count"},
    "refresh_commodities": {},
    "extra_commodities": {"count": "count"},
    "research": {"count": "count", "cost": "count"},
    "place_structure": {"unit": "unit"},
    "ready_planets": {"count": "count"},
    "choose_speaker": {},
    "peek_agendas": {"count": "count"},
    "lock_system": {},
    "recover_token": {},
    "produce_at_home": {},
    "score_public_now": {},
    "vp_if_control": {"planet": "planet?", "vp": "positive"},
    "draw_secret": {"count": "count"},
    "unit_cost": {"unit": "unit", "cost": "cost"},
    "unit_move": {"unit": "unit", "bonus": "count"},
    "unit_combat": {"unit": "unit", "bonus": "count"},
    "unit_override": {"unit": "unit"},  # plus any unit field but kind (checked as a unit's)
}

#: Objective predicates: name -> {parameter: kind}.
PREDICATES: dict[str, dict[str, str]] = {
    "control_planets": {"count": "positive", "trait": "trait?", "specialty": "colour?",
                        "planet": "planet?"},
    "spend": {"resources": "count?", "influence": "count?", "trade_goods": "count?"},
    # count techs of one colour, of any colour ("any"), or in each of `colours` colours
    "techs_of_colour": {"count": "positive", "colour": "colour?", "colours": "positive?"},
    "ships_in_systems": {"count": "positive", "adjacent_to": "place?", "system": "system?",
                         "wormhole": "wormhole?", "anomaly": "anomaly?"},
    "own_structures": {"count": "positive", "unit": "unit?"},
    "win_space_combat": {"count": "positive"},
    "win_ground_combat": {"count": "positive"},
    "cast_votes": {"count": "positive"},
}


def standin() -> dict[str, Any]:
    """The stand-in pack as loaded from data/standin.yaml (a fresh copy each call)."""
    return datafile.mapping(STANDIN)



def check_components(data: object) -> list[Problem]:
    """Every problem of a pack (empty list: a game can be played with it). Never raises."""
    try:
        return _Pack(data).check()
    except Exception as exc:  # a shape the checks did not foresee: refuse, never crash
        return [Problem("pack-malformed", "", f"the pack could not be read ({type(exc).__name__})")]


class _Pack(Checker):
    def __init__(self, data: object) -> None:
        super().__init__()
        self.data = data
        self.s: dict[str, Mapping[str, Any]] = {}

    # small checks -----------------------------------------------------------------------

    def count(self, value: object, path: str, low: int = 0, high: int = 999) -> int | None:
        return self.whole(value, path, code="number", low=low, high=high,
                          say=lambda v: f"a whole number {low}..{high}, not {show(v)}")

    def ref(self, value: object, section: str, path: str) -> bool:
        if isinstance(value, str) and value in self.s.get(section, {}):
            return True
        self.bad("unknown-ref", path, f"no {section.rstrip('s').replace('_', ' ')} "
                 f"{show(value)} in {section}:")
        return False

    def one_of(self, value: object, choices: tuple[str, ...], path: str, *,
               none: bool = False) -> None:
        if (value is None and none) or value in choices:
            return
        also = " or null" if none else ""
        self.bad("choice", path, f"one of {', '.join(choices)}{also}, not {show(value)}")

    def fields(self, entry: object, path: str, required: tuple[str, ...],
               optional: tuple[str, ...] = ()) -> Mapping[str, Any] | None:
        body = self.mapping(entry, path, code="entry", say=lambda v: f"a mapping, not {show(v)}")
        if body is None:
            return None
        self.unknown_keys(body, required + optional, path, code="unknown-field",
                          say=lambda k, hint: f"no field {show(k)} here{hint}")
        self.required(body, required, path, code="missing-field",
                      say=lambda k: f"the field {k}: is missing")
        return body

    # the pack ---------------------------------------------------------------------------

    def check(self) -> list[Problem]:
        data = self.data
        if not isinstance(data, Mapping):
            return [Problem("pack-shape", "", "a pack is a mapping with pack:, "
                            + ", ".join(f"{s}:" for s in SECTIONS))]
        self.unknown_keys(data, ("pack", "standin", "note", *SECTIONS), "", code="pack-unknown",
                          say=lambda k, hint: f"no section {show(k)} in a ti4 pack{hint}")
        if not isinstance(data.get("pack"), str) or not data.get("pack"):
            self.bad("pack-name", "pack", "the pack needs a name (pack: NAME)")
        for name in SECTIONS:
            value = data.get(name)
            if isinstance(value, Mapping) and value:
                self.s[name] = value
            else:
                self.bad("pack-section", name, f"{name}: is a mapping of id: entry")
        if len(self.s) != len(SECTIONS):
            return self.problems
        self.rules(self.s["rules"])
        for pid, planet in self.s["planets"].items():
            self.planet(planet, field("planets", pid))
        self.systems()
        for uid, unit in self.s["units"].items():
            self.unit(unit, field("units", uid))
        self.layouts()
        self.factions()
        self.strategy_cards()
        self.technologies()
        self.objectives()
        self.agendas()
        return self.problems

    def rules(self, rules: Mapping[str, Any]) -> None:
        body = self.fields(rules, "rules", (*RULES, "tokens", "picks", "public_objectives",
                                            "secret_objectives"))
        if body is None:
            return
        for name, low in RULES.items():
            if name in body:
                self.count(body[name], field("rules", name), low)
        tokens = self.fields(body.get("tokens"), "rules.tokens",
                             ("tactic", "fleet", "strategy", "total"))
        if tokens is not None and all(datafile.is_whole(tokens.get(k)) for k in
                                      ("tactic", "fleet", "strategy", "total")) \
                and tokens["tactic"] + tokens["fleet"] + tokens["strategy"] > tokens["total"]:
            self.bad("tokens", "rules.tokens", "the starting tokens exceed the total")
        picks = self.mapping(body.get("picks"), "rules.picks", code="picks",
                             say="picks: maps each player count 3..6 to the cards each picks")
        if picks is not None:
            cards = len(self.s["strategy_cards"])
            for n in PLAYER_COUNTS:
                got = self.count(picks.get(n), item("rules.picks", n), 1)
                if got is not None and got * n > cards:
                    self.bad("picks", item("rules.picks", n), f"{n} players picking {got} "
                             f"need {got * n} strategy cards; the pack has {cards}")
        self.fields(body.get("public_objectives"), "rules.public_objectives",
                    ("stage1", "stage2", "revealed_at_start"))
        self.fields(body.get("secret_objectives"), "rules.secret_objectives",
                    ("drawn", "kept", "limit"))

    def planet(self, planet: object, path: str) -> None:
        body = self.fields(planet, path, ("resources", "influence", "trait", "specialty"))
        if body is None:
            return
        for name in ("resources", "influence"):
            if name in body:
                self.count(body[name], field(path, name))
        self.one_of(body.get("trait"), TRAITS, field(path, "trait"), none=True)
        self.one_of(body.get("specialty"), COLOURS, field(path, "specialty"), none=True)

    def systems(self) -> None:
        where: dict[str, str] = {}
        for sid, system in self.s["systems"].items():
            path = field("systems", sid)
            body = self.fields(system, path, ("planets", "wormholes", "anomaly", "home"))
            if body is None:
                continue
            planets = self.listing(body.get("planets"), field(path, "planets"), code="list",
                                   say="planets: is a list of planet ids")
            for i, pid in enumerate(planets or ()):
                if self.ref(pid, "planets", item(field(path, "planets"), i)):
                    if pid in where:
                        self.bad("planet-twice", item(field(path, "planets"), i),
                                 f"planet {pid} is already in system {where[pid]}")
                    where[pid] = sid
            holes = self.listing(body.get("wormholes"), field(path, "wormholes"), code="list",
                                 say="wormholes: is a list (alpha, beta)")
            for i, hole in enumerate(holes or ()):
                self.one_of(hole, WORMHOLES, item(field(path, "wormholes"), i))
            self.one_of(body.get("anomaly"), ANOMALIES, field(path, "anomaly"), none=True)
            self.flag(body.get("home"), field(path, "home"), code="flag", say="true or false")

    def homes(self) -> list[str]:
        return [sid for sid, s in self.s["systems"].items()
                if isinstance(s, Mapping) and s.get("home") is True]

    def layouts(self) -> None:
        seen: set[int] = set()
        homes = self.homes()
        for lid, layout in self.s["layouts"].items():
            path = field("layouts", lid)
            body = self.fields(layout, path, ("players", "rings", "centre", "homes", "systems"))
            if body is None:
                continue
            players = self.count(body.get("players"), field(path, "players"), 3, 6)
            rings = self.count(body.get("rings"), field(path, "rings"), 1, 4)
            if players is not None:
                seen.add(players)
                if players > len(homes):
                    self.bad("layout-homes", field(path, "players"), f"{players} players need "
                             f"{players} home systems; the pack has {len(homes)}")
            centre = body.get("centre")
            if self.ref(centre, "systems", field(path, "centre")) and centre in homes:
                self.bad("layout-centre", field(path, "centre"), "the centre is not a home")
            at = self.listing(body.get("homes"), field(path, "homes"), code="list",
                              say="homes: is a list of positions \"q,r\"") or []
            taken: set[tuple[int, int]] = {(0, 0)}
            for i, text in enumerate(at):
                h = parse(text)
                ipath = item(field(path, "homes"), i)
                if h is None or rings is None or h not in spiral(rings) or h in taken:
                    self.bad("layout-position", ipath, f"{show(text)} is not a free position "
                             f"\"q,r\" within {rings} rings")
                else:
                    taken.add(h)
            if players is not None and len(at) != players:
                self.bad("layout-count", field(path, "homes"), f"{players} home positions "
                         f"for {players} players, not {len(at)}")
            fill = self.listing(body.get("systems"), field(path, "systems"), code="list",
                                say="systems: is a list of system ids") or []
            used: set[object] = {centre}
            for i, sid in enumerate(fill):
                ipath = item(field(path, "systems"), i)
                if not self.ref(sid, "systems", ipath):
                    continue
                if sid in used or sid in homes:
                    self.bad("layout-system", ipath, f"{sid} is the centre, a home system or "
                             "already placed")
                used.add(sid)
            if rings is not None:
                need = len(spiral(rings)) - 1 - len(at)
                if len(fill) != need:
                    self.bad("layout-count", field(path, "systems"), f"{rings} rings less the "
                             f"centre and {len(at)} homes leave {need} positions, not "
                             f"{len(fill)} systems")
        for n in PLAYER_COUNTS:
            if n not in seen:
                self.bad("layout-missing", "layouts", f"no layout for {n} players")

    def unit(self, unit: object, path: str, *, override: bool = False) -> None:
        body = self.fields(unit, path, () if override else UNIT_FIELDS,
                           UNIT_FIELDS[1:] if override else ())
        if body is None:
            return
        if "kind" in body:
            self.one_of(body["kind"], UNIT_KINDS, field(path, "kind"))
        cost = body.get("cost")
        if "cost" in body and cost is not None:
            self.cost(cost, field(path, "cost"))
        for name in ("move", "capacity"):
            if name in body:
                self.count(body[name], field(path, name))
        if "limit" in body:
            self.count(body["limit"], field(path, "limit"), 1)
        for name in ("sustain", "planetary_shield", "needs_capacity"):
            if name in body:
                self.flag(body[name], field(path, name), code="flag", say="true or false")
        for name, need, may in (("combat", (), ()), ("afb", (), ()),
                                ("bombardment", (), ("ignores_shield",)),
                                ("space_cannon", ("range",), ())):
            roll = body.get(name)
            if roll is None:
                continue
            rpath = field(path, name)
            rbody = self.fields(roll, rpath, ("value", "dice", *need), may)
            if rbody is not None:
                self.count(rbody.get("value"), field(rpath, "value"), 1, 10)
                self.count(rbody.get("dice"), field(rpath, "dice"), 1, 10)
                if "range" in rbody:
                    self.count(rbody["range"], field(rpath, "range"), 0, 3)
                if "ignores_shield" in rbody:
                    self.flag(rbody["ignores_shield"], field(rpath, "ignores_shield"),
                              code="flag", say="true or false")
        production = body.get("production")
        if production is not None:
            ppath = field(path, "production")
            pbody = self.fields(production, ppath, ("value", "plus_resources"))
            if pbody is not None:
                self.count(pbody.get("value"), field(ppath, "value"))
                self.flag(pbody.get("plus_resources"), field(ppath, "plus_resources"),
                          code="flag", say="true or false")

    def cost(self, value: object, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or value < 0 or value * 2 != int(value * 2):
            self.bad("cost", path, f"a cost is a whole number or a half (0.5 = two for one), "
                     f"not {show(value)}")

    def param(self, kind: str, value: object, path: str) -> None:
        if kind in ("count", "positive"):
            self.count(value, path, 1 if kind == "positive" else 0)
        elif kind == "cost":
            self.cost(value, path)
        elif kind in ("unit", "planet", "system"):
            self.ref(value, kind + "s", path)
        elif kind == "trait":
            self.one_of(value, TRAITS, path)
        elif kind == "colour":
            self.one_of(value, (*COLOURS, "any"), path)
        elif kind == "wormhole":
            self.one_of(value, (*WORMHOLES, "any"), path)
        elif kind == "anomaly":
            self.one_of(value, ANOMALIES, path)
        elif kind == "place" and value != "home-of-other":
            self.ref(value, "systems", path)

    def call(self, entry: object, path: str, key: str, table: dict[str, dict[str, str]]) -> None:
        """One effect primitive (key "do") or predicate (key "test")."""
        body = self.mapping(entry, path, code="entry", say=lambda v: f"a mapping, not {show(v)}")
        if body is None:
            return
        name = body.get(key)
        if name not in table:
            self.bad("unknown-primitive", field(path, key), f"no {key} {show(name)}; known: "
                     + ", ".join(table))
            return
        spec = table[name]
        extra = UNIT_FIELDS[1:] if name == "unit_override" else ()
        self.unknown_keys(body, (key, *spec, *extra), path, code="unknown-field",
                          say=lambda k, hint: f"{name} takes no {show(k)}{hint}")
        for pname, kind in spec.items():
            if pname in body:
                self.param(kind.rstrip("?"), body[pname], field(path, pname))
            elif not kind.endswith("?"):
                self.bad("missing-field", field(path, pname), f"{name} needs {pname}:")
        if extra:
            self.unit({k: v for k, v in body.items() if k in extra}, path, override=True)

    def calls(self, value: object, path: str) -> None:
        for i, entry in enumerate(self.listing(value, path, code="list",
                                               say="a list of effects {do: ...}") or ()):
            self.call(entry, item(path, i), "do", PRIMITIVES)

    def factions(self) -> None:
        homes = self.homes()
        used: dict[str, str] = {}
        for fid, faction in self.s["factions"].items():
            path = field("factions", fid)
            body = self.fields(faction, path, ("name", "home", "commodities", "techs", "units",
                                               "traits"))
            if body is None:
                continue
            home = body.get("home")
            if self.ref(home, "systems", field(path, "home")):
                if home not in homes:
                    self.bad("faction-home", field(path, "home"), f"{home} is not a home system")
                elif home in used:
                    self.bad("faction-home", field(path, "home"), f"{home} is already the home "
                             f"of {used[home]}")
                used[str(home)] = str(fid)
            self.count(body.get("commodities"), field(path, "commodities"))
            for i, tid in enumerate(self.listing(body.get("techs"), field(path, "techs"),
                                                 code="list", say="a list of tech ids") or ()):
                self.ref(tid, "technologies", item(field(path, "techs"), i))
            units = self.mapping(body.get("units"), field(path, "units"), code="entry",
                                 say="units: maps unit ids to counts")
            for uid, n in (units or {}).items():
                upath = field(field(path, "units"), uid)
                if self.ref(uid, "units", upath):
                    self.count(n, upath, 1)
            self.calls(body.get("traits"), field(path, "traits"))
        if len(self.s["factions"]) < max(PLAYER_COUNTS):
            self.bad("factions-count", "factions", f"at least {max(PLAYER_COUNTS)} factions "
                     f"(one per player), not {len(self.s['factions'])}")

    def strategy_cards(self) -> None:
        seen: set[int] = set()
        for cid, card in self.s["strategy_cards"].items():
            path = field("strategy_cards", cid)
            body = self.fields(card, path, ("initiative", "primary", "secondary",
                                            "secondary_cost"))
            if body is None:
                continue
            ini = self.count(body.get("initiative"), field(path, "initiative"), 1)
            if ini is not None:
                if ini in seen:
                    self.bad("initiative", field(path, "initiative"), f"initiative {ini} twice")
                seen.add(ini)
            self.calls(body.get("primary"), field(path, "primary"))
            self.calls(body.get("secondary"), field(path, "secondary"))
            self.count(body.get("secondary_cost"), field(path, "secondary_cost"))

    def technologies(self) -> None:
        techs = self.s["technologies"]
        for tid, tech in techs.items():
            path = field("technologies", tid)
            body = self.fields(tech, path, ("name", "colour", "requires", "effect"))
            if body is None:
                continue
            self.one_of(body.get("colour"), (*COLOURS, "unit"), field(path, "colour"))
            for i, req in enumerate(self.listing(body.get("requires"), field(path, "requires"),
                                                 code="list", say="a list of tech ids") or ()):
                self.ref(req, "technologies", item(field(path, "requires"), i))
            self.call(body.get("effect"), field(path, "effect"), "do", PRIMITIVES)
        for tid in techs:
            if self._cycle(tid, techs):
                self.bad("tech-cycle", field(field("technologies", tid), "requires"),
                         f"{tid} requires itself through its prerequisites")

    @staticmethod
    def _cycle(start: str, techs: Mapping[str, Any]) -> bool:
        todo, seen = [start], set()
        while todo:
            tech = techs.get(todo.pop())
            reqs = tech.get("requires") if isinstance(tech, Mapping) else None
            for req in reqs if isinstance(reqs, list) else ():
                if req == start:
                    return True
                if isinstance(req, str) and req not in seen:
                    seen.add(req)
                    todo.append(req)
        return False

    def objectives(self) -> None:
        counts = {1: 0, 2: 0, "secret": 0}
        for oid, objective in self.s["objectives"].items():
            path = field("objectives", oid)
            body = self.fields(objective, path, ("stage", "phase", "vp", "test"))
            if body is None:
                continue
            stage = body.get("stage")
            if stage in counts:
                counts[stage] += 1
            else:
                self.bad("choice", field(path, "stage"), f"stage is 1, 2 or secret, not "
                         f"{show(stage)}")
            self.one_of(body.get("phase"), ("status", "action", "agenda"), field(path, "phase"))
            self.count(body.get("vp"), field(path, "vp"), 1)
            self.call(body.get("test"), field(path, "test"), "test", PREDICATES)
        rules = self.s["rules"]
        public = rules.get("public_objectives") or {}
        secret = rules.get("secret_objectives") or {}
        for stage, need in ((1, public.get("stage1")), (2, public.get("stage2")),
                            ("secret", _times(secret.get("drawn"), max(PLAYER_COUNTS)))):
            if datafile.is_whole(need) and counts[stage] < need:
                self.bad("objectives-count", "objectives", f"at least {need} objectives of "
                         f"stage {stage}, not {counts[stage]}")

    def agendas(self) -> None:
        outcomes = {"for_against": ("for", "against"), "elect_player": ("elected",),
                    "elect_planet": ("elected",)}
        for aid, agenda in self.s["agendas"].items():
            path = field("agendas", aid)
            body = self.fields(agenda, path, ("kind", "outcome", "effects"))
            if body is None:
                continue
            self.one_of(body.get("kind"), ("law", "directive"), field(path, "kind"))
            outcome = body.get("outcome")
            self.one_of(outcome, tuple(outcomes), field(path, "outcome"))
            keys = outcomes.get(outcome, ()) if isinstance(outcome, str) else ()
            effects = self.fields(body.get("effects"), field(path, "effects"), keys)
            for name in keys:
                if effects is not None and name in effects:
                    self.calls(effects[name], field(field(path, "effects"), name))


def _times(value: object, n: int) -> int | None:
    return value * n if datafile.is_whole(value) else None
