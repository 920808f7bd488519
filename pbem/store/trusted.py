"""The trusted point of a game: how far its log was verified, MAC'd so a visit can skip it.

``GAME/trusted.json`` holds a MAC (hex) on its first line, then ``{"point": …, "idle": …}``:

* ``point`` — a :class:`~pbem.store.log.TrustedPoint`: the entry count, byte length and head hash
  of the log as last verified, where its last line starts, the genesis line's end and hash, and
  the running summary (clock, standing orders, missed turns, keys) at that entry. A visit then
  verifies only the genesis line, the point's last line and the entries after it
  (``GameLog.load_trusted``), so its cost does not grow with the game's history.
* ``idle`` — the "next due" hint (or null): written by ``pbem run`` at the end of a visit that
  found nothing to do. It records the marks of the log and config.yaml, the names of the pending
  mail, the status and the first time anything could become due (pbem.host.duelist, which also
  gathers every game's hint in one root file). While all of them still hold, an idle visit
  reads this one file and a few ``stat`` results and stops.
* the MAC — HMAC-SHA256 over the game id, a NUL and the bytes after the first line, with a key
  derived from ROOT/referee.key under the label ``pbem-trusted-point-v1`` (pbem.store.hints, the
  one MAC of every hint file): whoever cannot read the referee key cannot forge a trusted
  point, and one game's file does not fit another game.

Never trusted over the log: a missing, torn, unreadable or badly MAC'd file is ignored (full
verification, then a new file); a MAC-valid point that the log does not continue — the log is
shorter, or its genesis line or the point's last line changed — means the log was truncated or
rewritten below a point pbem had verified, and opening the game fails (``GameDir.open``).
``pbem audit`` and ``pbem export`` always verify the whole chain.

Durability: the file is a cache. It is written by the holder of the game's lock (``pbem run``
after a visit, ingest after accepting orders), without fsync: rewritten in place
(``hints.rewrite``; the first one, or anything but a plain file of one link, to a temporary
name and renamed). After a crash it is either the old file, the new one, missing, or torn (new
bytes over old, cut short, or lost on power loss) — the last two fail the MAC and cost one full
verification. An old file is still a true statement about a prefix of the log, since the log
only grows. A reader without the lock that comes upon a rewrite half done sees a torn file too:
it verifies the whole log (or visits the game), never trusts the mix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import canonical
from pbem.store import hints

if TYPE_CHECKING:  # (the due list reads the key without the log's code: pbem.host.duelist)
    from pbem.store.log import GameLog, TrustedPoint

NAME = "trusted.json"
_INFO = b"pbem-trusted-point-v1"


def mac_key(root: Path) -> bytes | None:
    """The MAC key of ``root``'s trusted points (None when it has no readable referee key)."""
    return hints.key(root, _INFO)


def read(game_dir: Path) -> tuple[TrustedPoint | None, dict[str, Any] | None]:
    """The game's trusted point and idle hint, or (None, None) if there is no file or it fails
    its MAC or its form (then the caller verifies the whole log)."""
    key = mac_key(game_dir.parent)
    if key is None:
        return None, None
    try:
        payload = hints.read(game_dir / NAME, key, game_dir.name)
    except hints.Unfit:
        return None, None
    if payload is None:
        return None, None
    from pbem.store.log import TrustedPoint

    try:
        data = json.loads(payload)
        point, idle = data["point"], data["idle"]
        return TrustedPoint(**point), idle if isinstance(idle, dict) else None
    except (ValueError, KeyError, TypeError):
        return None, None


def save(game_dir: Path, log: GameLog, idle: dict[str, Any] | None = None) -> None:
    """Record that ``log`` is verified to its end (and the idle hint). Hold the game's lock.
    Best effort: a failure to write costs the next visit one full verification, nothing else."""
    key = mac_key(game_dir.parent)
    if key is None:
        return
    point = log.trusted_point(shared=True)  # encoded here: no copy of the summary
    fields = {name: getattr(point, name) for name in point.__slots__}
    payload = canonical.encode({"point": fields, "idle": idle})
    hints.rewrite(game_dir / NAME, key, game_dir.name, payload)
