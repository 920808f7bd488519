"""The plain block YAML that order files are written in, read line by line: the very data
:func:`pbem.protocol.safeyaml.scan` gives for it, or None where the text uses anything more
(then ``scan`` reads it from libyaml's event stream, as it reads every other text).

An order file as ``yaml.safe_dump`` and the order forms write it is a block mapping of names to
single-line values, nested mappings and ``- `` sequences, with comment lines and comments
after values. Read through libyaml's events, each node costs a Python event object and a call
(≈ 38 µs per 4000 A.D. order file, 17 of them in the events alone); read here, one regular
expression per line (≈ 8 µs). ``scan`` is half the per-line work of an audit beside the
signatures (docs/audit.md, "Speed").

What this reader accepts, and everything else it hands back (None): printable ASCII only
(no tab, no carriage return, no control character); every line blank, a comment (``#`` after
optional spaces) or ``INDENT [- ]KEY:[ VALUE]`` or ``INDENT - VALUE``, with at most a comment
after the value (spaces then ``#``); a KEY is a name (``[A-Za-z_][A-Za-z0-9_]*``), a whole
number without a leading zero, or a single-quoted string, at most 64 characters; a VALUE is a
plain scalar of the characters ``A-Z a-z 0-9 _ . , + / = -`` and, within a word, ``@`` (a
game's config.yaml holds mail addresses), single spaces between words, not starting with ``-``
unless a digit follows, or a quoted string without escapes (no ``''`` in a
single-quoted one, no backslash in a double-quoted one), or ``[]`` or ``{}``. A key without a
value is null unless the next line is deeper (a mapping, or a sequence) or a ``- `` at the
key's own indent (a sequence, as ``safe_dump`` writes it). Plain values and keys are typed by
:func:`resolve_plain`, the one resolver of both readers. A key that is not a name or a whole number
(``true:``, ``null:``), a key twice, a line indented where no node opens, nesting deeper than
``DEEPEST``, a document that is not a mapping: None, so ``scan`` names the problem in its own
words. ``tests/engine/protocol/test_blockyaml.py`` compares the two readers on the order files
of every game and on random and mutated texts.
"""

from __future__ import annotations

import re
from typing import Any

DEEPEST = 16  # open mappings and sequences at most (below safeyaml.MAX_DEPTH: deeper to scan)
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[-+]?[0-9]+\.[0-9]+")
_NULL = frozenset({"", "null", "~"})
_BOOL = {"true": True, "false": False}


def resolve_plain(value: str) -> Any:
    """The value of an unquoted scalar under the strict rules (pbem.protocol.safeyaml): the one
    resolver of both readers."""
    if value[:1].isalpha() and value not in _BOOL and value != "null":
        return value  # the common case: a name
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT.fullmatch(value):
        try:
            return int(value)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            return value
    if _FLOAT.fullmatch(value):
        return float(value)
    return value

_WORD = r"[A-Za-z0-9_.,+/=-][A-Za-z0-9_.,+/=@-]*"  # "@" within: a mail address
_PLAIN = rf"(?:[A-Za-z0-9_]|-[0-9])[A-Za-z0-9_.,+/=@-]*(?: {_WORD})*"
_SINGLE = r"'[ -&(-~]*'"  # printable ASCII but the quote: no '' escapes
_DOUBLE = r'"[ !#-\[\]-~]*"'  # printable ASCII but the quote and the backslash
_VALUE = rf"{_PLAIN}|{_SINGLE}|{_DOUBLE}|\[\]|\{{\}}"
_KEY = r"([A-Za-z_][A-Za-z0-9_]{0,63})|(0|[1-9][0-9]{0,17})|'([ -&(-~]{0,62})'"
_COMMENT = r"(?: +#[ -~]*)?"
_LINE = re.compile(
    rf"( *)(- )?(?:(?:{_KEY}):(?: ({_VALUE}))?|({_VALUE})){_COMMENT}")
_SKIP = re.compile(r" *(?:#[ -~]*)?")  # a blank or comment line

_EMPTY: dict[str, Any] = {"[]": list, "{}": dict}
_WORDS = frozenset({"true", "false", "null"})  # names that are no string: scan's bad keys


def _value(text: str) -> Any:
    first = text[0]
    if first == "'" or first == '"':
        return text[1:-1]
    if first == "[" or first == "{":
        return _EMPTY[text]()
    return resolve_plain(text)


def _key(name: str | None, number: str | None, quoted: str | None) -> str | int | None:
    """A mapping key as ``scan`` takes it (None: one it refuses, a bool or null)."""
    if name is not None:
        return None if name in _WORDS else name
    if number is not None:
        return int(number)
    return quoted


class _Frame:
    """An open mapping or sequence: its indent, the value, and for a mapping the keys it
    holds as text (``1`` and ``'1'`` are the same key, as in ``scan``)."""

    __slots__ = ("indent", "value", "seen")

    def __init__(self, indent: int, value: dict[Any, Any] | list[Any]) -> None:
        self.indent = indent
        self.value: Any = value  # a dict where seen is a set, else a list
        self.seen: set[str] | None = set() if type(value) is dict else None


def read(text: str) -> dict[Any, Any] | None:
    """The mapping ``text`` holds, exactly as ``scan`` reads it without a problem; None where
    the text is not of the plain form above (``scan`` decides it then)."""
    if not text.isascii():
        return None
    root = _Frame(0, {})
    stack = [root]
    top = root
    pending: Any = None  # the key of top waiting for its value (None: none waits)
    started = False
    match, skip = _LINE.fullmatch, _SKIP.fullmatch
    for line in text.split("\n"):
        m = match(line)
        if m is None:
            if skip(line):
                continue
            return None
        spaces, dash, name, number, quoted, keyed, item = m.groups()
        indent = len(spaces)
        is_key = item is None
        if not started:
            if indent or dash is not None or not is_key:
                return None  # the document is a mapping at the left margin
            started = True
        elif pending is not None:
            key, pending = pending, None
            at = top.indent
            if dash is not None and indent >= at:  # a sequence: deeper, or at the key's indent
                child: _Frame | None = _Frame(indent, [])
            elif dash is None and is_key and indent > at:
                child = _Frame(indent, {})
            else:
                child = None
            if child is None:
                top.value[key] = None
            elif len(stack) >= DEEPEST:
                return None
            else:
                top.value[key] = child.value
                stack.append(child)
                top = child
        while indent < top.indent or (indent == top.indent and dash is None
                                      and top.seen is None):
            stack.pop()
            if not stack:
                return None
            top = stack[-1]
        if indent != top.indent:
            return None  # deeper where no node opens: a continuation line, or an error
        if top.seen is None:  # a sequence
            if dash is None:
                return None
            if not is_key:
                top.value.append(_value(item))
                continue
            if len(stack) >= DEEPEST:
                return None
            top = _Frame(indent + 2, {})  # "- key: ..." opens a mapping two columns in
            stack[-1].value.append(top.value)
            stack.append(top)
        elif dash is not None or not is_key:
            return None
        key = _key(name, number, quoted)
        if key is None:
            return None  # true:, false:, null: (scan: a bad key)
        shown = key if type(key) is str else str(key)
        seen = top.seen
        assert seen is not None
        if shown in seen:
            return None  # scan names the duplicate
        seen.add(shown)
        if keyed is None:
            pending = key
        else:
            top.value[key] = _value(keyed)
    if not started:
        return None
    if pending is not None:
        top.value[pending] = None
    assert type(root.value) is dict
    return root.value
