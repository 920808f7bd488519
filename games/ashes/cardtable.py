"""The Ashes of Empire's picture: the card table as one SVG, drawn from a view and the step's
events (the report's inline picture, the attached ``map.svg`` and the archive's map).

The table shows what the view holds and nothing else: the neutral galaxy (each planet's card
with its number, population and neutral ships), each empire's colonies in the empire's colour
with their ships, each empire's homeplanets as a count (the cards themselves only for the
reader's own hand, or for every hand once the game is over and the view reveals them), and the
deck's size. A card the step touched (attacked, taken, colonised, newly explored) is outlined in
the acting power's colour and labelled in words, so the picture says what happened.

Legible on a phone: the drawing is 540 units wide and every text is at least 16 units, so on a
420 px screen (a column of about 390 px) every text is 11.5 px or more; texts stay inside their
cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from pbem.game.partials import READERS_CSS

PREFIX = "planet:"
WIDTH = 540
MARGIN = 8
CARD_W, CARD_H, GAP = 84, 66, 8
COLUMNS = (WIDTH - 2 * MARGIN + GAP) // (CARD_W + GAP)
NEUTRAL = ("#475569", "#f8fafc")
COLOURS = {  # by the power's name: red is drawn red, whatever its seat
    "red": ("#b91c1c", "#fee2e2"), "blue": ("#1d4ed8", "#dbeafe"),
    "green": ("#047857", "#d1fae5"), "yellow": ("#a16207", "#fef9c3"),
    "white": ("#6b7280", "#ffffff"), "black": ("#111827", "#e5e7eb"),
}
OTHER = (("#7c3aed", "#ede9fe"), ("#0e7490", "#cffafe"), ("#b45309", "#fef3c7"))
MARKS = {"conquest": "battle", "conquered": "taken", "colonised": "colonised",
         "explored": "new"}


def colour(power: str, seats: Sequence[str] = ()) -> tuple[str, str]:
    """(strong, light) for a power: by its name where it names a colour, else by seat."""
    if power in COLOURS:
        return COLOURS[power]
    i = list(seats).index(power) if power in seats else 0
    return OTHER[i % len(OTHER)]


def bare(card: str) -> str:
    return card[len(PREFIX):] if card.startswith(PREFIX) else card


def marks(events: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """Card -> (acting power, word) for the cards this step's events touched (the last word
    wins: a planet attacked then taken says "taken")."""
    out: dict[str, tuple[str, str]] = {}
    for e in events:
        word = MARKS.get(str(e.get("type")))
        planet = e.get("planet")
        if word and isinstance(planet, str):
            out[bare(planet)] = (str(e.get("power", "")), word)
    return out


def _cls(kind: str, power: str | None) -> str:
    """The class by which a mail's readers' rule marks a power's pieces (bold), or none."""
    return f' class="{kind} p-{escape(power)}"' if power else ""


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = 0

    def text(self, x: float, y: float, words: str, size: int = 16, weight: str = "normal",
             fill: str = "#1f2933", anchor: str = "start", cls: str = "") -> None:
        self.parts.append(f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
                          f'fill="{fill}" text-anchor="{anchor}"{cls}>{escape(words)}</text>')

    def heading(self, words: str, swatch: str | None = None, power: str | None = None) -> None:
        self.y += 26
        x = MARGIN
        if swatch:
            self.parts.append(f'<rect x="{x}" y="{self.y - 13}" width="14" height="14" '
                              f'fill="{swatch}"{_cls("dot", power)}/>')
            x += 20
        self.text(x, self.y, words, 17, "bold", cls=_cls("name", power))
        self.y += 8

    def cards(self, cards: Sequence[Mapping[str, Any]], ink: tuple[str, str],
              touched: Mapping[str, tuple[str, str]], seats: Sequence[str],
              power: str | None = None) -> None:
        for i, card in enumerate(cards):
            col, row = i % COLUMNS, i // COLUMNS
            x = MARGIN + col * (CARD_W + GAP)
            y = self.y + row * (CARD_H + GAP)
            code = str(card["code"])
            mark = touched.get(code)
            stroke, dash, width = ink[0], "", 1.5
            if mark:
                stroke, dash, width = colour(mark[0], seats)[0], ' stroke-dasharray="6 3"', 4
            what = (f"{code}: planet {card.get('number', '?')}, population "
                    f"{card.get('population', '?')}, {card.get('ships', 0)} ship(s)"
                    + (f"; {mark[1]} this step" + (f" by {mark[0]}" if mark[0] else "")
                       if mark else ""))
            self.parts.append(
                f'<g><title>{escape(what)}</title><rect x="{x}" y="{y}" width="{CARD_W}" '
                f'height="{CARD_H}" rx="6" fill="{ink[1]}" stroke="{stroke}" '
                f'stroke-width="{width}"{dash}{_cls("dot", None if mark else power)}/>')
            self.text(x + 8, y + 21, code, 18, "bold", ink[0])
            if card.get("population") is not None:
                self.text(x + CARD_W - 8, y + 21, f"p{card['population']}", 16,
                          anchor="end")
            self.text(x + 8, y + 42, f"{card.get('ships', 0)} ship"
                      + ("" if card.get("ships") == 1 else "s"), 16)
            if mark:
                self.text(x + 8, y + 60, mark[1], 16, "bold", stroke)
            self.parts.append("</g>")
        rows = (len(cards) + COLUMNS - 1) // COLUMNS
        self.y += rows * (CARD_H + GAP) if cards else 0
        if not cards:
            self.y += 18
            self.text(MARGIN, self.y, "none", 16, fill="#6b7280")
            self.y += 6


