"""The Jinja environment of pbem's mails (pbem.render.environment's ``Renderer.env``): imported
when a mail is first rendered from templates, so a process that renders none, or only mails
pbem.render.plain writes without templates (a receipt), never imports jinja2 (issue 30, "Fast
start")."""

from __future__ import annotations

import functools
from collections.abc import MutableMapping
from typing import Any

import jinja2

from pbem.game.marks import for_readers, mark
from pbem.render.environment import para

_DICT_ATTRIBUTES = frozenset(dir(dict))


class DictFirstEnvironment(jinja2.Environment):
    """Jinja's ``x.y`` looks the key up first when ``x`` is a plain dict (what every presenter
    hands the templates) and ``y`` is not an attribute of dicts.

    Stock Jinja tries ``getattr`` first: on a dict that fails with an ``AttributeError`` on
    every lookup before the subscript is tried, which doubled the cost of the HTML templates
    (thousands of lookups per game-turn). The result is the same as stock Jinja's: a name a
    dict has as an attribute (``items``, ``get``, ...) takes the stock path (attribute
    first), and for any other name ``getattr`` would fail anyway, so the key is what stock
    Jinja returns too; a missing key falls back to the stock lookup (and its Undefined)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain dict (the environment's, overlaid by the
        template's own), not Jinja's ``ChainMap`` of the two: every render copies them into
        its context and takes their keys, and each ``{% import %}`` compares keys with them,
        which through a ``ChainMap`` cost more than the small receipt templates themselves.
        The environment's globals are never changed after it is made (``environment``), so
        the copy sees the same names; a change to a template's globals stays in that
        template, as with the ``ChainMap``."""
        return {**self.globals, **(d or {})}


@functools.lru_cache(maxsize=64)
def environment(paths: tuple[str, ...]) -> jinja2.Environment:
    """One Jinja environment per search path, shared by every game that uses it, so each
    template is compiled once per process rather than once per mail (a cron job renders
    thousands of mails)."""
    env = DictFirstEnvironment(
        loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(p) for p in paths]),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html", "xml", "svg"), disabled_extensions=("txt",),
            default_for_string=False, default=False,
        ),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # A template is read once per process: every cron run and ingest is a new process,
        # and re-checking each template file's mtime on every lookup (each include of
        # every mail) cost a stat per lookup, ~90 per game-turn.
        auto_reload=False,
    )
    env.filters["para"] = para
    env.filters["for_readers"] = for_readers
    env.globals["mark"] = mark
    env.filters["short"] = lambda s, n=8: f"{s[:n]}…" if s else ""
    return env


