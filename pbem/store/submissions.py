"""Every order submission received, kept forever: ``GAMEDIR/submissions/turn-NNNN/POWER/``.

Each submission is two files named by its receipt time (UTC) and the first 12 hex digits of the
SHA-256 of its bytes::

  submissions/turn-0007/algol/20261130T170000Z-9c41ab12cd34.txt   the bytes as received
  submissions/turn-0007/algol/20261130T170000Z-9c41ab12cd34.json  the verdict (sidecar)

Neither is ever overwritten (they are created with ``link``, which fails if the name exists);
recording the same bytes at the same second again is a harmless no-op. The sidecar holds the
receipt time, the source message id, the verdict (``accepted`` or ``rejected``), the problems and
the order document's ``seq``. For each (turn, power) the accepted submission with the highest seq
wins (ties: the later receipt); its name is also written to ``ACCEPTED`` in the power's directory
for people browsing (the sidecars are what counts).
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem import atomic, canonical, staged, syncs
from pbem.errors import PbemError, Problem
from pbem.numbers import digits
from pbem.record import Record
from pbem.schedule import require_aware, to_iso
from pbem.store.kinds import Verdict

DIR_NAME = "submissions"
MARKER = "ACCEPTED"
VERDICTS = tuple(Verdict)
_POWER = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_NAME = re.compile(r"^\d{8}T\d{6}Z-[0-9a-f]{12}$")


class SubmissionError(PbemError):
    """A submission cannot be recorded or its record is damaged."""


class Submission(Record):
    __slots__ = ("turn", "power", "name", "path", "received", "sha256", "message_id", "verdict",
                 "problems", "seq")
    turn: int
    power: str
    name: str  # file stem: <received>-<sha12>
    path: Path  # the .txt file
    received: str  # ISO-8601 UTC
    sha256: str
    message_id: str | None
    verdict: str | None  # None: bytes stored, verdict not yet recorded (crash in between)
    problems: tuple[Problem, ...]
    seq: int | None

    def __init__(self,
                 turn: int, power: str, name: str, path: Path, received: str, sha256: str,
                 message_id: str | None, verdict: str | None, problems: tuple[Problem, ...],
                 seq: int | None) -> None:
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "received", received)
        object.__setattr__(self, "sha256", sha256)
        object.__setattr__(self, "message_id", message_id)
        object.__setattr__(self, "verdict", verdict)
        object.__setattr__(self, "problems", problems)
        object.__setattr__(self, "seq", seq)

    @property
    def accepted(self) -> bool:
        return self.verdict == Verdict.ACCEPTED

    def read(self) -> bytes:
        return self.path.read_bytes()


def turn_dir_name(turn: int) -> str:
    return f"turn-{turn:04d}"


def _stamp(when: datetime) -> str:
    return require_aware(when, "received").astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _problem(p: Problem | str) -> Problem:
    return p if isinstance(p, Problem) else Problem("rejected", "", str(p))


class SubmissionStore:
    def __init__(self, game_dir: Path | str) -> None:
        self.root = Path(game_dir) / DIR_NAME
        #: directories with new names not fsynced yet (``record(sync_dir=False)``; :meth:`sync`)
        self.unsynced: set[Path] = set()
        #: ACCEPTED pointers to write at :meth:`sync` (directory -> the submission it names)
        self._markers: dict[Path, Submission] = {}
        #: ``record(sync_dir=False)``'s files, written but put in place only by :meth:`sync`
        self._group = staged.Group()

    def dir_for(self, turn: int, power: str) -> Path:
        if type(turn) is not int or turn < 0:
            raise SubmissionError(f"turn must be a non-negative integer, not {turn!r}")
        if not isinstance(power, str) or not _POWER.match(power):
            raise SubmissionError(f"power {power!r} is not a power name")
        return self.root / turn_dir_name(turn) / power

    def record(
        self,
        *,
        turn: int,
        power: str,
        data: bytes,
        received: datetime,
        verdict: str,
        message_id: str | None = None,
        problems: Sequence[Problem | str] = (),
        seq: int | None = None,
        sync_dir: bool = True,
    ) -> Submission:
        """Store one received submission and its verdict (durably, never overwriting). The two
        files are written to temporary files and put in place by :meth:`sync`, at once unless
        ``sync_dir`` is false (ingest's group commit): then the caller calls it once for a
        batch of records, which fsyncs them all at once, puts them in place and fsyncs the new
        names (:meth:`recorded` sees them before)."""
        if verdict not in VERDICTS:
            raise SubmissionError(f"verdict must be accepted or rejected, not {verdict!r}")
        if verdict == Verdict.ACCEPTED and problems:
            raise SubmissionError("an accepted submission cannot carry problems")
        directory = self.dir_for(turn, power)
        sha = hashlib.sha256(data).hexdigest()
        name = f"{_stamp(received)}-{sha[:12]}"
        sidecar = {
            "file": f"{name}.txt",
            "message_id": message_id,
            "power": power,
            "problems": [
                {"code": p.code, "path": p.path, "message": p.message}
                for p in map(_problem, problems)
            ],
            "received": to_iso(received),
            "seq": seq,
            "sha256": sha,
            "turn": turn,
            "verdict": verdict,
        }
        new_dir = self._make_dirs(directory)
        self.unsynced.add(directory)
        self._group.add(directory / f"{name}.txt", data, create=True)
        self._group.add(directory / f"{name}.json", canonical.encode(sidecar) + b"\n",
                        create=True)
        mine = Submission(turn, power, name, directory / f"{name}.txt", to_iso(received),
                          sha, message_id, verdict, tuple(map(_problem, problems)), seq)
        if verdict == Verdict.ACCEPTED:
            # In a directory this call made, this record is the only one: it is the best.
            best = mine if new_dir else self._best_after(directory, mine)
            if best is not None:
                self._markers[directory] = best  # written once for the batch, at sync()
        if sync_dir:
            self.sync()
        return mine

    def _make_dirs(self, directory: Path) -> bool:
        """``mkdir -p``, each new directory's parent noted for :meth:`sync`; True if this call
        made ``directory`` itself (so it holds nothing yet)."""
        missing: list[Path] = []
        probe = directory
        while not probe.is_dir():
            missing.append(probe)
            probe = probe.parent
        made = False
        for new in reversed(missing):
            try:
                os.mkdir(new, atomic.PRIVATE_DIR)
                os.chmod(new, atomic.PRIVATE_DIR)
                made = new == directory
            except FileExistsError:
                if not new.is_dir():
                    raise
            except OSError as exc:
                raise atomic.storage_error(new, "create directory", exc) from None
            self.unsynced.add(new.parent)
        return made

    def recorded(self, turn: int, power: str, name: str) -> bool:
        """Whether the file ``name`` (e.g. ``STAMP-SHA12.json``) of ``turn`` and ``power`` is
        recorded: on disk, or written by this store for its next :meth:`sync`."""
        path = self.dir_for(turn, power) / name
        return path in self._group or path.exists()

    def sync(self) -> None:
        """Finish the records ``record(sync_dir=False)`` left (:func:`sync_all`)."""
        sync_all([self])

    def _best_after(self, directory: Path, new: Submission) -> Submission | None:
        """The accepted submission that counts once ``new`` is recorded: ``new`` against the
        one the marker names (one sidecar read, not every sidecar of the turn and power); the
        whole directory is read only when the marker is missing or does not name a readable
        accepted record. None if the marker need not change."""
        current = self._markers.get(directory)
        try:
            if current is None:
                marked = (directory / MARKER).read_text(encoding="ascii").strip()
                stem = marked.removesuffix(".txt")
                current = self._load(directory, stem) if _NAME.match(stem) else None
        except (OSError, UnicodeDecodeError, SubmissionError):
            current = None
        if current is None or not current.accepted:
            # (``new`` itself may not be in place yet: record(sync_dir=False))
            mine = [sub for sub in self.list(new.turn, new.power)
                    if sub.accepted and sub.name != new.name] + [new]
            return max(mine, key=_rank)
        return new if _rank(new) > _rank(current) else None

    def _load(self, directory: Path, name: str) -> Submission:
        txt = directory / f"{name}.txt"
        meta_path = directory / f"{name}.json"
        turn = int(directory.parent.name.removeprefix("turn-"))
        power = directory.name
        if not meta_path.exists():
            data = txt.read_bytes()
            stamp = datetime.strptime(name[:16], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
            return Submission(
                turn,
                power,
                name,
                txt,
                to_iso(stamp),
                hashlib.sha256(data).hexdigest(),
                None,
                None,
                (),
                None,
            )
        try:
            meta: dict[str, Any] = json.loads(meta_path.read_bytes())
            return Submission(
                turn,
                power,
                name,
                txt,
                meta["received"],
                meta["sha256"],
                meta["message_id"],
                meta["verdict"],
                tuple(Problem(p["code"], p["path"], p["message"]) for p in meta["problems"]),
                meta["seq"],
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise SubmissionError(f"{meta_path}: damaged submission record ({exc})") from None

    def list(self, turn: int, power: str | None = None) -> list[Submission]:
        """Every submission of ``turn`` (optionally one power's), oldest first."""
        turn_dir = self.root / turn_dir_name(turn)
        if not turn_dir.is_dir():
            return []
        dirs = [self.dir_for(turn, power)] if power else sorted(turn_dir.iterdir())
        out: list[Submission] = []
        for directory in dirs:
            if not directory.is_dir():
                continue
            names = {p.stem for p in directory.glob("*.txt") if _NAME.match(p.stem)}
            out.extend(self._load(directory, n) for n in names)
        out.sort(key=lambda s: (s.received, s.power, s.name))
        return out

    def accepted(self, turn: int) -> dict[str, Submission]:
        """For each power, the accepted submission that counts (highest seq, then latest)."""
        best: dict[str, Submission] = {}
        for sub in self.list(turn):
            if not sub.accepted:
                continue
            current = best.get(sub.power)
            if current is None or _rank(sub) > _rank(current):
                best[sub.power] = sub
        return best

    def turns(self) -> builtins.list[int]:
        if not self.root.is_dir():
            return []
        return sorted(n for p in self.root.glob("turn-*") if (n := digits(p.name[5:])) is not None)


def sync_all(stores: Sequence[SubmissionStore]) -> None:
    """Make the records of ``stores`` that ``record(sync_dir=False)`` left durable, in one
    step for every store (every game of an ingest round): each file fsynced (all at once,
    pbem.syncs) and then linked into place, the .txt before its .json verdict, never
    overwriting; then every directory with new names fsynced (together: each holds names of
    files or directories durable themselves, so the order does not matter); then the ACCEPTED
    pointers the batch changed (once per power, not once per file)."""
    try:
        staged.flush_groups([store._group for store in stores])
    except atomic.FileExists as exc:
        if exc.path is not None and exc.path.suffix == ".json":
            raise SubmissionError(f"{exc.path}: a different verdict is recorded already for "
                                  "this submission; verdicts are never overwritten") from None
        raise  # other bytes under a .txt's name: damage, named by the error itself
    syncs.fsync_dirs([d for store in stores for d in store.unsynced])
    for store in stores:
        store.unsynced.clear()
        for directory, best in store._markers.items():
            _write_marker(directory / MARKER, (best.name + ".txt\n").encode("ascii"))
        store._markers.clear()


def _write_marker(path: Path, data: bytes) -> None:
    """Replace the ACCEPTED pointer: written and renamed, never fsynced (it is for people
    browsing; a torn or stale one after a power cut is read as missing and rebuilt from the
    sidecars by the next accepted record)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        fd = atomic.open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        raise atomic.storage_error(path, "write", exc) from None


def _rank(sub: Submission) -> tuple[int, str, str]:
    return (sub.seq if sub.seq is not None else -1, sub.received, sub.name)
