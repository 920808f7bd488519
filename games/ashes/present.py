"""The Ashes of Empire's presenter: the context of every mail that shows the game.

Everything comes from ``view`` and the events the power may see, so a report cannot show what
the view does not hold. A report has: the events in sentences (every battle with its dice and
their chance labels, so a player can recheck them from the published chance block), the neutral
galaxy, each empire's colonies and ships (homeplanets as counts), the reader's hand with its
reach lines, the targets each of his planets reaches, and a pre-filled order form.

The turn report's templates and ``map.svg`` are written from these contexts without Jinja
while the templates are the ones they were written from (the presenter's ``writers``:
writers.py, the HTML in report_html.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game.base import Presenter
from pbem.game.events import visible_to
from pbem.game.shared import SharedParts
from pbem.protocol.orderfile import form_envelope

from . import cardtable
from . import writers as report_writers

MAP_KIND = "cards"
PREFIX = "planet:"


def name(power: str) -> str:
    return power.capitalize()


def bare(card: str) -> str:
    return card[len(PREFIX):] if card.startswith(PREFIX) else card


def ships(n: int) -> str:
    return f"{n} ship" + ("" if n == 1 else "s")


def dice(values: Sequence[int]) -> str:
    return f"{' '.join(map(str, values))} = {sum(values)}" if values else "none"


def sentence(e: Mapping[str, Any], gm: bool = False) -> str:
    """One event in words. A private event is marked "(only you)" for its player, and for the
    game master (``gm``) with the powers it went to."""
    kind = e["type"]
    who = name(str(e.get("power", "")))
    p = bare(str(e.get("planet", "")))
    who_saw = visible_to(e)
    mine = "" if who_saw is None else (
        f" [private to {', '.join(map(name, who_saw))}]" if gm else " (only you)")
    texts = {
        "dealt": lambda: f"You were dealt {', '.join(map(bare, e['planets']))}.",
        "explored": lambda: f"{p} was explored: a new neutral planet ({e['deck']} cards left).",
        "first_player": lambda: f"{who} plays first (public draw {e['label']}"
                                + (", practice chance" if e.get("chance") else "") + ").",
        "reinforcement": lambda: f"{who} received {e['received']} new ship(s)"
                                 + (f" ({e['stock_short']} more could not be placed: no room "
                                    "left on any planet)" if e["stock_short"] else "")
                                 + (": " + ", ".join(f"{bare(c)} +{n}" for c, n in
                                                      e["colonies"].items())
                                    if e["colonies"] else "")
                                 + (f"; {e['home']} to homeplanets" if e["home"] else "") + ".",
        "reinforcement_split": lambda: "Your reinforcements at home: " + (", ".join(
            f"{bare(c)} +{n}" for c, n in e["home"].items()) or "none") + (
            f"; did not fit: {', '.join(map(bare, e['unfit']))}" if e["unfit"] else "") + ".",
        "move_void": lambda: "Your movement no longer fitted: " + "; ".join(e["problems"]),
        "no_movement": lambda: f"{who} made no movement.",
        "exchange": lambda: f"{who} exchanged a homeplanet.",
        "exchanged": lambda: f"You put {p} under the black hole.",
        "draw": lambda: f"You drew {p} as a homeplanet ({e['ships']} ship(s) on it"
                        + (f", {e['eliminated']} eliminated" if e["eliminated"] else "") + ").",
        "drew": lambda: f"{who} drew a new homeplanet ({e['deck']} cards left).",
        "colonised": lambda: f"{who} made {p} a colony with {e['ships']} ship(s).",
        "reorganised": lambda: f"{who} reorganised: colonies " + (", ".join(
            f"{bare(c)} {n}" for c, n in e["colonies"].items()) or "none")
            + f"; {e['home']} ship(s) at home.",
        "reorganised_split": lambda: "Your homeplanets now hold " + (", ".join(
            f"{bare(c)} {n}" for c, n in e["home"].items()) or "nothing") + ".",
        "conquest": lambda: f"{who} attacks {p}"
                            + (f" ({name(e['defender'])}'s colony)" if e["defender"] else
                               " (neutral)") + f" with {e['ships']} ship(s) from "
                            + (f"the homeplanets, showing {bare(e['proof'])}"
                               if "proof" in e else bare(e["from"])) + ".",
        "proof": lambda: f"{who} showed {p}; it went under the black hole.",
        "revolution": lambda: f"Revolution on {p} ({who}'s "
                              + ("homeplanet" if e.get("homeplanet") else "colony")
                              + " had no ship left): it went under the black hole.",
        "battle": lambda: (f"Battle for {p}: {who} rolled {dice(e['attacker_dice'])} "
                           f"[{e['attacker_label']}], {name(e['defender'])} rolled "
                           f"{dice(e['defender_dice'])} [{e['defender_label']}]. "
                           + (f"{who} wins ({e['attacker_total']} against "
                              f"{e['defender_total']})" if e["winner"] == e.get("power")
                              else f"{name(e['defender'])} holds ({e['defender_total']} "
                              f"against {e['attacker_total']}, the defender winning ties)")
                           + f"; each side loses one ship per 6 the other rolled: {who} "
                           f"{e['defender_hits']}, {name(e['defender'])} {e['attacker_hits']}. "
                           f"{who} has {ships(e['attacker_left'])} left"
                           + (f"; {name(e['defender'])} keeps {ships(e['defender_left'])} "
                              f"stationed on {p}" if e["defender_left"] else
                              f"; no {name(e['defender'])} ship is left on {p}")
                           + (" (practice chance)" if e.get("chance") else "") + "."),
        "conquered": lambda: f"{who} holds {p} with {e['ships']} ship(s)"
                             + (f" ({e['eliminated']} over the stacking limit eliminated)"
                                if e["eliminated"] else "") + ".",
        "neutral_retreat": lambda: f"{e['ships']} neutral ship(s) fell back to {p}"
                                   + (f", {e['eliminated']} eliminated" if e["eliminated"]
                                      else "") + ".",
        "retreat": lambda: f"{who}'s {e['ships']} ship(s) went home"
                           + (f", {e['eliminated']} eliminated" if e["eliminated"] else "")
                           + ".",
        "retreat_split": lambda: "Ships home: " + (", ".join(
            f"{bare(c)} +{n}" for c, n in e["home"].items()) or "none") + ".",
        "victory": lambda: "The game is over: " + ", ".join(map(name, e["winners"]))
                           + (" won" if len(e["winners"]) == 1 else " won together")
                           + (f" with the cluster {', '.join(map(bare, e['cluster']))}"
                              if "cluster" in e else f" ({e['reason']}: population "
                              + ", ".join(f"{name(q)} {n}" for q, n in
                                          e.get("population", {}).items()) + ")") + ".",
        "reveal": lambda: "Hands revealed: " + "; ".join(
            f"{name(q)} {', '.join(map(bare, cards))}" for q, cards in e["hands"].items())
            + ".",
        "concession": lambda: f"{who} conceded.",
        "chance": lambda: f"Public draws of step {e.get('step')}: " + "; ".join(
            f"{' '.join(str(d.get('label', '')).replace(':', ' ').split())} "
            f"{'rolled' if d.get('kind') == 'roll' else 'drew'} {d.get('result')}"
            for d in e.get("draws") or []) + ".",
    }
    text = texts.get(kind)
    out = text() if text else f"{kind}."
    if gm and who_saw and len(who_saw) == 1:
        out = third_person(out, name(who_saw[0]))  # the game master reads whose it was
    return out + mine


def third_person(text: str, power: str) -> str:
    """A private sentence written to its player ("You were dealt ...", "Your homeplanets ...")
    as the game master reads it ("Red was dealt ...", "Red's homeplanets ...")."""
    for mine, theirs in (("You were ", f"{power} was "), ("Your ", f"{power}'s "),
                         ("You ", f"{power} ")):
        if text.startswith(mine):
            return theirs + text[len(mine):]
    return text


def _numbers(view: Mapping[str, Any]) -> dict[int, str]:
    """The catalogue's cards by number (a card's reach lines name numbers)."""
    return {int(c["number"]): k for k, c in view["cards"].items()}


def _card(view: Mapping[str, Any], code: str,
          by_number: Mapping[int, str] | None = None) -> dict[str, Any]:
    card = view["cards"][code]
    numbers = _numbers(view) if by_number is None else by_number
    return {"code": code, "number": card["number"], "population": card["population"],
            "limit": 2 * int(card["population"]),
            "reach": [numbers[n] for n in card["reach"]["D"] if n in numbers]}


def galaxy(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    numbers = _numbers(view)
    return [{**_card(view, bare(c), numbers), "ships": n} for c, n in view["galaxy"].items()]


def empires(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = []
    numbers = _numbers(view)
    for p, info in view["powers"].items():
        rows.append({
            "name": name(p), "power": p, "conceded": info["conceded"],
            "colonies": [{**_card(view, bare(c), numbers), "ships": n}
                         for c, n in info["colonies"].items()],
            "homeplanets": info["homeplanets"], "home_ships": info["home_ships"],
            "ships": info["ships_in_play"], "colony_population": info["colony_population"]})
    return rows


def targets(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """For each of the reader's planets: the planets it may attack (line D)."""
    me = view["viewer"]
    enemy = {bare(c): p for p, info in view["powers"].items() if p != me
             for c in info["colonies"]}
    open_ = set(map(bare, view["galaxy"])) | set(enemy)
    own = [bare(c) for c in view["powers"][me]["colonies"]] + [bare(c) for c in
                                                                view["you"]["hand"]]
    out = []
    numbers = _numbers(view)
    for code in own:
        reach = [t for t in _card(view, code, numbers)["reach"] if t in open_]
        out.append({"from": code, "targets": [
            f"{t} ({name(enemy[t])})" if t in enemy else t for t in reach]})
    return out


