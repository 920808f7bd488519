"""A part of a mail drawn once for every reader of a resolution and marked per reader.

A partial that differs between readers only in what marks the reader's own pieces (a bold
style on his stars) is rendered once with each such place written as ``mark(power, text)``,
then resolved per reader by ``for_readers``: ``text`` where ``power`` is one of the readers,
nothing elsewhere. The marks are private-use characters that no game's text holds; a mark
left unresolved is a template bug, which the structural tests see as stray characters.

``Renderer.once`` (pbem.render.environment) renders such a partial once per renderer and
context: the context is compared by value (by identity first), so a reader gets the partial
only when the values his own report would have drawn it from are equal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from markupsafe import Markup, escape

OPEN, SEP, CLOSE = "\ue001", "\ue002", "\ue003"  # private use: in no game's text
_MARK = re.compile("\ue001([^\ue002]*)\ue002([^\ue003]*)\ue003")


def mark(power: str | None, text: str) -> Markup:
    """``text`` (escaped) for the readers who command ``power``; nothing for a ``power`` of
    None or "" (no one's)."""
    if not power:
        return Markup("")
    return Markup(f"{OPEN}{power}{SEP}{escape(text)}{CLOSE}")  # noqa: S704 - escaped above


def for_readers(text: str, readers: Iterable[str]) -> str:
    """``text`` with each mark resolved for these readers (a Markup stays Markup)."""
    mine = set(readers)
    out = _MARK.sub(lambda m: m.group(2) if m.group(1) in mine else "", str(text))
    return Markup(out) if isinstance(text, Markup) else out  # noqa: S704 - was Markup


def has_marks(text: str) -> bool:
    """Whether ``text`` holds a mark character (resolved text never does)."""
    return OPEN in text or SEP in text or CLOSE in text
