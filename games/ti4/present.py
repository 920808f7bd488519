"""TI4's presenter: the context of every mail that shows the game (docs/plugins.md, "The
presentation").

Everything comes from a view and the events its reader may see, so a report cannot show
what the view does not hold. The part every reader shares (the events everyone saw, every die
under its label, the galaxy as text and as ``map.svg``, the table's strategy cards, the public
objectives and who scored them, the scores, the laws) is made from the public part of a view
(``public_view``: no reader, nobody's secrets but their count) and the public events, once per
resolution (``common``). The reader's own part (``mine``): his planets (resources/influence,
readied or exhausted), his command-token pools, trade goods and commodities, technologies, his
secret objectives (his only), what was told to him alone, and the pre-filled order form.

Modules: galaxy_cells (what each system shows), galaxy_svg and galaxy_text (the two drawings),
sentences (events and dice), orderform (the form and receipts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game.base import Presenter
from pbem.game.events import visible_to
from pbem.game.shared import SharedParts

from . import galaxy_svg, galaxy_text, orderform, sentences, traits
from .galaxy_cells import colours, factions, names, seats

View = Mapping[str, Any]
Event = Mapping[str, Any]
MAP_KIND = "hex"


def describe(test: Mapping[str, Any]) -> str:
    """An objective's predicate in words (``control 4 lush planets``)."""
    n, name = int(test.get("count") or 0), test.get("test")
    if name == "control_planets":
        if test.get("planet"):
            return f"control {test['planet']}"
        kind = test.get("trait") or ("specialty" if test.get("specialty") else "")
        kind = {"specialty": "technology-specialty"}.get(kind, kind)
        return f"control {n} {kind + ' ' if kind else ''}planets"
    if name == "spend":
        parts = [f"{test[k]} {k.replace('_', ' ')}" for k in ("resources", "influence",
                                                              "trade_goods") if test.get(k)]
        return "spend " + " and ".join(parts)
    if name == "techs_of_colour":
        if test.get("colours"):
            return f"own {n} technologies in each of {test['colours']} colours"
        return f"own {n} {'' if test.get('colour') in (None, 'any') else test['colour'] + ' '}" \
               "technologies"
    if name == "ships_in_systems":
        where = (f"adjacent to {test['adjacent_to']}" if test.get("adjacent_to") == "C0"
                 else "adjacent to another's home" if test.get("adjacent_to")
                 else f"in {test['system']}" if test.get("system")
                 else "holding a wormhole" if test.get("wormhole")
                 else f"in a {test['anomaly']}" if test.get("anomaly") else "")
        return f"ships in {n} systems{' ' + where if where else ''}"
    if name == "own_structures":
        return f"own {n} {test.get('unit') or 'structure'}s"
    if name == "win_space_combat":
        return f"win {n} space combat(s)"
    if name == "win_ground_combat":
        return f"win {n} ground combat(s)"
    if name == "cast_votes":
        return f"cast {n} votes on one agenda"
    return str(name)


def public_view(view: View) -> dict[str, Any]:
    """The public part of a power's view: no reader, no ``you``, and the reader's own secret
    objectives replaced by their count, as every other player's are."""
    out = {k: v for k, v in view.items() if k != "you"}
    out["viewer"] = None
    table = view.get("table")
    if table:
        players = {}
        for p, seat in table["players"].items():
            if "secrets" in seat:
                seat = {k: v for k, v in seat.items() if k != "secrets"}
                seat["secrets_held"] = len(view["table"]["players"][p]["secrets"])
            players[p] = seat
        out["table"] = {**table, "players": players}
    return out


def _objective(pack: Mapping[str, Any], oid: str) -> dict[str, Any]:
    spec = pack["objectives"][oid]
    stage = {1: "stage I", 2: "stage II"}.get(spec["stage"], "secret")
    return {"id": oid, "stage": stage, "vp": spec["vp"], "phase": spec["phase"],
            "text": describe(spec["test"])}


