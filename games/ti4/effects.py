"""Effect primitives interpreted (RULES.md T36-T38): the strategy cards' primary and secondary
abilities, the agendas' outcomes, and the one-shot traits, technologies (``researched``, T75)
and laws in play (``standing``, T74, T76) are lists of ``{do: NAME, ...}`` from ``pack.PRIMITIVES``;
``apply`` runs one list on (table, board) for one player with his choices, one choice mapping per
primitive (missing: ``{}``, the default). Pure: no I/O, no clock, no randomness (draws come from
the decks' order on the table).

Payments name what pays: ``exhaust`` (planets the player controls, readied) and ``trade_goods``
(each worth 1 resource or 1 influence). Tokens gained go to the pools named in ``pools`` (the
rest to the tactic pool) and never past the 16 a player has in all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbem.errors import Problem

from . import traits
from .board import POOLS, Board, Draft, planet
from .objectives import holds_home, meets
from .production import produce, produce_problems
from .table import Table, award
from .units import Catalog, cost_of

Event = dict[str, Any]
#: Primitives for technologies only (unit upgrades): not a card's or an agenda's in v1.
TECH_ONLY = ("unit_cost", "unit_move", "unit_combat", "unit_override")


def payment_problems(value: object, path: str, *, alone: bool = True) -> list[Problem]:
    """A payment's shape: ``{exhaust: [planet ids], trade_goods: n}``, both optional (with
    ``alone`` false, inside a choice that has other keys too)."""
    if not isinstance(value, Mapping) or (alone and set(value) - {"exhaust", "trade_goods"}):
        return [Problem("pay-shape", path, "a payment is {exhaust: [planets], trade_goods: n}")]
    planets = value.get("exhaust") or []
    tg = value.get("trade_goods") or 0
    if not isinstance(planets, list) or not all(isinstance(p, str) for p in planets) \
            or len(set(planets)) != len(planets) or not isinstance(tg, int) \
            or isinstance(tg, bool) or tg < 0:
        return [Problem("pay-shape", path, "exhaust: is a list of distinct planet ids, "
                        "trade_goods: a whole number")]
    return []


@dataclass
class Ctx:
    """One resolution's working copies: the table (immutable, replaced) and a board draft."""

    table: Table
    d: Draft
    pack: Mapping[str, Any]
    catalog: Catalog
    player: str
    events: list[Event]
    problems: list[Problem]
    path: str

    def bad(self, code: str, message: str, key: str = "") -> None:
        self.problems.append(Problem(code, f"{self.path}.{key}" if key else self.path, message))

    def say(self, kind: str, text: str, **more: Any) -> None:
        self.events.append({"type": kind, "player": self.player, "text": text, **more})

    def pay(self, choice: Mapping[str, Any], what: str, need: int) -> bool:
        """Exhaust the named planets and spend the named trade goods for ``need`` ``what``
        ("resources" or "influence"); refused if they fall short."""
        shape = payment_problems(choice, self.path, alone=False)
        if shape:
            self.problems += shape
            return False
        got = 0
        for pid in choice.get("exhaust") or ():
            if self.d.owner.get(pid) != self.player or pid in self.d.exhausted:
                self.bad("pay-planet", f"{pid} is not a readied planet of yours", "exhaust")
                return False
            got += getattr(self.catalog.planets[pid], what)
        tg = int(choice.get("trade_goods") or 0)
        if not 0 <= tg <= self.table.players[self.player].trade_goods:
            self.bad("pay-goods", f"you have {self.table.players[self.player].trade_goods} "
                     "trade goods", "trade_goods")
            return False
        if got + tg < need:
            self.bad("pay-short", f"{need} {what} needed; the planets and trade goods named "
                     f"give {got + tg}")
            return False
        self.d.exhausted |= set(choice.get("exhaust") or ())
        seat = self.table.players[self.player]
        self.table = self.table.with_seat(self.player, trade_goods=seat.trade_goods - tg)
        return True

    def gain_tokens(self, count: int, pools: Mapping[str, int]) -> None:
        """Up to ``count`` tokens, never past the total (T37): into the pools named, in the
        order tactic, fleet, strategy, as far as they go; the rest into the tactic pool."""
        if set(pools) - set(POOLS) or not all(isinstance(v, int) and v >= 0
                                              for v in pools.values()):
            self.bad("token-pools", f"tokens go to {', '.join(POOLS)}, whole numbers",
                     "pools")
            return
        room = int(self.pack["rules"]["tokens"]["total"]) - self.d.tokens_of(self.player)
        n = left = max(0, min(count, room))
        mine = self.d.pools.setdefault(self.player, {})
        for k in POOLS:
            put = min(left, int(pools.get(k, 0)))
            mine[k] = mine.get(k, 0) + put
            left -= put
        mine["tactic"] = mine.get("tactic", 0) + left
        self.say("tokens", f"{self.player} gains {n} command token(s)"
                 + (f" ({count - n} past the limit of 16 lost)" if n < count else "") + ".",
                 count=n)


