"""High Card's presenter (pbem.game.presentation.Presenter): no map, a hand, a table of scores.
Everything comes from views and visible events, so it cannot show what a view does not hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game.base import Presenter
from pbem.game.events import is_private, visible_to


def name(power: str) -> str:
    return power.capitalize()


def gm_line(e: Mapping[str, Any]) -> str:
    """An event as the game master reads it: a private one names whose it was."""
    if not is_private(e):
        return sentence(e)
    who = ", ".join(map(name, visible_to(e) or []))
    text = sentence(e).replace("Your hand now", f"{who}'s hand now", 1)
    return f"{text} [private to {who}]"


def sentence(e: Mapping[str, Any]) -> str:
    kind = e["type"]
    if kind == "played":
        return f"{name(e['power'])} played {e['card']}."
    if kind == "round_won":
        return f"{name(e['power'])} took round {e['turn']}."
    if kind == "round_tied":
        return f"Round {e['turn']} was tied by {', '.join(map(name, e['powers']))}."
    if kind == "hand":
        return f"Your hand now: {', '.join(e['cards']) or 'empty'}."
    if kind == "committed":
        return "Every player committed his chance: the kitty is dealt in the first round."
    if kind == "dealt":
        return "The kitty was dealt face down from a shuffled deck."
    if kind == "bonus":
        return f"The bonus die showed {e['die']}" + (": the round counts double." if
                                                     e["die"] == 6 else ".")
    if kind == "chance":
        return f"Chance of step {e['step']}: " + "; ".join(
            f"{d['label']} = {d['result']}" for d in e["draws"]) + "."
    if kind == "concession":
        return f"{name(e['power'])} conceded."
    if kind == "game_over":
        return (f"The game is over ({e['reason']}); the kitty was {e['kitty']}. Winner: "
                f"{', '.join(map(name, e['winners'])) or 'nobody'}.")
    return f"{kind}."


def scores(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"name": name(p), "score": info["score"], "cards_left": info["cards_left"]}
            for p, info in view["powers"].items()]


def orders_form(view: Mapping[str, Any]) -> list[str]:
    """The orders of the pre-filled form (after the envelope pbem writes)."""
    if view.get("phase") == "setup":
        return ["orders: {}"]
    return ["orders:", f"  play: {min(view['hand'], key=_rank)}"
            f"   # one of: {', '.join(view['hand'])}"]


def _rank(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def _power(view: Mapping[str, Any], seq: int) -> dict[str, Any]:
    due = view["viewer"] in view["due"]
    return {"hand": view["hand"], "due": due,
            "order_form": PRESENTER.order_form(view, seq) if due and view["hand"] else ""}


class HandPresenter(Presenter):
    """High Card's contexts for its own templates; the envelope of the order form, the reveal
    (nothing sealed) and the map (none) are pbem.game.base.Presenter's."""

    orders_form = staticmethod(orders_form)
    sentence = staticmethod(sentence)
    gm_line = staticmethod(gm_line)

    def title(self, view: Mapping[str, Any]) -> str:
        return f"High Card, {view['variant']}"

    def welcome(self, view: Mapping[str, Any], readers: Sequence[str]) -> dict[str, Any]:
        return _power(view, 0)

    def report(self, before: Mapping[str, Any], view: Mapping[str, Any], *,
               readers: Sequence[str], missed: int, seq: int) -> dict[str, Any]:
        return _power(view, seq)

    def shared(self, views: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]],
               readers: Sequence[str]) -> dict[str, Any]:
        return {"events": [sentence(e) for e in events], "powers": scores(views[0]),
                "result": views[0]["result"]}

    def receipt_lines(self, orders: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
        card = orders.get("play")
        if card:
            return [f"Play {card}."]
        return [f"Play your {orders.get('policy') or 'lowest'} card."]

    def gm(self, public: Mapping[str, Any], views: Mapping[str, Mapping[str, Any]],
           events: Sequence[Mapping[str, Any]], secrets: Mapping[str, list[str]]
           ) -> dict[str, Any]:
        return {"events": [gm_line(e) for e in events],
                "hands": {name(p): ", ".join(v.get("hand", [])) for p, v in views.items()},
                "powers": scores(public)}

    def game_end(self, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                 readers: Sequence[str], reveal: Sequence[Mapping[str, Any]]
                 ) -> dict[str, Any]:
        result = view["result"]
        return {"events": [sentence(e) for e in events], "powers": scores(view),
                "winners": [name(p) for p in result["winners"]], "reason": result["reason"],
                "kitty": view["kitty"]}


PRESENTER = HandPresenter()
