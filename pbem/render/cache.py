"""What one renderer computes once and reuses for the rest of its life (one game's visit: a
resolution's reports, the game master's summary, the order check before them, an ingest
round's receipts): the one cache of pbem.render.

- ``views``: ``plugin.view(state, power)`` (and the order checks' ``order_view``) per state
  object and power: pbem.game.views.ViewCache, the engine's one view cache, which the audit
  uses too (the same key: the state's identity and the power). At most ``VIEW_STATES``
  states are kept (a resolution's before and after, with room for a catch-up); the audit
  keeps one, the state it walks.
- ``svg``: each map drawing rendered to SVG once (pbem.render.mails._map says the key).
- ``encoded``: the canonical JSON of each object (a dict or a list) that views hold at their
  top level, by identity: an object the views share (a game's tables, 4000 A.D.'s stars) is
  encoded once for all of them (``RenderCache.json``).
- beyond one renderer, for the process's life: the canonical JSON of each *lasting* object
  (``lasting_json``): a dict or list whose class declares ``LASTING`` promises that it and
  everything in it never change (its class refuses every write, and a copy of it is a plain
  dict or list, free to change), so its bytes are made once per process, not once per
  resolution (B5's component tables in every view: games/b5cgs/frozen.py).
- ``states``: the canonical JSON of a state (``RenderCache.state_json``): the turn job's
  digest of a resolution's state, its state.json and the game master's attachment share it.
- ``steps``: the step due in a state (turn, step label, over), by identity (``RenderCache.step``).
- ``parts``: partials rendered once per context (pbem.render.environment.Renderer.once), by
  template name: the contexts and the text, latest last.

``plugin_viewing`` hands the plugin to code that takes one (the order check of
pbem.store.replay.gather_orders) with its ``view`` and ``order_view`` answered from here, so
the views the order check builds are the ones the reports show again (a game without an
``order_view``).

Nothing here shares anything between powers: a view is cached per power, a drawing by the
objects the presenter handed over; what a presenter shares between readers it must compute
from the public view alone (docs/plugins.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem import canonical
from pbem.game.plugin import GamePlugin
from pbem.game.views import ViewCache

if TYPE_CHECKING:
    from pbem.game.shapes import GameView, StateIn

VIEW_STATES = 4  # states whose views a cache keeps (a resolution's before and after)

LASTING = "__pbem_lasting__"
"""The class attribute (set to True) by which a dict or list class says that each of its
objects, and everything in it, never changes while it lives: every write to it raises, so
its canonical JSON, made once, is its canonical JSON for as long as it lives
(``lasting_json``). A game declares it on its own read-only classes (it imports nothing of
pbem.render): games/b5cgs/frozen.py. tests/engine/render/test_render_cache.py holds the memo to
identity and to the declaration; each game's tests prove that a write to its class raises."""

LASTING_KEPT = 64  # lasting objects whose bytes the process keeps (a few tables per game)

_LASTING: dict[int, tuple[object, str]] = {}

#: Whether a class is lasting: its declaration read once per class (JSON's own types are not).
_KINDS: dict[type, bool] = dict.fromkeys((str, int, float, bool, type(None), dict, list, tuple),
                                         False)


def _lasting_kind(kind: type) -> bool:
    known = _KINDS[kind] = getattr(kind, LASTING, False) is True
    return known


def lasting_json(value: object) -> str | None:
    """``canonical.dumps(value)`` for a lasting object (its class declares ``LASTING``), made
    once while the process lives and kept with the object (so its id is not reused while its
    bytes are), else None. Safe only because a lasting object cannot change: an object that
    differs is another object, encoded anew."""
    lasting = _KINDS.get(type(value))
    if not (_lasting_kind(type(value)) if lasting is None else lasting):
        return None
    hit = _LASTING.get(id(value))
    if hit is None or hit[0] is not value:
        if len(_LASTING) >= LASTING_KEPT:
            _LASTING.clear()
        hit = _LASTING[id(value)] = (value, canonical.dumps(value))
    return hit[1]