def apply(effects: Sequence[Mapping[str, Any]], table: Table, board: Board,
          pack: Mapping[str, Any], catalog: Catalog, player: str,
          choices: Sequence[Mapping[str, Any]], path: str) \
        -> tuple[Table, Board, list[Event], list[Problem]]:
    """Run ``effects`` for ``player``; with any problem, the given table and board stand."""
    ctx = Ctx(table, board.edit(), pack, catalog, player, [], [], path)
    for i, effect in enumerate(effects):
        choice = choices[i] if i < len(choices) and isinstance(choices[i], Mapping) else {}
        ctx.path = f"{path}[{i}]"
        _one(ctx, effect, choice)
    if ctx.problems:
        return table, board, [], ctx.problems
    return ctx.table, ctx.d.freeze(), ctx.events, []


def _one(c: Ctx, e: Mapping[str, Any], ch: Mapping[str, Any]) -> None:
    do, p, t = e["do"], c.player, c.table
    seat = t.players[p]
    if do == "gain_tokens":
        c.gain_tokens(int(e["count"]), ch.get("pools") or {})
    elif do == "buy_tokens":
        n = int(ch.get("tokens") or 0)
        if n and c.pay(ch, "influence", n * int(e["influence_per_token"])):
            c.gain_tokens(n, ch.get("pools") or {})
    elif do == "gain_trade_goods":
        c.table = t.with_seat(p, trade_goods=seat.trade_goods + int(e["count"]))
        c.say("trade-goods", f"{p} gains {e['count']} trade good(s).")
    elif do == "refresh_commodities":
        top = traits.commodity_value(c.pack, t, p)
        c.table = t.with_seat(p, commodities=top)
        c.say("commodities", f"{p}'s commodities are refilled to {top}.")
    elif do == "extra_commodities":
        c.table = t.with_seat(p, commodities=seat.commodities + int(e["count"]))
    elif do == "research":
        _research(c, e, ch)
    elif do == "place_structure":
        _place(c, str(e["unit"]), ch.get("planet"))
    elif do == "ready_planets":
        chosen = list(ch.get("planets") or ())
        if len(chosen) > int(e["count"]) or any(c.d.owner.get(x) != p for x in chosen):
            c.bad("ready-planets", f"at most {e['count']} of your planets", "planets")
            return
        c.d.exhausted -= set(chosen)
        if chosen:
            c.say("ready", f"{p} readies {', '.join(chosen)}.")
    elif do == "choose_speaker":
        who = ch.get("speaker", p)
        if who not in t.seats:
            c.bad("speaker-player", f"{who} is not at the table", "speaker")
            return
        c.table = replace(t, speaker=who)
        c.say("speaker", f"{p} makes {who} the speaker.")
    elif do == "peek_agendas":
        seen = list(t.agenda_deck[:int(e["count"])])
        c.events.append({"type": "peek", "player": p, "to": [p], "agendas": seen,
                         "text": f"The top agendas: {', '.join(seen) or 'none'}."})
    elif do == "lock_system":
        system = ch.get("system")
        if system is not None:
            if system not in c.catalog.galaxy.tiles:
                c.bad("lock-system", f"no system {system}", "system")
                return
            c.table = replace(t, locked={**t.locked, str(system): p})
            c.say("lock", f"{p} locks {system}: no other player may activate it this round.")
    elif do == "recover_token":
        system = ch.get("system")
        if system is not None:
            if p not in c.d.tokens.get(system, set()):
                c.bad("recover-token", f"you have no command token in {system}", "system")
                return
            c.d.tokens[system].discard(p)
            c.d.pools[p]["tactic"] = c.d.pools[p].get("tactic", 0) + 1
            c.say("recover", f"{p} takes his command token back from {system}.")
    elif do == "score_public_now":
        oid = ch.get("objective")
        if oid is not None:
            _score_now(c, str(oid), ch)
    elif do == "vp_if_control":
        pid = e.get("planet") or ch.get("planet")
        if pid is not None and c.d.owner.get(pid) == p:
            c.table = award(t, p, int(e["vp"]), f"controls {pid}", c.events, _target(c))
    elif do == "draw_secret":
        _draw_secret(c, int(e["count"]))
    elif do == "produce_at_home":
        _produce_at_home(c, ch)
    else:
        c.bad("effect-unsupported", f"{do} is a technology's effect, not a card's")


def _target(c: Ctx) -> int:
    return int(c.pack["rules"]["victory_points"])


def _research(c: Ctx, e: Mapping[str, Any], ch: Mapping[str, Any]) -> None:
    tid = ch.get("tech")
    if tid is None:
        return
    techs = c.pack["technologies"]
    have = c.table.players[c.player].techs
    if tid not in techs or tid in have:
        c.bad("research-tech", f"{tid} is not a technology you may research", "tech")
        return
    missing = [r for r in techs[tid]["requires"] if r not in have]
    if missing:
        c.bad("research-prerequisite", f"{tid} needs {', '.join(missing)}", "tech")
        return
    if c.pay(ch, "resources", int(e["cost"])):
        c.table = c.table.with_seat(c.player, techs=(*have, str(tid)))
        c.say("research", f"{c.player} researches {tid}.")
        researched(c, str(tid))


