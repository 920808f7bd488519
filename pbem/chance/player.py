"""A player's side: a chain from a seed kept in the player's vault.

    x0    = SHA-256(s)           s: 32 random bytes, fresh for every (game, power) set-up
    T     = H^N(x0)              the tip, sent in the set-up step's order file
    e_t   = H^(N - t)(x0)        the value the order file for step t carries

The seed itself is never revealed (the chain starts at its hash). Steps are counted from the
game's start, whatever step the player joined at, so ``H^t(e_t) == T`` always holds, and the
referee checks each value against the player's last known one: ``H^(t - t')(e_t) == e_t'``.
"""

from __future__ import annotations

import functools
import secrets

from pbem.chance.chain import HashChain, N, check_chain, sha256
from pbem.chance.errors import ChanceError
from pbem.chance.kinds import Contribution

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def player_chain(seed: bytes, length: int = N) -> HashChain:
    if len(seed) != SEED_BYTES:
        raise ChanceError(f"a chance seed must be {SEED_BYTES} bytes, not {len(seed)}")
    return HashChain(sha256(seed), length)


@functools.lru_cache(maxsize=64)
def _kept_chain(seed: bytes) -> HashChain:
    """The seed's chain, kept for the process's life as the referee keeps his (pbem.store.chance):
    the first value walks N hashes, every later one of the same seed at most 255 (a process that
    signs for several steps or games: a bot, the tests). The seed is already in this process."""
    return player_chain(seed)


def player_tip(seed: bytes) -> bytes:
    return _kept_chain(seed).tip


def player_reveal(seed: bytes, step: int) -> bytes:
    """e_step, as ``pbem orders sign`` fills it in."""
    if step < 1:
        raise ChanceError(f"steps that draw count from 1, not {step}")
    return _kept_chain(seed).element(step)


def check_player_reveal(power: str, value: bytes, step: int, known: bytes,
                        known_step: int = 0) -> None:
    """Raise ChanceMismatch unless ``value`` (power's e_step) hashes to its last known value
    (its tip is step 0). The message names the power, for the rejection sent back."""
    check_chain(value, step, known, known_step, power)


def missing_sentence(power: str, need: str, step: int) -> str:
    """The one sentence refusing a file without its contribution."""
    what = ("your chance tip (entropy: {tip: …}), which this set-up step exists to commit"
            if need == Contribution.TIP else
            f"your chance value for step {step} (entropy: …), which every draw of this step "
            "needs")
    return (f"{power}: this file carries no entropy: it must carry {what}; sign it with "
            "`pbem orders sign FILE --key KEY --view view.json` (the view of your latest "
            "report or welcome mail), which fills it in")