def _cards(view: View) -> list[dict[str, Any]]:
    pack, table = view["pack"], view["table"]
    cards = pack["strategy_cards"]
    holder = {c: p for p in table["seats"] for c in table["players"][p]["cards"]}
    out = []
    for c in sorted(cards, key=lambda x: int(cards[x]["initiative"])):
        p = holder.get(c)
        used = p is not None and c in table["players"][p]["used"]
        out.append({"card": c, "initiative": cards[c]["initiative"], "holder": p or "",
                    "used": used, "trade_goods": int((table.get("card_goods") or {}).get(c, 0)),
                    "line": f"{cards[c]['initiative']}. {c:<10} "
                            + (f"{p}{' (used)' if used else ''}" if p else
                               f"on the table, {(table.get('card_goods') or {}).get(c, 0)} "
                               "trade good(s)")})
    return out


def _scores(view: View) -> list[dict[str, Any]]:
    table, board = view["table"], view.get("board") or {}
    named = names(view)
    out = []
    for p in table["seats"]:
        seat = table["players"][p]
        pools = (board.get("pools") or {}).get(p) or {}
        out.append({"power": p, "name": named[p], "vp": seat["vp"],
                    "speaker": p == table["speaker"], "cards": list(seat["cards"]),
                    "passed": bool(seat["passed"]), "trade_goods": seat["trade_goods"],
                    "commodities": seat["commodities"], "techs": list(seat["techs"]),
                    "traits": traits.trait_lines(view["pack"], table["factions"][p]),
                    "secrets_held": int(seat.get("secrets_held", len(seat.get("secrets", [])))),
                    "scored": list(seat["scored"]),
                    "pools": f"{pools.get('tactic', 0)}/{pools.get('fleet', 0)}/"
                             f"{pools.get('strategy', 0)}",
                    "planets": sum(1 for o in (board.get("owner") or {}).values() if o == p)})
    return out


def _table(view: View) -> dict[str, Any]:
    """The table as everyone sees it (empty before the deal)."""
    table = view.get("table")
    if not table:
        return {"cards": [], "scores": [], "publics": [], "laws": [], "speaker": "",
                "decks": {}, "agendas": []}
    pack = view["pack"]
    scored_by = {oid: [p for p in table["seats"] if oid in table["players"][p]["scored"]]
                 for oid in table["publics"]}
    return {"cards": _cards(view), "scores": _scores(view),
            "publics": [{**_objective(pack, o), "scored_by": scored_by[o]}
                        for o in table["publics"]],
            "laws": [traits.law_line(pack, law, outcome)
                     for law, outcome in sorted(table["laws"].items())],
            "speaker": table["speaker"], "custodians_taken": bool(table["custodians_taken"]),
            "decks": {"public objectives left": table["public_deck"],
                      "secret objectives": table["secret_deck"],
                      "agendas": table["agenda_deck"]},
            "agendas": [{"id": a, "kind": pack["agendas"][a]["kind"],
                         "outcome": pack["agendas"][a]["outcome"]}
                        for a in view.get("agendas") or []]}


#: The common part of recent reports (pbem.game.shared): one resolution's readers share one.
_SHARED: SharedParts[dict[str, Any]] = SharedParts()


def _public_events(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if visible_to(e) is None and not e.get("to")]


def step_round(view: View, events: Sequence[Event]) -> int | None:
    """The round the step these events tell was played in, for the report's heading: the
    view's round, unless the step opened a new round's strategy phase (its status or agenda
    phase, or the deal, moved the round on), then the round before that one (0: the deal,
    before round 1)."""
    for e in events:
        if e.get("type") == "phase" and e.get("phase") == "strategy":
            return int(e["round"]) - 1
    now = view.get("round")
    return None if now is None else int(now)


def common(view: View, events: Sequence[Event]) -> dict[str, Any]:
    """What every reader of these events shares, made from the public part of ``view`` and
    the public events only, once for equal inputs."""
    public = public_view(view)
    seen = _public_events(events)

    def make() -> dict[str, Any]:
        text = galaxy_text.render(public)
        window = public.get("window") or None
        return {"events": sentences.told(seen), "rolls": sentences.rolls(seen),
                "map": text, "map_block": "\n".join(text),
                "table": _table(public), "round": public.get("round"),
                "step_round": step_round(public, seen),
                "phase": public.get("phase"), "window": window,
                "pending": public.get("pending"), "result": public.get("result"),
                "colours": colours(public), "names": names(public)}
    return _SHARED.get((public, seen), make)


def told_to(me: str, events: Sequence[Event]) -> list[str]:
    """The sentences of the events addressed to ``me`` (private ones only)."""
    return [sentences.sentence(e) for e in events
            if me in (visible_to(e) or e.get("to") or ())]


