"""The presentation half of the plugin contract: what a game gives the mail renderer.

pbem renders every mail from Jinja templates; the game's presenter turns views and visible
events into the template context of each mail that shows the game. It is declared (an object
on the plugin, checked at load) rather than found by name, so a game without it fails when it is
loaded, not when the first report is due. Everything a presenter sees about a power comes from
``plugin.view`` and ``plugin.view_events``: it cannot leak what the view does not hold.

The map is optional and game-shaped: ``map_kind`` names it ("stars", "hex", ...) or is
``"none"``; a game with a map returns the context of its ``map.svg`` template from
``map_context`` and gets the drawing attached to its reports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from pbem.game.shapes import Context, EventIn, GameView

View = GameView
Event = EventIn

NO_MAP = "none"


class Presenter(Protocol):
    """What a game provides to render its mails (templates: ``<game package>/templates/`` or
    pbem's bundled ``templates/<game id>/``, else the generic ones of ``templates/common/``;
    see docs/plugins.md). pbem.game.base.Presenter gives every member a default."""

    #: The kind of map ("stars", "hex", ...) or ``NO_MAP``.
    map_kind: str

    def title(self, view: View) -> str:
        """What is being played, in words (e.g. the variant's title), for the welcome mail."""
        ...

    def welcome(self, view: View, readers: Sequence[str]) -> Context:
        """One power's part of the welcome mail. ``view`` (here and in ``report``) carries the
        game ``instance`` as view.json does: a pre-filled order form writes it (``instance:``
        after ``seq:``), so a player who copies the form names the game instance it is for."""
        ...

    def report(self, before: Mapping[str, object], view: View, *, readers: Sequence[str],
               missed: int, seq: int) -> Context:
        """One power's part of the turn report (``before``: its view before the resolution, a
        read-only mapping made when first read;
        ``missed``: steps in a row it sent no orders for; ``seq``: of the pre-filled form)."""
        ...

    def shared(self, views: Sequence[View], events: Sequence[Event],
               readers: Sequence[str]) -> Context:
        """The part of a turn report common to the reader's powers (events, map, table)."""
        ...

    def receipt_lines(self, orders: Mapping[str, object], view: View) -> list[str]:
        """Accepted orders restated in plain words."""
        ...

    def gm(self, public: View, views: Mapping[str, View], events: Sequence[Event],
           secrets: Mapping[str, list[str]]) -> Context:
        """The referee's summary: every power's view and every event."""
        ...

    def game_end(self, view: View, events: Sequence[Event], readers: Sequence[str],
                 reveal: Sequence[Mapping[str, object]]) -> Context:
        """The last mail's context: the result, the last events, the final position and the
        reveal rows (from ``reveal``)."""
        ...

    def reveal(self, log: Sequence[Mapping[str, object]]) -> list[Context]:
        """The end-of-game reveal from the whole log (``[{kind, body}]``: accepted orders and
        resolutions): what every power kept secret and has opened since. Shown only when the
        game is over; ``[]`` for a game that keeps nothing sealed."""
        ...

    def map_context(self, view: View, readers: Sequence[str],
                    shared: Mapping[str, object] | None) -> Context | None:
        """The context of the ``map.svg`` template for this view (``shared``: the report's
        shared context, which may hold the drawing already), or None: no map."""
        ...


def cite_ruling(game_id: str, code: str, sentence: str) -> str:
    """How a problem or report cites a ruling a player cannot look up by its code alone: the
    code, the ruling in words, and the command that prints the game's rules document:
    ``(our ruling A5: ...; pbem rules ashes)``."""
    return f"(our ruling {code}: {sentence}; pbem rules {game_id})"
