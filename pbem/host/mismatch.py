"""What differs when replaying the log does not give the recorded state: the field, not two
hashes. Used for the STOPPED mail, so the game master sees *where* the replay and the log part
(an event's field, or a field of the state when state.json still holds the recorded state).

The log records every resolution's events in full but only a digest of the state; the state
itself is compared when the state cache was written right after the entry that disagrees.
"""

from __future__ import annotations

import json
from typing import Any

from pbem import canonical
from pbem.game.plugin import GamePlugin
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.summary import summarize

#: Differences named in one message (the first ones, in document order).
SHOWN = 3


def differences(recorded: object, found: object, path: str) -> list[str]:
    """``path.to.field: recorded X, replay Y`` for each differing leaf, in order."""
    out: list[str] = []
    if isinstance(recorded, dict) and isinstance(found, dict):
        for key in sorted(set(recorded) | set(found), key=str):
            sub = f"{path}.{key}"
            if key not in found:
                out.append(f"{sub}: recorded {_short(recorded[key])}, missing in the replay")
            elif key not in recorded:
                out.append(f"{sub}: not recorded, the replay has {_short(found[key])}")
            else:
                out += differences(recorded[key], found[key], sub)
        return out
    if isinstance(recorded, list) and isinstance(found, list):
        for i in range(max(len(recorded), len(found))):
            sub = f"{path}[{i}]"
            if i >= len(found):
                out.append(f"{sub}: recorded {_short(recorded[i])}, missing in the replay")
            elif i >= len(recorded):
                out.append(f"{sub}: not recorded, the replay has {_short(found[i])}")
            else:
                out += differences(recorded[i], found[i], sub)
        return out
    if canonical.encode(recorded) != canonical.encode(found):
        out.append(f"{path}: recorded {_short(recorded)}, replay {_short(found)}")
    return out


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _replayed(plugin: GamePlugin, game: GameDir, seq: int) -> tuple[Any, Any] | None:
    """(state, events) the rules give for entry ``seq`` from the replayed state before it."""
    entries = game.log.entries
    entry = entries[seq]
    k = replay.chance_key(game)
    before = replay.replay(plugin, entries[:seq], game.initial_state(plugin), k)
    if entry.kind == replay.RESOLVE:
        at = summarize(entries[:seq])  # the log's facts just before the entry
        step = at.chance_ledger().step + 1
        result, _used = replay.resolve_again(plugin, before, at.standing_orders(), entry,
                                             game_id=game.game_id, step=step, k=k,
                                             standing_files=at.standing_files)
    else:
        gm = replay.gm_resolution(plugin, before, entry.body)
        if gm is None:
            return None
        result = gm
    return result.state, result.events


def _cached_state(game: GameDir, digest: object) -> Any:
    """The state in state.json if it is the one recorded with ``digest`` (else None)."""
    try:
        data = json.loads(game.state_path.read_bytes())
        state = data["state"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return state if canonical.digest(state) == digest == data.get("digest") else None


def explain(plugin: GamePlugin, game: GameDir, exc: replay.ReplayMismatch) -> str:
    """One sentence naming what differs at the entry ``exc`` names (best effort: never raises;
    "" when the mismatch already names its field, as for the order files used)."""
    entry = exc.entry
    if exc.field not in ("state", "events"):
        return ""
    try:
        replayed = _replayed(plugin, game, entry.seq)
    except Exception as err:  # the replay itself fails: say so, the mail must still go out
        return f"replaying entry {entry.seq} fails: {type(err).__name__}: {err}"
    if replayed is None:
        return f"entry {entry.seq} changes no state when replayed"
    state, events = replayed
    diffs = differences(entry.body.get("events", []), events, "events")
    if exc.field == "state" or not diffs:
        cached = _cached_state(game, entry.body.get("state"))
        if cached is not None:
            diffs = differences(cached, state, "state") + diffs
        elif exc.field == "state":
            why = "the events match" if not diffs else "the events differ too"
            return (f"{why}; the log keeps only the state's digest and state.json holds another "
                    "point of the game, so the differing field of the state cannot be named")
    if not diffs:
        return f"the {exc.field} differs but no field of the events or state could be named"
    more = f" (and {len(diffs) - SHOWN} more)" if len(diffs) > SHOWN else ""
    return "what differs: " + "; ".join(diffs[:SHOWN]) + more
