"""The player's vault: the secrets behind the player's commitments, kept on the player's machine.

A departure to a secret destination publishes only a commitment; the destination and the nonce
that open it stay here until the fleet arrives (then ``pbem orders reveal`` copies them into that
turn's orders). Lose this file and those fleets cannot arrive (unless an escrow was sent).

File format (JSON, mode 0600, written atomically: temp file, fsync, rename, fsync directory)::

    {"pbem_vault": 1,
     "games": {"andromeda-7": {"algol": {"departures": [
        {"turn": 4, "warp": 1, "from": "Vega", "destination": "Hamal",
         "nonce": "<64 hex>", "commitment": "<64 hex>"}]}}}}

Default location: ``$PBEM_VAULT`` or ``~/.pbem/vault.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.protocol.commitment import is_hex64

VERSION = 1


class VaultError(PbemError):
    """The vault file cannot be read or written."""


@dataclass(frozen=True, slots=True)
class Departure:
    """One commitment and the secret that opens it. The record keeps 4000 A.D.'s field names
    (the file format is the players'); in the generic terms of pbem.protocol.commitment the
    warp is the *slot* and the destination the *value* (``slot``, ``value`` below)."""

    turn: int
    warp: int
    origin: str
    destination: str
    nonce: str
    commitment: str

    @property
    def slot(self) -> int:
        return self.warp

    @property
    def value(self) -> str:
        return self.destination

    def record(self) -> dict[str, Any]:
        data = asdict(self)
        data["from"] = data.pop("origin")
        return data

    @classmethod
    def from_record(cls, data: Any, where: str) -> Departure:
        try:
            dep = cls(
                turn=int(data["turn"]),
                warp=int(data["warp"]),
                origin=str(data["from"]),
                destination=str(data["destination"]),
                nonce=str(data["nonce"]),
                commitment=str(data["commitment"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise VaultError(f"{where}: a departure record is malformed ({exc})") from None
        if not (is_hex64(dep.nonce) and is_hex64(dep.commitment)):
            raise VaultError(f"{where}: nonce and commitment must be 64 lower-case hex digits")
        return dep


def default_path() -> Path:
    env = os.environ.get("PBEM_VAULT")
    return Path(env) if env else Path.home() / ".pbem" / "vault.json"


class Vault:
    """The vault file's content; change it with ``add`` and persist with ``save``."""

    def __init__(self, path: Path, data: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self._games: dict[str, dict[str, list[Departure]]] = {}
        if data is not None:
            self._read(data)

    @classmethod
    def load(cls, path: Path | None = None) -> Vault:
        """The vault at ``path`` (default: ``default_path()``); a missing file is an empty vault."""
        path = Path(path) if path is not None else default_path()
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except OSError as exc:
            raise VaultError(f"cannot read the vault {path}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise VaultError(f"the vault {path} is not valid JSON ({exc})") from None
        return cls(path, data)

    def _read(self, data: Any) -> None:
        if not isinstance(data, dict) or data.get("pbem_vault") != VERSION:
            raise VaultError(f"{self.path} is not a version-{VERSION} pbem vault")
        games = data.get("games", {})
        if not isinstance(games, dict):
            raise VaultError(f"{self.path}: games must be a mapping")
        for game, powers in games.items():
            for power, entry in (powers or {}).items():
                where = f"{self.path}: games.{game}.{power}"
                records = entry.get("departures", []) if isinstance(entry, dict) else None
                if not isinstance(records, list):
                    raise VaultError(f"{where}: departures must be a list")
                self._games.setdefault(game, {})[power] = [
                    Departure.from_record(r, where) for r in records
                ]

    def departures(self, game: str, power: str) -> list[Departure]:
        return list(self._games.get(game, {}).get(power, []))

    def add(self, game: str, power: str, departure: Departure) -> None:
        """Remember a departure (one entry per commitment; a repeat is ignored)."""
        entries = self._games.setdefault(game, {}).setdefault(power, [])
        if all(d.commitment != departure.commitment for d in entries):
            entries.append(departure)

    def find(self, game: str, power: str, commitment: str) -> Departure | None:
        """The departure whose commitment is ``commitment``, if this vault has it."""
        return next(
            (d for d in self.departures(game, power) if d.commitment == commitment), None
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "pbem_vault": VERSION,
            "games": {
                game: {
                    power: {"departures": [d.record() for d in deps]}
                    for power, deps in sorted(powers.items())
                }
                for game, powers in sorted(self._games.items())
            },
        }

    def save(self) -> None:
        """Write the vault atomically and durably (mode 0600: it holds secrets)."""
        data = (json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n").encode("utf-8")
        directory = self.path.parent
        tmp = directory / f".{self.path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
                os.replace(tmp, self.path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
            dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError as exc:
            raise VaultError(f"cannot write the vault {self.path}: {exc.strerror} "
                             "(the old vault is unchanged)") from None