def _card(view: Mapping[str, Any], code: str, ships: int) -> dict[str, Any]:
    info = (view.get("cards") or {}).get(bare(code)) or {}
    return {"code": bare(code), "number": info.get("number"),
            "population": info.get("population"), "ships": int(ships)}


def svg(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]] = (),
        title: str | None = None) -> str:
    """The card table of ``view`` after a step whose visible events are ``events``."""
    seats = list(view.get("seats") or [])
    touched = marks(events)
    c = _Canvas()
    heading = title or ("The table at the end of the game" if view.get("result")
                        else f"The table before turn {view.get('turn')}")
    c.y = 22
    c.text(MARGIN, c.y, heading, 18, "bold")
    galaxy = [_card(view, code, n) for code, n in (view.get("galaxy") or {}).items()]
    deck = (view.get("deck") or {}).get("count")
    c.heading(f"Neutral galaxy: {len(galaxy)} planet(s); {deck} card(s) in the black hole")
    c.cards(galaxy, NEUTRAL, touched, seats)
    revealed = view.get("revealed") or {}
    viewer = view.get("viewer")
    for p in seats:
        info = (view.get("powers") or {}).get(p) or {}
        ink = colour(p, seats)
        colonies = [_card(view, code, n) for code, n in (info.get("colonies") or {}).items()]
        state = " (conceded)" if info.get("conceded") else ""
        c.heading(f"{p.capitalize()}{state}: {len(colonies)} colonies, "
                  f"{info.get('homeplanets', 0)} homeplanets, {info.get('ships_in_play', 0)} "
                  "ships in play", ink[0], p)
        c.cards(colonies, ink, touched, seats, p)
        hand = revealed.get(p)
        if hand is None and p == viewer:
            hand = (view.get("you") or {}).get("hand")
        if hand is not None:
            who = "Your homeplanets (only you see them)" if hand is not revealed.get(p) \
                else f"{p.capitalize()}'s homeplanets, revealed"
            c.y += 18
            c.text(MARGIN, c.y, who, 16, "bold", ink[0])
            c.y += 6
            c.cards([_card(view, code, n) for code, n in hand.items()], ink, touched, seats)
        else:
            c.y += 18
            c.text(MARGIN, c.y, f"Homeplanets: {info.get('homeplanets', 0)} card(s) in hand, "
                   f"{info.get('home_ships', 0)} ship(s) on them", 16)
            c.y += 4
    c.y += 14
    c.text(MARGIN, c.y, "Dashed outline: a card this step touched (its word says how).", 16,
           fill="#4b5563")
    height = c.y + 12
    powers = view.get("powers") or {}
    label = (f"{heading}: {len(galaxy)} neutral planets, {deck} cards in the black hole, "
             + ", ".join(f"{p} {len((powers.get(p) or {}).get('colonies') or {})} colonies"
                         for p in seats))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="map fit" width="{WIDTH}" '
            f'height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" '
            f'aria-label="{escape(label)}" font-family="Helvetica, Arial, sans-serif" '
            f'style="max-width:100%;height:auto"><title>{escape(label)}</title>'
            f"<style>{READERS_CSS}</style>"
            f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>'
            + "".join(c.parts) + "</svg>")
