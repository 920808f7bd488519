"""The player's vault: the secrets behind the player's commitments, kept on the player's machine.

A move to a secret value publishes only a commitment (pbem.protocol.commitment: a *slot*, the
turn and a *value*); the value and the nonce that open it stay here until the game needs them
revealed (4000 A.D.: ``pbem orders reveal`` copies a destination into the turn its ships
arrive). Lose this file and those values cannot be revealed (unless an escrow was sent).

File format 1.0 (JSON, mode 0600, written atomically: temp file, fsync, rename, fsync
directory); the fields are the generic ones, whatever the game calls them::

    {"pbem_vault": 1,
     "games": {"andromeda-7": {"algol": {"departures": [
        {"turn": 4, "slot": 1, "from": "Vega", "value": "Hamal",
         "nonce": "<64 hex>", "commitment": "<64 hex>"}]}}}}

A power's entry may also hold ``"chance": [{"seed": "<64 hex>", "tip": "<64 hex>"}]``: the
seeds of the player's hash chains for fair chance (pbem.chance.player), one per set-up, found by
the tip the game recorded. Lose the seed and the player contributes nothing to later steps' dice
(the game goes on without his value).

A power's entry may also hold ``"chance_last": {"step": S, "length": L}``: the last step whose
chain value ``pbem orders sign`` revealed (or, right after the set-up, the step the tip was
committed in), with the length of the log the referee's signed checkpoint claimed in the mail it
was signed from (null: signed from a bare view.json), and ``"chance_view": {"turn": T, "step": S,
"length": L, "setup": 0|1}``: the step the last view read for the power asked for (1: the set-up,
which commits the tip; step 0: that turn asks for nothing, a step that draws nothing), so a
file of that turn signed without ``--view`` gets its value too (or none). The tool never
reveals past what these and the view's checkpoint support (pbem.cli.entropy; docs/protocol.md,
"The player's tool never reveals ahead").

A power's entry may also hold ``"last_seq": N``, the highest seq ``pbem orders sign`` signed
for it (in any turn), so ``pbem orders new`` numbers a correction above a file already sent.

Default location: ``$PBEM_VAULT`` or ``~/.pbem/vault.json``.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pbem import atomic
from pbem.errors import PbemError
from pbem.protocol.commitment import is_hex64

VERSION = 1


class VaultError(PbemError):
    """The vault file cannot be read or written."""


@dataclass(frozen=True, slots=True)
class Departure:
    """One commitment and the secret that opens it, in the generic terms of
    pbem.protocol.commitment: the *slot* and the *value* committed on ``turn``, and where the
    move was made from (``from`` in the file)."""

    turn: int
    slot: int
    origin: str
    value: str
    nonce: str
    commitment: str

    def record(self) -> dict[str, Any]:
        data = asdict(self)
        data["from"] = data.pop("origin")
        return data

    @classmethod
    def from_record(cls, data: Any, where: str) -> Departure:
        try:
            dep = cls(
                turn=int(data["turn"]),
                slot=int(data["slot"]),
                origin=str(data["from"]),
                value=str(data["value"]),
                nonce=str(data["nonce"]),
                commitment=str(data["commitment"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise VaultError(f"{where}: a departure record is malformed ({exc})") from None
        if not (is_hex64(dep.nonce) and is_hex64(dep.commitment)):
            raise VaultError(f"{where}: nonce and commitment must be 64 lower-case hex digits")
        return dep


_MARKS = {"chance_last": ("step", "length"), "chance_view": ("turn", "step", "length", "setup")}
_NULLABLE = {"length"}


def _mark(record: object, where: str) -> dict[str, int | None]:
    """A chance record checked: the fields of its kind, whole numbers (``length`` may be
    null)."""
    name = where.rpartition(".")[2]
    fields = _MARKS.get(name, ())
    if not isinstance(record, dict) or set(record) != set(fields) or not all(
            (record[f] is None and f in _NULLABLE)
            or (type(record[f]) is int and record[f] >= 0) for f in fields):
        raise VaultError(f"{where} must hold {', '.join(fields)} as whole numbers")
    return {f: record[f] for f in fields}


def default_path() -> Path:
    env = os.environ.get("PBEM_VAULT")
    return Path(env) if env else Path.home() / ".pbem" / "vault.json"


class Vault:
    """The vault file's content; change it with ``add`` and persist with ``save``."""

    def __init__(self, path: Path, data: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self._games: dict[str, dict[str, list[Departure]]] = {}
        self._chance: dict[str, dict[str, list[dict[str, str]]]] = {}
        self._seqs: dict[tuple[str, str], int] = {}
        self._marks: dict[tuple[str, str, str], dict[str, int | None]] = {}
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
        except UnicodeDecodeError:
            raise VaultError(f"the vault {path} is not a vault (not UTF-8 text)") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise VaultError(f"the vault {path} is not valid JSON ({exc})") from None
        return cls(path, data)

    def _read(self, data: object) -> None:
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
                seeds = entry.get("chance", [])
                if not isinstance(seeds, list) or not all(
                    isinstance(r, dict) and is_hex64(r.get("seed")) and is_hex64(r.get("tip"))
                    for r in seeds
                ):
                    raise VaultError(f"{where}: chance must be a list of {{seed, tip}} records "
                                     "of 64 lower-case hex digits each")
                if seeds:
                    self._chance.setdefault(game, {})[power] = [
                        {"seed": r["seed"], "tip": r["tip"]} for r in seeds
                    ]
                for mark in _MARKS:
                    record = entry.get(mark) if isinstance(entry, dict) else None
                    if record is not None:
                        self._marks[(game, power, mark)] = _mark(record, f"{where}.{mark}")
                last = entry.get("last_seq") if isinstance(entry, dict) else None
                if last is not None:
                    if type(last) is not int or last < 0:
                        raise VaultError(f"{where}: last_seq must be a whole number")
                    self._seqs[(game, power)] = last

    def last_seq(self, game: str, power: str) -> int | None:
        """The highest seq signed for ``power`` in ``game`` with this vault, if any."""
        return self._seqs.get((game, power))

    def note_seq(self, game: str, power: str, seq: int) -> None:
        """Remember that a file with ``seq`` was signed (keeps the highest)."""
        self._seqs[(game, power)] = max(seq, self._seqs.get((game, power), -1))
        self._games.setdefault(game, {}).setdefault(power, [])

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

    def add_chance_seed(self, game: str, power: str, seed: str, tip: str) -> None:
        """Remember a fair-chance chain seed (hex) and its tip (a repeat is ignored)."""
        if not (is_hex64(seed) and is_hex64(tip)):
            raise VaultError("a chance seed and its tip must be 64 lower-case hex digits")
        entries = self._chance.setdefault(game, {}).setdefault(power, [])
        if all(e["tip"] != tip for e in entries):
            entries.append({"seed": seed, "tip": tip})

    def chance_seed(self, game: str, power: str, tip: str | None) -> str | None:
        """The seed (hex) whose chain has this tip, if this vault has it (``tip`` None: the
        latest seed kept for the game and power, so a corrected set-up file commits the same
        tip)."""
        entries = self._chance.get(game, {}).get(power, [])
        if tip is None:
            return entries[-1]["seed"] if entries else None
        return next((e["seed"] for e in entries if e["tip"] == tip), None)

    def chance_mark(self, game: str, power: str, mark: str) -> dict[str, int | None] | None:
        """The record ``mark`` ("chance_last" or "chance_view") of ``power`` in ``game``."""
        found = self._marks.get((game, power, mark))
        return dict(found) if found is not None else None

    def note_chance(self, game: str, power: str, mark: str, **record: int | None) -> None:
        """Replace the record ``mark`` of ``power`` in ``game`` (see the module's text)."""
        if mark not in _MARKS:
            raise VaultError(f"no chance record is called {mark!r}")
        self._marks[(game, power, mark)] = _mark(record, mark)

    def to_json(self) -> dict[str, Any]:
        games: dict[str, dict[str, Any]] = {
            game: {
                power: {"departures": [d.record() for d in deps]}
                for power, deps in powers.items()
            }
            for game, powers in self._games.items()
        }
        for game, powers in self._chance.items():
            for power, seeds in powers.items():
                entry = games.setdefault(game, {}).setdefault(power, {"departures": []})
                entry["chance"] = [dict(e) for e in seeds]
        for (game, power, mark), record in self._marks.items():
            games.setdefault(game, {}).setdefault(power, {"departures": []})[mark] = dict(record)
        for (game, power), last in self._seqs.items():
            games.setdefault(game, {}).setdefault(power, {"departures": []})["last_seq"] = last
        return {
            "pbem_vault": VERSION,
            "games": {game: dict(sorted(powers.items())) for game, powers in sorted(games.items())},
        }

    def save(self) -> None:
        """Write the vault atomically and durably (mode 0600: it holds secrets)."""
        data = (json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n").encode("utf-8")
        try:
            atomic.make_dirs(self.path.parent)
            atomic.write_bytes(self.path, data, mode=atomic.PRIVATE)
        except atomic.StorageError as exc:
            raise VaultError(f"cannot write the vault: {exc}") from None