def order_form(view: Mapping[str, Any], seq: int) -> str:
    you = view["you"]
    hand = ", ".join(bare(c) for c in you["hand"])
    return "\n".join([
        *form_envelope(view, seq), "orders:",
        f"  place: {{}}   # {you['reinforcements']} reinforcement(s): planet: ships (rest by room)",
        "  move: null    # one of: {exchange: CARD} | {colonise: CARD, ships: {CARD: N}}",
        "                #  | {conquer: TARGET, from: CARD, ships: N} | {reorganise: {CARD: N}}",
        f"  # your homeplanets: {hand}"])


def _power(view: Mapping[str, Any], seq: int) -> dict[str, Any]:
    me = view["viewer"]
    due = view["window"] is not None and me in view["window"]["due"]
    you = view["you"]
    numbers = _numbers(view)
    return {
        "power": me, "name": name(me), "turn": view["turn"], "due": due,
        "hand": [{**_card(view, bare(c), numbers), "ships": n} for c, n in you["hand"].items()],
        "reinforcements": you["reinforcements"], "stock": you["stock"],
        "population": you["population"],
        "retreat": [bare(c) for c in you["retreat"]],
        "targets": targets(view) if view["phase"] == "play" else [],
        "order_form": order_form(view, seq) if due and view["phase"] == "play" else "",
        "setup": view["phase"] == "setup",
    }


