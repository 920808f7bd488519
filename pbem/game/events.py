"""Who may see an event: the engine's addressing, kept apart from every game's own fields.

An event is a plain dict a game writes (``{"type": "moved", "from": ..., "to": ...}``). It is
public unless it carries the engine's reserved key ``VISIBLE_TO`` (``"_visible_to"``): then only
the powers it lists may see it. Keys that start with ``_`` are the engine's: a game never writes
one by hand (it calls ``private``) and never names a field of its own that way, so no game field
(a move's destination ``to``, a deal's ``from``) can ever be read as the recipients.

``view_events`` is the engine's filter, what every game's ``PLUGIN.view_events`` returns unless
the game has more to hide; ``event_problems`` is the check that refuses an event using the
reserved namespace wrongly (pbem.store.replay runs it on every resolution, the conformance
suite on every game).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.game.shapes import EventData, EventIn

VISIBLE_TO = "_visible_to"  # the engine's recipient field: a sorted list of power names
RESERVED = "_"  # every key starting with it is the engine's


class EventError(PbemError):
    """A game produced an event that uses the engine's reserved keys wrongly."""


def private(event: EventIn, *powers: str) -> EventData:
    """``event`` seen only by ``powers`` (a new dict; the powers sorted, each once). With no
    power nobody may see it but the referee (the log keeps it; no report shows it)."""
    if VISIBLE_TO in event:
        raise EventError(f"event {event.get('type')!r} is already addressed to "
                         f"{event[VISIBLE_TO]}: address it once, with every power")
    if not all(isinstance(p, str) and p for p in powers):
        raise EventError(f"event {event.get('type')!r}: recipients must be power names, "
                         f"not {list(powers)!r}")
    return {**event, VISIBLE_TO: sorted(set(powers))}


def visible_to(event: EventIn) -> list[str] | None:
    """The powers that may see ``event``, or None for a public event."""
    who = event.get(VISIBLE_TO)
    return None if who is None else list(who)


def is_private(event: EventIn) -> bool:
    return VISIBLE_TO in event


def seen_by(event: EventIn, power: str | None) -> bool:
    """``power`` may see ``event`` (``None``: the public, who see only public events)."""
    who = event.get(VISIBLE_TO)
    return who is None or (power is not None and power in who)


def view_events(events: Sequence[EventIn], power: str | None) -> list[EventData]:
    """The events ``power`` may see (``None``: the public ones), as copies: the public ones and
    those addressed to ``power``. Reads the reserved key only."""
    return [_copy({**e}) for e in events if seen_by(e, power)]


_ATOMS = (str, int, float, bool, type(None))


def _copy(value: Any) -> Any:
    """``copy.deepcopy(value)`` for the JSON data events are (dicts, lists, texts, numbers),
    without its memo and dispatch (a copy per event per reader of every report); anything
    else is deep-copied as before."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _copy(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


def game_fields(event: EventIn) -> EventData:
    """``event`` without the engine's keys: what a generic rendering may list."""
    return {k: v for k, v in event.items() if not str(k).startswith(RESERVED)}


def event_problems(events: Sequence[object], powers: Sequence[str] | None = None) -> list[str]:
    """Every way ``events`` misuse the engine's keys, one sentence each ([] if none): an event
    that is not a dict with a ``type``, a key starting with ``_`` other than ``_visible_to``,
    recipients that are not a sorted list of distinct power names (of ``powers``, if given)."""
    out: list[str] = []
    known = set(powers) if powers is not None else None
    for i, event in enumerate(events):
        if (type(event) is not dict and not isinstance(event, Mapping)
                or not isinstance(event.get("type"), str)):
            out.append(f"event {i} is not a dict with a type")
            continue
        for key in event:
            if isinstance(key, str) and (key == VISIBLE_TO or not key.startswith(RESERVED)):
                continue  # a game's own key (every key, but for a game's bug)
            if not isinstance(key, str):
                out.append(f"{_label(i, event)}: key {key!r} is not a string")
            else:
                out.append(f"{_label(i, event)}: {key!r} starts with {RESERVED!r}, which is "
                           f"reserved for the engine (only {VISIBLE_TO!r}, written by "
                           "pbem.game.events.private)")
        if VISIBLE_TO not in event:
            continue
        who = event[VISIBLE_TO]
        if (not isinstance(who, list) or not all(isinstance(p, str) and p for p in who)
                or who != sorted(set(who))):
            out.append(f"{_label(i, event)}: {VISIBLE_TO} must be a sorted list of distinct "
                       f"power names (pbem.game.events.private makes it), not {who!r}")
        elif known is not None and not set(who) <= known:
            out.append(f"{_label(i, event)}: {VISIBLE_TO} names {sorted(set(who) - known)}, "
                       "which are not powers of the game")
    return out


def _label(i: int, event: EventIn) -> str:
    """How a problem names the event (made only for an event with a problem)."""
    return f"event {i} ({event['type']})"


def check_events(events: Sequence[object], game: str = "the game") -> None:
    """Raise EventError naming every problem of ``event_problems`` (a game's bug, not a
    player's)."""
    problems = event_problems(events)
    if problems:
        raise EventError(f"{game} produced events the engine refuses: " + "; ".join(problems))


def notified(notify: str, events: Sequence[EventIn], due_next: Sequence[str]
             ) -> set[str]:
    """The powers a step whose window says ``notify`` mails a full report (a report, or a
    digest when earlier steps were held back from them): the next due powers, and for
    ``notify: "touched"`` every power an event of the step is addressed to or names in
    ``power`` (pbem.host.mailpolicy decides with it; the audit checks with it)."""
    out = set(due_next)
    if notify == "touched":
        for event in events:
            out.update(visible_to(event) or [])
            power = event.get("power")
            if isinstance(power, str):
                out.add(power)
    return out
