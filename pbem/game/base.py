"""Bases a game may inherit: the contract's defaults, so a game writes only what is its own.

``Game`` gives every member of the rules contract (pbem.game.plugin.GamePlugin) that has a
generic answer; a game writes ``variants``, ``setup``, ``window``, ``normalize_orders``,
``resolve`` and ``view`` (and overrides a default only where it differs). A game whose rules
live in modules of their own declares those modules once instead (``rules``, ``orders``,
``views``; the protocols ``Rules``, ``OrderRules`` and ``Views`` say what each holds, and mypy
checks a module against them), and ``Game`` forwards to them, wrapping what they return in
``Resolution`` and ``Variation``. ``Presenter`` gives every member of the
presentation contract (pbem.game.presentation.Presenter) from a view and its events, for the
generic templates of ``templates/common/``; a game overrides ``sentence`` to word its events
and ``orders_form`` to pre-fill its orders. docs/plugins.md walks through the smallest game
written on them (tests/games/rps).

The defaults assume the conventions every bundled game keeps: the state's ``turn`` is the turn
the next order file carries, ``result`` is None until the game is over (then a mapping with
``reason`` and ``winners``), and a view's ``powers`` maps each power to what is shown of it.

What a game may use of pbem's base layer comes through here too (a game imports only
``pbem.game``, ``pbem.protocol`` and ``pbem.errors``: tests/engine/test_layers.py): ``canonical``
(canonical JSON and its digests), ``digits`` and ``whole_arg`` (whole numbers as people write
them, ASCII digits only: pbem.numbers).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from pbem import canonical, lazy
from pbem.errors import Problem
from pbem.game import events as events_
from pbem.game.plugin import Resolution, SealedOpener, Variation, Window
from pbem.game.presentation import NO_MAP
from pbem.game.presentation import Presenter as PresenterPart
from pbem.game.shapes import (
    Context,
    EventData,
    EventIn,
    GameState,
    GameView,
    OrderBody,
    OrdersIn,
    ViewIn,
)
from pbem.numbers import digits, whole_arg
from pbem.protocol.orderfile import form_envelope

if TYPE_CHECKING:
    from pbem.game.chance import Chance
    from pbem.game.tool import Tool

State = GameState
View = ViewIn
Event = EventIn


def lazy_part(module: str, name: str | None = None) -> Any:
    """A plugin class's ``presenter``, ``tool`` or ``archive``, imported from ``module`` (its
    ``name``; without one, the module itself) when first used (pbem.lazy.attribute): a process
    that only judges orders imports no player's tool or archive hooks. The load-time contract
    check runs on it when it is loaded (pbem.game.contract)."""
    return lazy.attribute[Any](module, name)


def lazy_parts(package: str) -> tuple[Any, Any, Any]:
    """``presenter, tool, archive``, each a :func:`lazy_part` of the bundled layout
    (docs/plugins.md, section 1): ``PACKAGE.present.PRESENTER``, ``PACKAGE.tool.TOOL`` and the
    module ``PACKAGE.archive``. A game class writes ``presenter, tool, archive =
    lazy_parts(__package__)``; judging an order mail then imports none of the three."""
    return (lazy_part(f"{package}.present", "PRESENTER"), lazy_part(f"{package}.tool", "TOOL"),
            lazy_part(f"{package}.archive"))


#: What a rules module's ``resolve``, ``concede`` and ``end_game`` return: the new state and
#: the events, in order (``Game`` wraps it in a ``Resolution``).
Outcome = tuple[GameState, list[EventData]]


class Rules(Protocol):
    """What a game's ``rules`` module holds (Ashes: ``rules.py``; B5, TI4: ``turn.py``): the
    next step, its resolution and the two endings, as pure functions of the state."""

    def window(self, state: GameState) -> Window | None: ...
    def resolve(self, state: GameState, orders: Mapping[str, OrderBody],
                chance: Chance) -> Outcome: ...
    def concede(self, state: GameState, power: str) -> Outcome: ...
    def end_game(self, state: GameState, reason: str) -> Outcome: ...


class OrderRules(Protocol):
    """What a game's ``orders`` module holds: the check of an order body against the power's
    view, and the standing orders of a power that sent none (the same for every state)."""

    def normalize_orders(self, body: OrdersIn, view: ViewIn
                         ) -> tuple[OrderBody, list[Problem]]: ...
    def default_orders(self) -> OrderBody: ...


class Views(Protocol):
    """What a game's ``views`` module holds: the per-power view (the only way hidden
    information leaves a state), and the leak tests' strings and variations, each variation a
    ``(state, knowers)`` pair (``Game`` makes a ``Variation`` of it)."""

    def view(self, state: GameState, power: str | None) -> GameView: ...
    def secrets(self, state: GameState, power: str) -> list[str]: ...
    def hidden(self, state: GameState) -> list[str]: ...
    def variations(self, state: GameState, power: str
                   ) -> list[tuple[GameState, tuple[str, ...]]]: ...


class Game:
    """The rules contract with its defaults: the generic answers, or, where the game declares
    the module that holds a part (``rules``, ``orders``, ``views``), that module's."""

    id: str
    title: str
    presenter: PresenterPart
    tool: Tool | None = None
    #: What the audit counts: {word: event types}; empty: every event type by its name.
    counted: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: The order sections a player may send in a standing file (``turn: standing``,
    #: docs/protocol.md "Standing files"): used at every later step he sends no file for.
    #: Empty: the game takes no standing files.
    standing_sections: ClassVar[tuple[str, ...]] = ()

    #: The archive's hooks (pbem.archive.hooks; any of ``ARCHIVE_HOOKS``), or None: defaults.
    archive: object = None

    #: The module holding the game's steps (``window``, ``resolve``, ``concede``, ``end_game``),
    #: or None: the game writes ``window`` and ``resolve``, and concedes and ends generically.
    rules: Rules | None = None
    #: The module holding the order checks and the standing orders, or None: the game writes
    #: ``normalize_orders``, and its standing orders are empty.
    orders: OrderRules | None = None
    #: The module holding the views and the leak tests' data, or None: the game writes
    #: ``view``, and has no secrets, hidden strings or variations.
    views: Views | None = None

    def window(self, state: State) -> Window | None:
        """The ``rules`` module's window."""
        return _declared(self.rules, "window").window(state)

    def resolve(self, state: State, orders: Mapping[str, OrderBody],
                chance: Chance) -> Resolution:
        """The ``rules`` module's resolution of the next step."""
        return Resolution(*_declared(self.rules, "resolve").resolve(state, orders, chance))

    def normalize_orders(self, body: OrdersIn, view: ViewIn
                         ) -> tuple[OrderBody, list[Problem]]:
        """The ``orders`` module's check of an order body against the power's view."""
        return _declared(self.orders, "normalize_orders").normalize_orders(body, view)

    def view(self, state: State, power: str | None) -> GameView:
        """The ``views`` module's view of the state for ``power`` (None: the public view)."""
        return _declared(self.views, "view").view(state, power)

    def powers_due(self, state: State) -> list[str]:
        """The window's ``due`` (none once the game is over)."""
        step = self.window(state)
        return list(step.due) if step is not None else []

    def orders_turn(self, state: State) -> int:
        return int(state["turn"])

    def is_over(self, state: State) -> bool:
        return state.get("result") is not None

    def default_orders(self, state: State, power: str) -> OrderBody:
        """Standing orders: the ``orders`` module's, else none (an empty order body)."""
        return {} if self.orders is None else self.orders.default_orders()

    def nmr_orders(self, state: State, power: str, open_sealed: SealedOpener | None
                   ) -> tuple[OrderBody, dict[str, dict[str, object]]]:
        """The standing orders; nothing sealed is opened."""
        return self.default_orders(state, power), {}

    def view_events(self, events: Sequence[Event], power: str | None) -> list[EventData]:
        """The engine's addressing: public events and those ``private`` to ``power``."""
        return events_.view_events(events, power)

    def secrets(self, state: State, power: str) -> list[str]:
        return [] if self.views is None else self.views.secrets(state, power)

    def hidden(self, state: State) -> list[str]:
        return [] if self.views is None else self.views.hidden(state)

    def variations(self, state: State, power: str) -> list[Variation]:
        if self.views is None:
            return []
        return [Variation(new, knowers) for new, knowers in self.views.variations(state, power)]

    def counts(self, events: Sequence[Event]) -> dict[str, int]:
        types = Counter(str(e.get("type")) for e in events)
        if not self.counted:
            return dict(sorted(types.items()))
        return {word: sum(types[t] for t in kinds) for word, kinds in self.counted.items()}

    def winners(self, state: State) -> list[str]:
        """Who wins if the game ends now by agreement (default: nobody)."""
        return []

    def end_game(self, state: State, reason: str) -> Resolution:
        """End now: the ``rules`` module's ending, else ``result`` = {reason, turn, winners}
        and a public ``game_over`` event."""
        if self.rules is not None:
            return Resolution(*self.rules.end_game(state, reason))
        if self.is_over(state):
            return Resolution(state, [])
        return self.finish(state, reason, self.winners(state))

    def concede(self, state: State, power: str) -> Resolution:
        """``power`` concedes: the ``rules`` module's concession, else the game ends and every
        other power wins (override for a game that goes on without him)."""
        if self.rules is not None:
            return Resolution(*self.rules.concede(state, power))
        if self.is_over(state):
            return Resolution(state, [])
        others = [p for p in self.powers_of(state) if p != power]
        return self.finish(state, f"{power} conceded", others,
                           [{"type": "concession", "turn": state["turn"], "power": power}])

    def powers_of(self, state: State) -> list[str]:
        return list(state["powers"])

    def finish(self, state: State, reason: str, winners: Sequence[str],
               events: Sequence[EventData] = ()) -> Resolution:
        new = copy.deepcopy(state)
        new["result"] = {"reason": reason, "turn": new["turn"], "winners": sorted(winners)}
        over = {"type": "game_over", "turn": new["turn"], "reason": reason,
                "winners": sorted(winners)}
        return Resolution(new, [*events, over])

    def sample_orders(self, view: GameView, rng: random.Random) -> OrderBody | None:
        """A legal order body for the view (no envelope), for random play; None: not offered."""
        return None


_Part = TypeVar("_Part")


def _declared(part: _Part | None, method: str) -> _Part:
    """``part``, the module a game declared to hold ``method``. A game that neither declared
    one nor wrote ``method`` is refused when loaded (:func:`unwritten`)."""
    if part is None:
        raise NotImplementedError(f"the game neither writes {method} nor declares the module "
                                  "that holds it")
    return part


#: The methods a game writes unless it declares the module that holds them (the role).
WRITTEN_OR_DECLARED = {"window": "rules", "resolve": "rules", "normalize_orders": "orders",
                       "view": "views"}


def unwritten(plugin: object) -> list[str]:
    """What a ``Game`` neither writes nor declares a module for, in the load-time check's words
    (pbem.game.contract): the base's forwarding method of a role the game left None."""
    if not isinstance(plugin, Game):
        return []
    return [f"{method} (or {role} = the module that holds it)"
            for method, role in WRITTEN_OR_DECLARED.items()
            if getattr(type(plugin), method) is getattr(Game, method)
            and getattr(plugin, role) is None]


def name(power: str) -> str:
    return power.replace("_", " ").capitalize()


def _value(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    return str(value)


class Presenter:
    """The presentation contract with its defaults, for the generic templates: no map, events
    in ``sentence``s, the position as one line per power, the order form's envelope."""

    map_kind = NO_MAP

    def sentence(self, event: Event) -> str:
        """One event in words: the base's own events (``Game.finish``, ``Game.concede``), else
        ``type: field value, ...``; a game words its own events by overriding this."""
        if event["type"] == "game_over":
            return f"The game ended ({event.get('reason', 'over')})."
        if event["type"] == "concession":
            return f"{name(str(event.get('power')))} conceded."
        fields = {k: v for k, v in events_.game_fields(event).items() if k != "type"}
        detail = ", ".join(f"{k} {_value(v)}" for k, v in fields.items())
        return f"{event['type']}: {detail}." if detail else f"{event['type']}."

    def gm_line(self, event: Event) -> str:
        """An event as the game master reads it: a private one names whose it was."""
        if not events_.is_private(event):
            return self.sentence(event)
        who = ", ".join(map(name, events_.visible_to(event) or [])) or "nobody"
        return f"{self.sentence(event)} [private to {who}]"

    def position(self, view: View) -> list[str]:
        """What the view shows of every power, one line each."""
        powers = view.get("powers")
        if not isinstance(powers, Mapping):
            return []
        return [f"{name(p)}: {_value(info)}" if isinstance(info, Mapping) and info
                else name(p) for p, info in powers.items()]

    def orders_form(self, view: View) -> list[str]:
        """The lines after the envelope of a pre-filled order form (default: empty orders)."""
        return ["orders: {}"]

    def order_form(self, view: View, seq: int) -> str:
        """The whole pre-filled order form: the envelope (pbem.protocol.orderfile), then
        ``orders_form``; "" for a power not due."""
        if view.get("viewer") not in view.get("due", [view.get("viewer")]):
            return ""
        return "\n".join([*form_envelope(view, seq), *self.orders_form(view)])

    def title(self, view: View) -> str:
        return str(view.get("variant", ""))

    def _power(self, view: View, seq: int) -> Context:
        return {"position": self.position(view), "order_form": self.order_form(view, seq)}

    def welcome(self, view: View, readers: Sequence[str]) -> Context:
        return self._power(view, 0)

    def report(self, before: View, view: View, *, readers: Sequence[str], missed: int,
               seq: int) -> Context:
        return self._power(view, seq)

    def shared(self, views: Sequence[View], events: Sequence[Event],
               readers: Sequence[str]) -> Context:
        return {"events": [self.sentence(e) for e in events],
                "result": self.result(views[0]) if views else ""}

    def result(self, view: View) -> str:
        """The result in words ("" while the game goes on)."""
        result = view.get("result")
        if not isinstance(result, Mapping):
            return ""
        winners = ", ".join(map(name, result.get("winners") or [])) or "nobody"
        return f"The game is over ({result.get('reason', 'ended')}). Winner: {winners}."

    def receipt_lines(self, orders: Mapping[str, object], view: View) -> list[str]:
        return [f"{k}: {_value(v)}" for k, v in orders.items() if v not in (None, {}, [])] or [
            "No orders: your standing orders."]

    def gm(self, public: View, views: Mapping[str, View], events: Sequence[Event],
           secrets: Mapping[str, list[str]]) -> Context:
        return {"events": [self.gm_line(e) for e in events], "position": self.position(public),
                "result": self.result(public)}

    def game_end(self, view: View, events: Sequence[Event], readers: Sequence[str],
                 reveal: Sequence[Mapping[str, object]]) -> Context:
        return {"events": [self.sentence(e) for e in events], "position": self.position(view),
                "result": self.result(view)}

    def reveal(self, log: Sequence[Mapping[str, object]]) -> list[Context]:
        return []

    def map_context(self, view: View, readers: Sequence[str],
                    shared: Mapping[str, object] | None) -> Context | None:
        return None


__all__ = ["Event", "Game", "OrderRules", "Outcome", "Presenter", "Rules", "State", "View",
           "Views", "canonical", "digits", "lazy_part", "lazy_parts", "whole_arg"]
