"""One problem collector for every game's order check: ``Checker``.

A game's ``normalize_orders`` reports every problem of a file at once, each a
``Problem(code, path, message)`` (pbem.errors). What every check needs is here once: collecting
problems under field paths (``move.else[1].ships``), unknown keys with "did you mean",
required keys, and type checks for mappings, lists, texts, true/false and whole numbers (read
with pbem.numbers's strict digit parser where a file may write a number as text). The game gives
the codes and the sentences, in its own words; a sentence is a string, or a function of the
value found (``lambda v: f"... not {show(v)}"``).

    c = Checker()
    c.unknown_keys(body, ("play",), "", code="unknown-order",
                   say=lambda key, hint: f"no order {show(key)} in High Card{hint}")
    count = c.whole(body.get("ships"), "ships", code="ships", low=1,
                    say=lambda v: f"a number of ships, not {show(v)}")
    return out, c.problems
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pbem import lazy
from pbem.errors import Problem, show_value
from pbem.numbers import digits

difflib = lazy.module("difflib")  # (a suggestion for a mistyped word only)

#: A problem's sentence: fixed, or made from the value found.
Say = str | Callable[[object], str]

__all__ = ["Checker", "Problem", "did_you_mean", "field", "item", "kind", "show",
           "unknown_keys", "word"]


def show(value: object) -> str:
    """A short, safe description of any value for a sentence (pbem.errors.show_value)."""
    return show_value(value)


def word(key: object) -> str:
    """A key as a field path shows it: a short string as written, anything else described."""
    return key if isinstance(key, str) and len(key) <= 40 else show(key)


def field(path: str, key: object) -> str:
    """The path of ``key`` under ``path``: ``move.ships``, or ``ships`` at the top."""
    return f"{path}.{word(key)}" if path else word(key)


def item(path: str, index: int | str) -> str:
    """The path of an entry of a list (or a numbered mapping): ``move[2]``."""
    return f"{path}[{index}]"


def kind(value: object) -> str:
    """What a value is, in words: ``a number``, ``a list``, ``the text "abc"``, ``nothing``."""
    if isinstance(value, bool):
        return "a true/false value"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a fractional number"
    if isinstance(value, str):
        return f'the text "{value[:40]}"' + ('…' if len(value) > 40 else '')
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__


def did_you_mean(key: object, choices: Iterable[str], *, cutoff: float = 0.6) -> str:
    """`` — did you mean "X"?`` for the closest choice to a misspelt key, or nothing."""
    close = difflib.get_close_matches(word(key), list(choices), n=1, cutoff=cutoff)
    return f' — did you mean "{close[0]}"?' if close else ""


def unknown_keys(body: Mapping[Any, Any], allowed: Iterable[str], path: str, *, code: str,
                 say: Callable[[object, str], str]) -> list[Problem]:
    """A problem for each key of ``body`` not in ``allowed`` (:meth:`Checker.unknown_keys`,
    for a check that returns its list of problems)."""
    known = allowed if isinstance(allowed, (tuple, frozenset)) else tuple(allowed)
    unknown = [key for key in body if key not in known]
    return [Problem(code, field(path, key), say(key, did_you_mean(key, known)))
            for key in unknown] if unknown else []


def _said(say: Say, value: object) -> str:
    return say if isinstance(say, str) else say(value)


class Checker:
    """Collects the problems of one order check, in the order found."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, code: str, path: str, message: str) -> None:
        """Add a problem."""
        self.problems.append(Problem(code, path, message))

    def mark(self) -> int:
        """A mark to ask :meth:`clean_since` whether a part added a problem."""
        return len(self.problems)

    def clean_since(self, mark: int) -> bool:
        return len(self.problems) == mark

    def unknown_keys(self, body: Mapping[Any, Any], allowed: Iterable[str], path: str, *,
                     code: str, say: Callable[[object, str], str]) -> bool:
        """A problem for each key of ``body`` not in ``allowed``, at its own path; ``say(key,
        hint)`` is the sentence, ``hint`` the "did you mean" (or ""). True if every key is
        known."""
        found = unknown_keys(body, allowed, path, code=code, say=say)
        if found:
            self.problems += found
        return not found

    def required(self, body: Mapping[Any, Any], keys: Iterable[str], path: str, *, code: str,
                 say: Callable[[str], str]) -> bool:
        """A problem for each of ``keys`` missing from ``body`` (``say(key)``). True if none
        is."""
        missing = [k for k in keys if k not in body]
        for key in missing:
            self.bad(code, field(path, key), say(key))
        return not missing

    def mapping(self, value: object, path: str, *, code: str,
                say: Say) -> Mapping[Any, Any] | None:
        """``value`` if it is a mapping, else a problem and None."""
        if isinstance(value, Mapping):
            return value
        self.bad(code, path, _said(say, value))
        return None

    def listing(self, value: object, path: str, *, code: str, say: Say,
                most: int | None = None) -> list[Any] | None:
        """``value`` if it is a list (of at most ``most`` entries), else a problem and None."""
        if isinstance(value, list) and (most is None or len(value) <= most):
            return value
        self.bad(code, path, _said(say, value))
        return None

    def text(self, value: object, path: str, *, code: str, say: Say) -> str | None:
        """``value`` if it is a string, else a problem and None."""
        if isinstance(value, str):
            return value
        self.bad(code, path, _said(say, value))
        return None

    def flag(self, value: object, path: str, *, code: str, say: Say) -> bool | None:
        """``value`` if it is true or false, else a problem and None."""
        if isinstance(value, bool):
            return value
        self.bad(code, path, _said(say, value))
        return None

    def whole(self, value: object, path: str, *, code: str, say: Say, low: int = 0,
              high: int | None = None, as_text: bool = False) -> int | None:
        """``value`` if it is a whole number in ``low..high`` (never true/false; with
        ``as_text`` also one written as ASCII digits, pbem.numbers.digits), else a problem and
        None."""
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif as_text and isinstance(value, str):
            number = digits(value)
        if number is not None and low <= number and (high is None or number <= high):
            return number
        self.bad(code, path, _said(say, value))
        return None
