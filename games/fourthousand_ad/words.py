"""The words and colours every part of a 4000 A.D. report shares: power names and abbreviations,
the owner colours (Okabe-Ito, each power also labelled by text), plurals and lists, and the
``Voice`` that says "you" to the reader. Pure: no view is read here beyond a power's colour."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

View = Mapping[str, Any]

UPPER, LOWER = "▲", "▼"
CIRCLE, CROSS = "○", "+"
HOME_MARK = "*"
INVALID_DESTINATION = "an invalid destination"
"""What every mail and page says for an escrowed destination that was not a star of the board
(docs/rules.md R14): never the text the player sealed."""

# Owner colours for HTML and SVG: (strong, light tint). Mail clients need inline colours.
COLOURS: dict[str, tuple[str, str]] = {
    # Okabe & Ito's palette for colour-blind readers (https://jfly.uni-koeln.de/color/): the
    # variants' colour names stay, each drawn in the palette's nearest hue; every map and table
    # also labels powers by name or abbreviation, never by colour alone.
    "green": ("#009e73", "#d9f1ea"),  # bluish green
    "blue": ("#0072b2", "#d9eaf4"),
    "orange": ("#e69f00", "#fcf0d6"),
    "red": ("#d55e00", "#f9e4d6"),  # vermillion
    "purple": ("#cc79a7", "#f7ebf2"),  # reddish purple
    "yellow": ("#f0e442", "#fcfadc"),
}
NEUTRAL = ("#6b7280", "#ffffff")
LEVEL_TINT = {"yellow": "#fffbea", "red": "#fff1f0"}

def power_name(power: str) -> str:
    return power.capitalize()


def abbr(power: str | None) -> str:
    return power[:3].upper() if power else "-"


def colours(view: View, power: str | None) -> tuple[str, str]:
    if power is None or power not in view["powers"]:
        return NEUTRAL
    return COLOURS.get(view["powers"][power]["colour"], NEUTRAL)


def symbols(star: Mapping[str, Any]) -> str:
    return (CIRCLE if star["circle"] else "") + (CROSS if star["cross"] else "")


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def and_list(items: Sequence[str]) -> str:
    items = list(items)
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def short_hex(value: str | None, n: int = 8) -> str:
    return f"{value[:n]}…" if value else "none"


class Voice:
    """Phrases a power's name for the reader: "you"/"your" for the reader's own power (or "your
    Algol" when the reader commands two), the power's name otherwise."""

    def __init__(self, readers: Sequence[str]) -> None:
        self.readers = list(readers)

    def mine(self, power: str | None) -> bool:
        return power in self.readers

    def subj(self, power: str) -> str:
        if not self.mine(power):
            return power_name(power)
        return "you" if len(self.readers) == 1 else f"you ({power_name(power)})"

    def poss(self, power: str) -> str:
        if not self.mine(power):
            return f"{power_name(power)}'s"
        return "your" if len(self.readers) == 1 else f"your {power_name(power)}"

    def was(self, power: str) -> str:
        return "were" if self.mine(power) else "was"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]
