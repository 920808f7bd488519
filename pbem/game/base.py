"""Bases a game may inherit: the contract's defaults, so a game writes only what is its own.

``Game`` gives every member of the rules contract (pbem.game.plugin.GamePlugin) that has a
generic answer; a game writes ``variants``, ``setup``, ``window``, ``normalize_orders``,
``resolve`` and ``view`` (and overrides a default only where it differs). ``Presenter`` gives
every member of the presentation contract (pbem.game.presentation.Presenter) from a view and
its events, for the generic templates of ``templates/common/``; a game overrides ``sentence``
to word its events and ``orders_form`` to pre-fill its orders. docs/plugins.md walks through
the smallest game written on them (tests/games/rps).

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
from typing import TYPE_CHECKING, Any, ClassVar

from pbem import canonical, lazy
from pbem.game import events as events_
from pbem.game.plugin import Resolution, SealedOpener, Variation, Window
from pbem.game.presentation import NO_MAP
from pbem.game.presentation import Presenter as PresenterPart
from pbem.game.shapes import Context, EventData, EventIn, GameState, GameView, OrderBody, ViewIn
from pbem.numbers import digits, whole_arg
from pbem.protocol.orderfile import form_envelope

if TYPE_CHECKING:
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


class Game:
    """The rules contract with its defaults."""

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

    def window(self, state: State) -> Window | None:
        raise NotImplementedError

    def powers_due(self, state: State) -> list[str]:
        """The window's ``due`` (none once the game is over)."""
        step = self.window(state)
        return list(step.due) if step is not None else []

    def orders_turn(self, state: State) -> int:
        return int(state["turn"])

    def is_over(self, state: State) -> bool:
        return state.get("result") is not None

    def default_orders(self, state: State, power: str) -> OrderBody:
        """Standing orders: none (an empty order body)."""
        return {}

    def nmr_orders(self, state: State, power: str, open_sealed: SealedOpener | None
                   ) -> tuple[OrderBody, dict[str, dict[str, object]]]:
        """The standing orders; nothing sealed is opened."""
        return self.default_orders(state, power), {}

    def view_events(self, events: Sequence[Event], power: str | None) -> list[EventData]:
        """The engine's addressing: public events and those ``private`` to ``power``."""
        return events_.view_events(events, power)

    def secrets(self, state: State, power: str) -> list[str]:
        return []

    def hidden(self, state: State) -> list[str]:
        return []

    def variations(self, state: State, power: str) -> list[Variation]:
        return []

    def counts(self, events: Sequence[Event]) -> dict[str, int]:
        types = Counter(str(e.get("type")) for e in events)
        if not self.counted:
            return dict(sorted(types.items()))
        return {word: sum(types[t] for t in kinds) for word, kinds in self.counted.items()}

    def winners(self, state: State) -> list[str]:
        """Who wins if the game ends now by agreement (default: nobody)."""
        return []

    def end_game(self, state: State, reason: str) -> Resolution:
        """End now: ``result`` = {reason, turn, winners}, and a public ``game_over`` event."""
        if self.is_over(state):
            return Resolution(state, [])
        return self.finish(state, reason, self.winners(state))

    def concede(self, state: State, power: str) -> Resolution:
        """``power`` concedes: the game ends and every other power wins (override for a game
        that goes on without him)."""
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


__all__ = ["Event", "Game", "Presenter", "State", "View", "canonical", "digits", "whole_arg"]