def _part(value: object) -> str:
    """``canonical.dumps(value)`` of a state or of a view's top-level dict or list: a lasting
    one's bytes from the process's memo, a dict's lasting values' too (B5's view ``pack``: the
    shared component tables, lasting, with the exposed pieces, encoded per resolution; B5's
    state: its lasting pack with the rest)."""
    text = lasting_json(value)
    if text is not None:
        return text
    if type(value) is dict:
        kinds = _KINDS
        done = {k: t for k, v in value.items() if kinds.get(type(v)) is not False
                and (t := lasting_json(v)) is not None}
        if done:
            return canonical.dumps_with(value, done)
    return canonical.dumps(value)


@dataclass
class RenderCache:
    views: ViewCache = field(default_factory=lambda: ViewCache(VIEW_STATES))
    svg: dict[tuple[object, ...], tuple[object, str]] = field(default_factory=dict)
    parts: dict[str, list[tuple[dict[str, Any], Any]]] = field(default_factory=dict)
    encoded: dict[int, tuple[object, str]] = field(default_factory=dict)
    states: dict[int, tuple[object, bytes]] = field(default_factory=dict)
    steps: dict[int, tuple[object, tuple[int, str, bool]]] = field(default_factory=dict)

    def state_json(self, state: StateIn) -> bytes:
        """``canonical.encode(state)``, made once per state object while this cache lives: a
        resolution's state after is encoded for its digest in the log entry, for state.json
        and for the game master's attachment (~44 KB at turn 300), the same bytes each time
        (a state is never changed once made: docs/plugins.md); its lasting parts (B5's pack)
        encoded once per process (``lasting_json``)."""
        hit = self.states.get(id(state))
        if hit is None or hit[0] is not state:
            hit = (state, _part(state).encode("utf-8"))
            if len(self.states) >= VIEW_STATES:
                self.states.clear()
            self.states[id(state)] = hit
        return hit[1]

    def json(self, doc: Mapping[str, Any]) -> bytes:
        """``canonical.encode(doc)`` of a view (or a view with the host's fields added): the
        same bytes, with each dict or list value encoded on its own once while this cache lives
        and its bytes reused wherever that very object comes again (views and what they hold
        are never changed: docs/plugins.md): what the views of a resolution share (a game's
        board data, 4000 A.D.'s stars) is encoded once for all of them, not once per view (the
        stars of a 4000 A.D. view: 6 KB, ~65 us). The rest is encoded in runs of consecutive
        keys, one encoder call a run. A mapping's canonical encoding is its items in sorted key
        order, joined by commas in braces. A lasting object (``lasting_json``), at the top
        level or as a value of a top-level dict, is encoded once per process."""
        encoded = self.encoded
        done: dict[str, str] = {}
        for key, value in doc.items():
            if isinstance(value, dict | list):
                hit = encoded.get(id(value))
                if hit is None or hit[0] is not value:
                    hit = encoded[id(value)] = (value, _part(value))
                done[key] = hit[1]
        return canonical.dumps_with(doc, done).encode("utf-8")

    def step(self, plugin: GamePlugin, state: StateIn) -> tuple[int, str, bool]:
        """The step now due in ``state``, as every mail of it states it (pbem.render.mails
        _step_facts): the turn its orders carry, the step in the game's words ("" once
        over), whether the game is over; asked of the rules once per state object (each of a
        resolution's mails asked again: ~8 us a mail)."""
        hit = self.steps.get(id(state))
        if hit is None or hit[0] is not state:
            window = plugin.window(dict(state))
            hit = (state, (plugin.orders_turn(dict(state)), window.label if window else "",
                           plugin.is_over(dict(state))))
            if len(self.steps) >= VIEW_STATES:
                self.steps.clear()
            self.steps[id(state)] = hit
        return hit[1]

    def view(self, plugin: GamePlugin, state: StateIn,
             power: str | None) -> GameView:
        """``plugin.view(state, power)``, computed once per state object and power."""
        made: GameView = self.views.view(plugin, state, power)
        return made

    def plugin_viewing(self, plugin: GamePlugin) -> GamePlugin:
        """``plugin`` with its ``view`` (and ``order_view``) answered from this cache."""
        viewing: GamePlugin = self.views.viewing(plugin)
        return viewing
