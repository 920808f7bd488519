"""The replay of a growing game log, carried from one step to the next.

``pbem.store.replay.replay`` rebuilds the state from genesis; a test that checks "the state is
the log's replay" after every step of a game would replay step 1 again at step 2, steps 1-2 at
step 3, and so on (quadratic in the steps). The log is append-only, so the replay of the log
after step n+1 is the replay after step n continued by the entries step n+1 appended. ``Replay``
keeps the replay's own fold open (``pbem.store.replay.Fold``), fed only the new entries; it
refuses a log whose folded prefix changed. A test still replays the whole log from genesis with
``replay.replay`` once at its end (``from_genesis``).
"""

from __future__ import annotations

from typing import Any

from pbem.game.plugin import GamePlugin
from pbem.store import replay
from pbem.store.gamedir import GameDir


class Replay:
    """The replay of one game's log so far (``state``), continued by ``to(game)``."""

    def __init__(self, plugin: GamePlugin, game: GameDir) -> None:
        genesis = game.log.entries[0]
        self.fold = replay.Fold(plugin, game.initial_state(plugin),
                                str(genesis.body.get("game_id", "")), replay.chance_key(game))
        self.folded = 1  # entries folded (the genesis)
        self.last = genesis.hash

    def to(self, game: GameDir) -> Any:
        """The state after every entry of ``game``'s log (the same as replay.replay's)."""
        entries = game.log.entries
        assert len(entries) >= self.folded and entries[self.folded - 1].hash == self.last, \
            f"{game.path}: the log changed below entry {self.folded} since it was replayed"
        state = self.fold.feed(entries[self.folded:])
        self.folded, self.last = len(entries), entries[-1].hash
        return state


def from_genesis(plugin: GamePlugin, game: GameDir) -> Any:
    """``replay.replay`` of the whole log from the genesis state."""
    return replay.replay(plugin, game.log.entries, game.initial_state(plugin),
                         replay.chance_key(game))
