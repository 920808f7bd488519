"""One step's chance: the two seeds and ``StepChance``, the object a game's ``resolve`` receives.

    S_pub = SHA-256("pbem-random-v1" || field(game) || field(step) || field(r_t)
                    || for each due power p, sorted: field(p) || field(e_t of p, or empty))
    S_sec = SHA-256("pbem-random-secret-v1" || field(K) || field(S_pub))

``step`` is decimal ASCII; r_t and e_t are the 32 raw bytes; power names are UTF-8, sorted by
their bytes. A due power that sent no value (missed the deadline) contributes an empty field:
the seed is still defined and the game never waits for randomness.

Public draws (dice, who goes first) use S_pub, which every player can recompute from the report.
Hidden draws (shuffles, face-down deals) use S_sec, which needs K: the referee reveals K at the
game's end and the audit replays every hidden draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pbem.chance.chain import sha256
from pbem.chance.errors import ChanceError
from pbem.chance.stream import PUBLIC, SECRET, Draws, Stream, check_label
from pbem.framing import field

PUBLIC_TAG = b"pbem-random-v1"
SECRET_TAG = b"pbem-random-secret-v1"
BLOCK_VERSION = 1


def public_seed(game: str, step: int, referee: bytes,
                players: Mapping[str, bytes | None]) -> bytes:
    parts = [PUBLIC_TAG, field(game.encode("utf-8")), field(str(step).encode("ascii")),
             field(referee)]
    for name in sorted(players, key=lambda p: p.encode("utf-8")):
        parts += [field(name.encode("utf-8")), field(players[name] or b"")]
    return sha256(b"".join(parts))


def secret_seed(k: bytes, s_pub: bytes) -> bytes:
    return sha256(SECRET_TAG + field(k) + field(s_pub))


class StepChance:
    """The chance of one step, from its published inputs (and K for hidden draws).

    ``public(label)`` and ``secret(label)`` return that label's stream; asking again for a label
    continues the same stream (never restarts it), so two draws can never repeat each other by
    accident. ``draws`` records every draw made, in order.
    """

    def __init__(self, game: str, step: int, referee: bytes,
                 players: Mapping[str, bytes | None], k: bytes | None = None) -> None:
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise ChanceError(f"a drawing step is a whole number >= 1, not {step!r}")
        for name, value in players.items():
            if value is not None and len(value) != 32:
                raise ChanceError(f"{name}: a revealed value is 32 bytes, not {len(value)}")
        if len(referee) != 32:
            raise ChanceError(f"the referee's value is 32 bytes, not {len(referee)}")
        self.game, self.step, self.referee = game, step, referee
        self.players = dict(players)
        self.public_seed = public_seed(game, step, referee, self.players)
        self._secret_seed = secret_seed(k, self.public_seed) if k is not None else None
        self.draws = Draws()
        self._streams: dict[tuple[str, str], Stream] = {}

    def _stream(self, scope: str, seed: bytes, label: str) -> Stream:
        key = (scope, check_label(label))
        if key not in self._streams:
            self._streams[key] = Stream(seed, label, scope=scope, record=self.draws)
        return self._streams[key]

    def public(self, label: str) -> Stream:
        return self._stream(PUBLIC, self.public_seed, label)

    def secret(self, label: str) -> Stream:
        if self._secret_seed is None:
            raise ChanceError(f"secret stream {label!r}: hidden draws need the referee's secret "
                              "K (revealed at the game's end)")
        return self._stream(SECRET, self._secret_seed, label)

    @property
    def blocks_used(self) -> int:
        """SHA-256 blocks computed by this step's streams so far."""
        return sum(s.blocks_used for s in self._streams.values())

    def inputs(self) -> dict[str, Any]:
        """The public inputs, as a resolve entry records them: ``random: {referee, players}``."""
        return {"referee": self.referee.hex(),
                "players": {p: (v.hex() if v is not None else None)
                            for p, v in sorted(self.players.items())}}

    def published(self) -> dict[str, Any]:
        """The block a report carries: inputs, the public seed and every public draw."""
        return {"pbem_chance": BLOCK_VERSION, "game": self.game, "step": self.step,
                **self.inputs(), "public_seed": self.public_seed.hex(),
                "draws": self.draws.to_json(PUBLIC)}


if TYPE_CHECKING:
    # The contract games see (pbem.game.plugin's Chance and Stream protocols); this layer may
    # not import the game layer, so mypy checks here that StepChance fits it structurally.
    T = TypeVar("T")

    class _Stream(Protocol):
        def below(self, n: int) -> int: ...
        def roll(self, faces: Sequence[int], count: int = 1) -> list[int]: ...
        def shuffle(self, items: Sequence[T]) -> list[T]: ...

    class _Chance(Protocol):
        def public(self, label: str) -> _Stream: ...
        def secret(self, label: str) -> _Stream: ...

    def _fits(chance: StepChance) -> _Chance:
        return chance