def public_part(view: Mapping[str, Any]) -> dict[str, Any]:
    """The public view within a power's view: the view without its reader (``viewer`` None,
    no ``you``), which is ``view(state, None)`` (games/ashes/view.py: nothing else in a view
    depends on its power)."""
    return {**{k: v for k, v in view.items() if k != "you"}, "viewer": None}


#: The parts of recent reports every reader of one resolution shares (pbem.game.shared): the
#: galaxy and empires tables, made from the public view (and for the game master's summary
#: from the same), and the events in words, made from the events a reader may see; each made
#: once for equal inputs, not once per reader. The card table shows the reader's own hand, so
#: it is drawn for each reader.
_TABLES: SharedParts[dict[str, Any]] = SharedParts()
_SENTENCES: SharedParts[list[str]] = SharedParts()


def _tables(public: Mapping[str, Any]) -> dict[str, Any]:
    """The galaxy and empires rows of the public view ``public``, made once for equal views."""
    return _TABLES.get(public, lambda: {"galaxy": galaxy(public), "empires": empires(public)})


class AshesPresenter(Presenter):
    """Ashes' contexts for its templates; the reveal (nothing is sealed: hands are revealed by
    the last resolution itself) is pbem.game.base.Presenter's."""

    map_kind = MAP_KIND
    # The turn report and map.svg written without Jinja while the templates are the ones they
    # were written from (pbem.render.plain; games/ashes/writers.py)
    writers = report_writers.WRITERS

    @staticmethod
    def title(view: Mapping[str, Any]) -> str:
        mode = "one turn at a time" if view["mode"] == "sequential" else "rounds"
        deck = view["deck"]["name"] + (" (stand-in deck)" if view["deck"]["standin"] else "")
        return f"The Ashes of Empire, {len(view['seats'])} players, {mode}, {deck}"

    @staticmethod
    def welcome(view: Mapping[str, Any], readers: Sequence[str]) -> dict[str, Any]:
        return _power(view, 0)

    @staticmethod
    def report(before: Mapping[str, Any], view: Mapping[str, Any], *, readers: Sequence[str],
               missed: int, seq: int) -> dict[str, Any]:
        return _power(view, seq)

    @staticmethod
    def shared(views: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]],
               readers: Sequence[str]) -> dict[str, Any]:
        view = views[0]
        events = list(events)
        # The step's draws are listed in words under FAIR CHANCE (templates/common/_turn_notes.txt).
        return {"events": _SENTENCES.get(events, lambda: [
                    sentence(e) for e in events if e.get("type") != "chance"]),
                **_tables(public_part(view)),
                # the reader's own hand is on the card table: drawn for each reader
                "table": cardtable.svg(view, events),
                "deck_count": view["deck"]["count"],
                "window": view["window"], "result": view["result"],
                "battles": [e for e in events if e["type"] == "battle"]}

    @staticmethod
    def receipt_lines(orders: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
        lines = []
        place = orders.get("place")
        lines.append("Reinforcements: " + (", ".join(f"{n} on {c}" for c, n in place.items())
                                           + ", the rest by room" if place else "by room."))
        moves = [orders.get("move"), *orders.get("else", [])]
        for i, move in enumerate(m for m in moves if m):
            lines.append(("Movement: " if i == 0 else "Else: ") + describe(move))
        if not orders.get("move"):
            lines.append("Movement: none.")
        if orders.get("retreat"):
            lines.append("Ships sent home go first to " + ", ".join(orders["retreat"]) + ".")
        return lines

    @staticmethod
    def gm(public: Mapping[str, Any], views: Mapping[str, Mapping[str, Any]],
           events: Sequence[Mapping[str, Any]], secrets: Mapping[str, list[str]]
           ) -> dict[str, Any]:
        return {"events": [sentence(e, gm=True) for e in events],
                "hands": {name(p): ", ".join(f"{bare(c)} ({n})" for c, n in
                                             v["you"]["hand"].items())
                          for p, v in views.items()},
                **_tables(public), "deck_count": public["deck"]["count"]}

    @staticmethod
    def game_end(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                 readers: Sequence[str], reveal: Sequence[Mapping[str, Any]]
                 ) -> dict[str, Any]:
        result = view["result"]
        return {"events": [sentence(e) for e in events], "empires": empires(view),
                "winners": [name(p) for p in result["winners"]], "reason": result["reason"],
                "hands": {name(p): [bare(c) for c in hand]
                          for p, hand in view.get("revealed", {}).items()},
                "population": {name(p): n for p, n in view.get("population", {}).items()},
                "cluster": result.get("cluster", []), "reveal": list(reveal)}

    @staticmethod
    def map_context(view: Mapping[str, Any], readers: Sequence[str],
                    shared: Mapping[str, Any] | None) -> dict[str, Any]:
        """The card table (cardtable.svg): the report's, already drawn in ``shared``."""
        if shared is not None and "table" in shared:
            return {"svg": shared["table"]}
        return {"svg": cardtable.svg(view)}


def describe(move: Mapping[str, Any]) -> str:
    if "exchange" in move:
        return f"exchange {move['exchange']}."
    if "colonise" in move:
        extra = ", ".join(f"{n} from {c}" for c, n in move["ships"].items())
        return f"make {move['colonise']} a colony" + (f" with {extra}" if extra else "") + "."
    if "conquer" in move:
        ships = ", ".join(f"{n} from {c}" for c, n in move["ships"].items())
        return (f"attack {move['conquer']} (reached from {move['from']}) with {ships}"
                + (f"; neutral survivors to {move['survivors_to']}"
                   if move.get("survivors_to") else "") + ".")
    return "reorganise: " + ", ".join(f"{c} {n}" for c, n in move["reorganise"].items()) + "."


PRESENTER = AshesPresenter()
