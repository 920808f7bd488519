"""The steps of a game as the public saw them, replayed from a verified export.

A step is the start (genesis) and then every change of state the log records: each ``resolve``
entry and each state-changing ``gm`` entry (concede, end). For each, the archive keeps only the
public view of the state after it (``plugin.view(state, None)``) and the public events
(``plugin.view_events(events, None)``): nothing else of a state ever reaches a page.

A public export withholds every resolution (pbem.audit.export), so the state after the first
withheld one cannot be rebuilt: from there on a step has the public events the referee signed
with the export and no view (``view`` is None) and the page says so.

Hidden draws (a shuffled deck, a face-down map) need the referee's secret K: a finished game's
log reveals it in its ``chance-secret`` entry (the audit has checked it against the genesis
commitment before any step is replayed), so a full export of a finished game shows the state
of every step. Without K, the state stops at the first hidden draw, as in a public export.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.audit._chain import Record, Withheld
from pbem.audit._lookup import is_secret
from pbem.chance.errors import ChanceError
from pbem.game import registry, versions
from pbem.game.plugin import GamePlugin
from pbem.store import replay
from pbem.store.log import Entry
from pbem.store.summary import is_standing, stand

if TYPE_CHECKING:
    from pbem.game.shapes import GameState

View = dict[str, Any]
Event = dict[str, Any]


@dataclass
class Step:
    index: int
    seq: int  # log seq of the entry that made this step
    kind: str  # "start", "resolve" or "gm"
    title: str
    time: str
    turn: int | None
    view: View | None  # the public view after the step; None: withheld in this export
    events: list[Event]  # the public events of the step
    notes: list[str] = field(default_factory=list)  # key replacements, pauses, deadlines


def replay_steps(records: Sequence[Record], components: Callable[[str], Any] | None = None
                 ) -> tuple[GamePlugin, list[Step]]:
    """The steps of a verified chain of records (genesis first, whole); ``components`` finds
    the game's component pack by digest (the audit has checked it is there)."""
    genesis = records[0]
    assert isinstance(genesis, Entry)
    body = genesis.body
    plugin = registry.load(body["plugin"])
    _named, pack = versions.recorded_pack(plugin, body, components)
    state: GameState | None = plugin.setup(body["variant"],
                                                versions.setup_options(body, pack))
    steps = [Step(0, 0, "start", "Start", genesis.time, None, _public(plugin, state), [])]
    standing: dict[str, dict[str, Any]] = {}
    kept: dict[str, dict[str, Any]] = {}  # the standing files (turn: standing), never cleared
    k = revealed_k(records)
    for record in records[1:]:
        if record.kind == replay.ORDERS:
            if isinstance(record, Entry):
                b = record.body
                stand(kept if is_standing(b) else standing, b)
            continue
        if record.kind == replay.RESOLVE:
            events: list[Event]
            if isinstance(record, Withheld) or state is None:
                state = None
                claims = record.public if isinstance(record, Withheld) else record.body
                turn = claims.get("turn")
                events = plugin.view_events(list(claims.get("events") or []), None)
            else:
                try:
                    result = replay.replay_resolution(
                        plugin, state, standing, record, game_id=str(body["game_id"]),
                        step=1 + sum(1 for s in steps if s.kind == "resolve"), k=k,
                        standing_files=kept)
                    state, turn = result.state, record.body.get("turn")
                    events = plugin.view_events(result.events, None)
                except ChanceError:  # a hidden draw: its secret is revealed at the game's end
                    state, turn = None, record.body.get("turn")
                    events = plugin.view_events(list(record.body.get("events") or []), None)
            standing = {}
            steps.append(Step(len(steps), record.seq, "resolve", f"Turn {turn}", record.time,
                              turn if isinstance(turn, int) else None,
                              _public(plugin, state), events))
            continue
        note = _note(record)
        if record.kind == replay.GM and isinstance(record, Entry) \
                and record.body.get("op") in replay.STATE_OPS:
            events = []
            if state is not None:
                done = replay.gm_resolution(plugin, state, record.body)
                if done is not None:
                    state = done.state
                    events = plugin.view_events(done.events, None)
            steps.append(Step(len(steps), record.seq, "gm", f"Game master: {note}",
                              record.time, None, _public(plugin, state), events, [note]))
        elif note:
            steps[-1].notes.append(f"{record.time}: {note}")
    return plugin, steps


def revealed_k(records: Sequence[Record]) -> bytes | None:
    """The chance secret K the log reveals at the game's end (the last such entry), or None."""
    for record in reversed(records):
        if is_secret(record):
            assert isinstance(record, Entry)
            value = record.body.get("k")
            if isinstance(value, str):
                try:
                    return bytes.fromhex(value)
                except ValueError:
                    return None
    return None


def _public(plugin: GamePlugin, state: GameState | None) -> View | None:
    return None if state is None else plugin.view(state, None)


def _note(record: Record) -> str:
    """A gm or key entry in words (what every player was told: the power, the operation)."""
    if not isinstance(record, Entry) or not isinstance(record.body, dict):
        return ""
    body = record.body
    if record.kind == replay.KEY:
        return f"the game master replaced the key of {body.get('power')}"
    if record.kind == replay.GM:
        op = str(body.get("op"))
        who = f" {body['power']}" if isinstance(body.get("power"), str) else ""
        reason = f" ({body['reason']})" if isinstance(body.get("reason"), str) else ""
        return f"{op}{who}{reason}"
    return ""
