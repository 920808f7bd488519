"""Abandoned seats (docs/operations.md, "Abandoned seats"): a power silent for ``nmr_alert`` due
steps in a row (silence in a ``silence: default`` window is no missed step) is offered to the
game master two ways on: **autopilot** (``pbem gm autopilot``: the seat plays by its standing
orders, or the game's default answer, and no step waits for it) or **replacement** (``pbem gm
replace``: a new player and key take the seat). With ``abandoned: {after: N, action:
autopilot}`` in config.yaml the cron job puts a seat silent N due steps in a row on autopilot
by itself.

Autopilot is a ``gm`` entry ``op: autopilot`` signed by the referee, with ``power``, ``missed``
(its due steps missed in a row then) and, when the cron job made it, ``auto: true`` and
``after``; the audit re-counts ``missed`` from the resolutions and holds an automatic entry to
``after`` (pbem.audit._seats). Every player is told (a game-master notice), the game master too
when the cron job did it. The seat stays on autopilot until its player's next accepted order
file (his receipt says he took his seat back), a ``replace`` or a ``concede``
(``Summary.on_autopilot``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.errors import PbemError
from pbem.schedule import to_iso
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.log import Entry
from pbem.store.summary import AUTOPILOT, Noted


class SeatError(PbemError):
    pass


def in_game(game: GameDir) -> list[str]:
    """The powers that did not concede (a conceded seat has nobody to stand in for)."""
    gone = {str(e.body.get("power")) for e in game.log.entries
            if e.kind == replay.GM and e.body.get("op") == "concede"}
    return [p for p in game.config.powers if p not in gone]


def body(game: GameDir, power: str, *, after: int | None = None) -> dict[str, Any]:
    """The ``autopilot`` entry's body for ``power`` (``after``: the config's, when the cron job
    makes it); raises SeatError for a seat that cannot go on autopilot."""
    summary = game.log.summary
    if power not in game.config.powers:
        raise SeatError(f"no power {power!r} in {game.game_id} "
                        f"(powers: {', '.join(game.config.powers)})")
    if power in summary.on_autopilot():
        raise SeatError(f"{power} is on autopilot already (since log entry "
                        f"{summary.on_autopilot()[power]})")
    if power not in in_game(game):
        raise SeatError(f"{power} has conceded: its seat is empty")
    missed = summary.missed_turns().get(power, {}).get("in_a_row", 0)
    out: dict[str, Any] = {"op": AUTOPILOT, "power": power, "missed": missed}
    if after is not None:
        out.update(auto=True, after=after)
    return out


def due_for_autopilot(game: GameDir) -> list[str]:
    """The seats the cron job puts on autopilot now (config ``abandoned``): silent ``after`` due
    steps in a row, still in the game, not on autopilot already, and with no orders accepted
    since the last step (a player who took his seat back is not put out of it again)."""
    rule = game.config.abandoned
    if rule is None:
        return []
    after, _action = rule
    summary = game.log.summary
    on = summary.on_autopilot()
    missed = summary.missed_turns()
    standing = summary.standing  # a player who sent orders since the last step is back
    due = [p for p in game.config.powers if p not in on and p not in standing
           and missed.get(p, {}).get("in_a_row", 0) >= after]
    return [p for p in due if p in in_game(game)] if due else []


def apply_abandoned(game: GameDir, key: Any, now: datetime) -> list[Entry]:
    """Under the game's lock (the turn job's visit): log an ``autopilot`` entry for each seat
    the config's ``abandoned`` rule names now."""
    rule = game.config.abandoned
    out = []
    for power in due_for_autopilot(game):
        assert rule is not None
        signed = replay.sign_gm(key, {**body(game, power, after=rule[0]), "time": to_iso(now)})
        out.append(game.log.append(replay.GM, now, signed))
    return out


def gm_line(entry: Entry | Noted, game_id: str) -> str:
    """The game master's mail when the cron job put a seat on autopilot."""
    b = entry.body
    return (f"{str(b['power']).capitalize()} sent no orders for {b['missed']} due steps in a "
            f"row in game {game_id}, so the referee put its seat on autopilot (config "
            f"abandoned: after {b['after']}; log entry {entry.seq}): its standing orders, or "
            "the game's default answer, are used and no step waits for it. Its player takes "
            "the seat back by sending orders; a new player takes it with pbem gm replace.\n")