def researched(c: Ctx, tid: str) -> None:
    """A technology just researched: its one-shot effect acts now, once, with the automatic
    choice (T75); a passive one acts from now on through the catalog and the commodity value."""
    effect = c.pack["technologies"][tid]["effect"]
    if effect["do"] in traits.ONE_SHOT:
        path = c.path
        c.path = f"{path}.{tid}"
        _one(c, effect, traits.auto_choice(effect, c.table, c.d.freeze(), c.pack, c.player))
        c.path = path


def _place(c: Ctx, unit: str, pid: object) -> None:
    if pid is None:
        return
    if not isinstance(pid, str) or c.d.owner.get(pid) != c.player:
        c.bad("structure-planet", f"{pid} is not a planet you control", "planet")
        return
    spec = c.catalog.unit(unit, c.player)
    if c.d.total(c.player, unit) >= spec.limit:
        c.bad("structure-limit", f"all {spec.limit} of your {unit} are on the board", "planet")
        return
    c.d.add(planet(pid), c.player, unit)
    c.say("place", f"{c.player} places a {unit} on {pid}.")


def _produce_at_home(c: Ctx, ch: Mapping[str, Any]) -> None:
    build = ch.get("build")
    if not build:
        return
    home = str(c.pack["factions"][c.table.factions[c.player]]["home"])
    if not isinstance(build, Mapping) or not all(isinstance(n, int) and n > 0
                                                 for n in build.values()):
        c.bad("home-build", "build: maps a unit to how many", "build")
        return
    found = produce_problems(c.d.freeze(), c.catalog, c.player, home, dict(build), 10**6)
    for prob in found:
        c.bad(prob.code, prob.message, "build")
    if found or not c.pay(ch, "resources", cost_of(build, c.catalog.specs(c.player))):
        return
    produce(c.d, c.catalog, c.player, home, build, c.events)


def _score_now(c: Ctx, oid: str, ch: Mapping[str, Any]) -> None:
    score(c, oid, ch, public=True)


def score(c: Ctx, oid: str, ch: Mapping[str, Any], *, public: bool) -> None:
    """Score one objective: a revealed public one (needing every home planet) or a secret one
    the player holds; its predicate must hold; a spend objective is paid now, from
    ``ch["resources"]`` / ``ch["influence"]`` payments and trade goods (T39)."""
    seat = c.table.players[c.player]
    spec = c.pack["objectives"].get(oid)
    if public and (oid not in c.table.publics or oid in seat.scored):
        c.bad("score-objective", f"{oid} is not a revealed objective you have not scored",
              "public")
        return
    if not public and (oid not in seat.secrets or spec is None or spec["phase"] != "status"):
        c.bad("score-objective", f"{oid} is not a status-phase secret objective you hold",
              "secret")
        return
    assert spec is not None
    key = "public" if public else "secret"
    if public and not holds_home(c.d, c.pack, c.table.factions[c.player], c.player):
        c.bad("score-home", "public objectives need every planet of your home system", key)
        return
    why = meets(spec["test"], c.d, c.pack, c.catalog, c.table, c.player)
    if why:
        c.bad("score-unmet", f"the objective is not met: {why}", key)
        return
    test = spec["test"]
    if test["test"] == "spend":
        for kind in ("resources", "influence"):
            if test.get(kind) and not c.pay(ch.get(kind) or {}, kind, int(test[kind])):
                return
        if test.get("trade_goods"):
            s = c.table.players[c.player]
            c.table = c.table.with_seat(c.player,
                                        trade_goods=s.trade_goods - int(test["trade_goods"]))
    s = c.table.players[c.player]
    c.table = c.table.with_seat(c.player, scored=(*s.scored, oid),
                                secrets=tuple(x for x in s.secrets if x != oid))
    c.table = award(c.table, c.player, int(spec["vp"]), f"scores {oid}", c.events, _target(c))


def _draw_secret(c: Ctx, count: int) -> None:
    limit = int(c.pack["rules"]["secret_objectives"]["limit"])
    for _ in range(count):
        t = c.table
        if not t.secret_deck:
            return
        top, rest = t.secret_deck[0], t.secret_deck[1:]
        seat = t.players[c.player]
        mine = len(seat.secrets) + sum(1 for o in seat.scored
                                       if c.pack["objectives"][o]["stage"] == "secret")
        if mine >= limit:   # over the limit: the one drawn goes back under the deck (T38)
            c.table = replace(t, secret_deck=(*rest, top))
            c.say("secret-returned", f"{c.player} is at {limit} secret objectives: the one "
                  "drawn goes back.", to=[c.player])
            continue
        c.table = replace(t.with_seat(c.player, secrets=(*seat.secrets, top)), secret_deck=rest)
        c.events.append({"type": "secret-drawn", "player": c.player, "to": [c.player],
                         "objective": top, "text": f"You draw the secret objective {top}."})
