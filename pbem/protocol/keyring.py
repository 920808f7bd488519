"""The public keys registered per (game, power), usable as ``keys_for`` and by fingerprint.

Apart from pbem.protocol.orderdoc (which verifies with it) so that a process that only routes mail
(ingest of spam: pbem.host.ingest, pbem.host.rootindex) holds a keyring without importing the
signature code: the keys are parsed where a block is verified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.protocol.keys import PublicKey


class Keyring:
    """Public keys registered per (game, power); usable as ``keys_for`` and by fingerprint."""

    def __init__(self) -> None:
        self._by_power: dict[tuple[str, str], list[PublicKey]] = {}
        self._by_fingerprint: dict[str, PublicKey] = {}

    def add(self, game: str, power: str, key: PublicKey) -> None:
        keys = self._by_power.setdefault((game, power), [])
        if key not in keys:
            keys.append(key)
        self._by_fingerprint[key.fingerprint] = key

    def __call__(self, game: str, power: str) -> Sequence[PublicKey]:
        return tuple(self._by_power.get((game, power), ()))

    def by_fingerprint(self, fingerprint: str) -> PublicKey | None:
        return self._by_fingerprint.get(fingerprint)
