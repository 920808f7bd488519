"""The replay of a growing game log, carried from one step to the next.

``pbem.store.replay.replay`` rebuilds the state from genesis; a test that checks "the state is
the log's replay" after every step of a game would replay step 1 again at step 2, steps 1-2 at
step 3, and so on (quadratic in the steps). The log is append-only, so the replay of the log
after step n+1 is the replay after step n continued by the entries step n+1 appended. ``Replay``
keeps that fold open: the same loop as ``replay.replay`` (the same ``stand``, ``is_standing``,
``replay_resolution`` and ``apply_gm``, with the same step count and standing files), fed only
the new entries; it refuses a log whose folded prefix changed. A test still replays the whole
log from genesis with ``replay.replay`` once at its end (``from_genesis``), so the fold is
checked against the real function too.
"""

from __future__ import annotations

from typing import Any

from pbem.game.plugin import GamePlugin
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.records import LogBody
from pbem.store.summary import is_standing, stand


class Replay:
    """The replay of one game's log so far (``state``), continued by ``to(game)``."""

    def __init__(self, plugin: GamePlugin, game: GameDir) -> None:
        self.plugin = plugin
        self.k = replay.chance_key(game)
        self.state: Any = game.initial_state(plugin)
        genesis = game.log.entries[0]
        self.game_id = str(genesis.body.get("game_id", ""))
        self.standing: dict[str, LogBody] = {}
        self.kept: dict[str, LogBody] = {}
        self.step = 0
        self.folded = 1  # entries folded (the genesis)
        self.last = genesis.hash

    def to(self, game: GameDir) -> Any:
        """The state after every entry of ``game``'s log (the same as replay.replay's)."""
        entries = game.log.entries
        assert len(entries) >= self.folded and entries[self.folded - 1].hash == self.last, \
            f"{game.path}: the log changed below entry {self.folded} since it was replayed"
        for entry in entries[self.folded:]:
            if entry.kind == replay.ORDERS:
                stand(self.kept if is_standing(entry.body) else self.standing, entry.body)
            elif entry.kind == replay.RESOLVE:
                self.step += 1
                self.state = replay.replay_resolution(
                    self.plugin, self.state, self.standing, entry, game_id=self.game_id,
                    step=self.step, k=self.k, standing_files=self.kept).state
                self.standing = {}
            elif entry.kind == replay.GM:
                self.state = replay.apply_gm(self.plugin, self.state, entry)
            self.folded += 1
            self.last = entry.hash
        return self.state


def from_genesis(plugin: GamePlugin, game: GameDir) -> Any:
    """``replay.replay`` of the whole log from the genesis state."""
    return replay.replay(plugin, game.log.entries, game.initial_state(plugin),
                         replay.chance_key(game))