def mine(view: View, seq: int, events: Sequence[Event] = ()) -> dict[str, Any]:
    """The reader's own part: his planets, pools, goods, technologies, secret objectives,
    what was told to him alone, and his order form."""
    me = str(view["viewer"])
    pack = view["pack"]
    named = names(view)
    due = me in (view.get("due") or [])
    out: dict[str, Any] = {"power": me, "name": named.get(me, me),
                           "faction": factions(view).get(me, ""), "due": due,
                           "order_form": orderform.order_form(view, seq) if due else "",
                           "only_you": told_to(me, events),
                           "planets": [], "pools": {}, "secrets": [], "seat": None}
    table, board = view.get("table"), view.get("board")
    if not table or not board:
        return out
    seat = table["players"][me]
    exhausted = set(board.get("exhausted") or ())
    planets = [{"id": p, "resources": pack["planets"][p]["resources"],
                "influence": pack["planets"][p]["influence"], "exhausted": p in exhausted,
                "trait": pack["planets"][p].get("trait") or "",
                "specialty": pack["planets"][p].get("specialty") or ""}
               for p, o in sorted((board.get("owner") or {}).items()) if o == me]
    ready = [p for p in planets if not p["exhausted"]]
    out.update({
        "planets": planets,
        "ready_resources": sum(p["resources"] for p in ready),
        "ready_influence": sum(p["influence"] for p in ready),
        "pools": dict((board.get("pools") or {}).get(me) or {}),
        "tokens_on_board": sorted(s for s, h in (board.get("tokens") or {}).items() if me in h),
        "seat": {"vp": seat["vp"], "trade_goods": seat["trade_goods"],
                 "commodities": seat["commodities"],
                 "commodity_limit": traits.commodity_value_of(pack, factions(view)[me],
                                                              seat["techs"]),
                 "cards": list(seat["cards"]), "used": list(seat["used"]),
                 "techs": [traits.tech_line(pack, t) for t in seat["techs"]],
                 "traits": traits.trait_lines(pack, factions(view)[me])},
        "secrets": [_objective(pack, o) for o in (view.get("you") or {}).get("secrets") or []],
    })
    return out


class TI4Presenter(Presenter):
    """TI4's contexts for its templates."""

    map_kind = MAP_KIND

    def title(self, view: View) -> str:
        pack = view["pack"]
        n = len(seats(view))
        name = str(pack.get("pack", "")) + (" (stand-in components, not TI4)"
                                            if pack.get("standin") else "")
        return f"{n} players, {view['variant']}, {name}"

    def sentence(self, event: Event) -> str:
        return sentences.sentence(event)

    def welcome(self, view: View, readers: Sequence[str]) -> dict[str, Any]:
        return {**mine(view, 0), "shared": common(view, ())}

    def report(self, before: View, view: View, *, readers: Sequence[str], missed: int,
               seq: int) -> dict[str, Any]:
        return mine(view, seq)

    def shared(self, views: Sequence[View], events: Sequence[Event],
               readers: Sequence[str]) -> dict[str, Any]:
        made = common(views[0], events)
        yours = {str(v["viewer"]): told_to(str(v["viewer"]), events)
                 for v in views if v.get("viewer")}
        return {**made, "common": made, "yours": yours}

    def receipt_lines(self, orders: Mapping[str, Any], view: View) -> list[str]:
        return orderform.receipt_lines(orders, view)

    def gm(self, public: View, views: Mapping[str, View], events: Sequence[Event],
           secrets: Mapping[str, list[str]]) -> dict[str, Any]:
        made = common(public, events)
        held = {p: [_objective(public["pack"], o) for o in (v.get("you") or {}).get("secrets")
                    or []] for p, v in views.items()}
        return {**made, "common": made,
                "events": sentences.told(events, gm=True),
                "rolls": sentences.rolls(events), "held": held}

    def game_end(self, view: View, events: Sequence[Event], readers: Sequence[str],
                 reveal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        made = common(view, events)
        result = view.get("result") or {}
        return {**made, "common": made, "winners": [names(view).get(p, p)
                                                    for p in result.get("winners") or []],
                "reason": result.get("reason", "")}

    def map_context(self, view: View, readers: Sequence[str],
                    shared: Mapping[str, Any] | None) -> dict[str, Any]:
        return dict(galaxy_svg.drawing(public_view(view)))


PRESENTER = TI4Presenter()
