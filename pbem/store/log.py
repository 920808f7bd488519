"""The game log: append-only, hash-chained JSON lines, the source of truth of a game.

Each line is the canonical JSON (sorted keys, no spaces) of one entry plus its hash::

  {"body":…,"hash":"<hex>","kind":"resolve","prev":"<hex>","seq":7,"time":"2026-11-30T17:00:00Z"}

* ``seq`` counts from 0 (the genesis entry, kind ``genesis``); ``prev`` is the hash of the entry
  before (``"0" * 64`` for genesis); ``time`` is an ISO-8601 UTC time given by the caller (the log
  never reads the clock); ``body`` is any JSON value.
* ``hash = SHA-256(b"pbem-log-v1\\0" || canonical JSON of the entry without "hash")``.
* Appending is one ``write`` of one line followed by ``fsync``: that is the commit point. A crash
  during it leaves at most an incomplete last line without a newline (a torn tail), which
  :func:`repair_torn_tail` drops; nothing else is ever removed or rewritten.

Reading verifies everything: each line is valid canonical JSON with exactly these fields, its hash
matches its content, seq counts up by one and prev is the previous hash. Any failure raises a
:class:`LogError` naming the line and seq and what was expected versus found.

Size: the hash-chained log (append, verify, torn-tail repair, incremental verification from the
trusted point) is one on-disk format; splitting would split its invariants.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, overload

from pbem import atomic, canonical
from pbem.errors import PbemError
from pbem.record import Record
from pbem.schedule import is_iso, parse_iso, to_iso
from pbem.store.kinds import EntryKind
from pbem.store.summary import Summary, summarize

if TYPE_CHECKING:
    from pbem.store.records import LogBody

DOMAIN = b"pbem-log-v1\0"
GENESIS_PREV = "0" * 64
GENESIS_KIND = EntryKind.GENESIS
FIELDS = frozenset({"seq", "prev", "kind", "time", "body", "hash"})
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_KIND = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
_KIND_MARK = b',"kind":"'


class LogError(PbemError):
    """The log is damaged; names the file, line and seq."""

    def __init__(self, source: str, line: int | None, seq: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.seq = seq
        where = source
        if line is not None:
            where += f" line {line}"
        if seq is not None:
            where += f" (seq {seq})"
        super().__init__(f"{where}: {message}")


class CorruptEntry(LogError):
    """A line is not a well-formed entry, or its content does not match its hash."""


class BrokenChain(LogError):
    """Entries are well-formed but out of sequence: wrong seq, wrong prev, duplicated, reordered."""


class TornTail(LogError):
    """The last line has no newline: an append was interrupted. ``repair_torn_tail`` drops it."""


class LogChanged(LogError):
    """The file changed between reading and appending (another writer without the lock)."""


class TimeGoesBackwards(LogError):
    """An entry's time is before the time of the entry it follows."""


def time_order_problem(before_seq: int, before_time: str, after_time: str) -> str | None:
    """Why an entry at ``after_time`` may not follow the entry ``before_seq`` at ``before_time``
    (None: it may). Log times never
    go backwards, so deadlines and "received" times read in log order stay meaningful; mixing
    ``--now`` with the real clock could otherwise write a turn that ends before it began."""
    if parse_iso(after_time) >= parse_iso(before_time):
        return None
    return (f"time {after_time} is before {before_time}, the time of the entry before it "
            f"(seq {before_seq}): log times must not go backwards")


class Head(NamedTuple):
    length: int
    hash: str


class Entry(Record):
    __slots__ = ("seq", "prev", "kind", "time", "body", "hash")
    seq: int
    prev: str
    kind: str
    time: str
    body: LogBody
    hash: str

    def __init__(self, seq: int, prev: str, kind: str, time: str, body: LogBody, hash: str) -> None:
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "prev", prev)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "time", time)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "hash", hash)

    def unhashed(self) -> LogBody:
        return {
            "body": self.body,
            "kind": self.kind,
            "prev": self.prev,
            "seq": self.seq,
            "time": self.time,
        }

    def data(self) -> LogBody:
        """The entry as stored: every field including ``hash``."""
        return {**self.unhashed(), "hash": self.hash}

    def line(self) -> bytes:
        """The exact bytes of this entry's line, newline included."""
        return canonical.encode(self.data()) + b"\n"


def entry_hash(seq: int, prev: str, kind: str, time: str, body: object) -> str:
    enc = canonical.encode({"body": body, "kind": kind, "prev": prev, "seq": seq, "time": time})
    return hashlib.sha256(DOMAIN + enc).hexdigest()


def make_entry(prev: Entry | None, kind: str, time: datetime | str, body: LogBody) -> Entry:
    """The entry that follows ``prev`` (``None``: the genesis entry)."""
    if not isinstance(kind, str) or not _KIND.match(kind):
        raise PbemError(f"log entry kind {kind!r} must be a lowercase word like 'resolve'")
    if (prev is None) != (kind == GENESIS_KIND):
        raise PbemError("the genesis entry is the first entry of a log, and only that")
    if isinstance(time, datetime):
        time = to_iso(time)
    elif not is_iso(time):
        raise PbemError(f"log entry time {time!r} must be an ISO-8601 UTC time ending in Z")
    seq = 0 if prev is None else prev.seq + 1
    prev_hash = GENESIS_PREV if prev is None else prev.hash
    try:
        digest = entry_hash(seq, prev_hash, kind, time, body)
    except (TypeError, ValueError) as exc:
        raise PbemError(f"log entry body of kind {kind!r} is not JSON data: {exc}") from None
    return Entry(seq, prev_hash, kind, time, body, digest)


# --- reading and verifying ----------------------------------------------------------------------


def load_line(raw: bytes, bad: Callable[[str], CorruptEntry]) -> Any:
    """The JSON value of one line (an entry, or an export's withheld record); the error ``bad``
    makes if it is not JSON. The one reader of a line's bytes for both parsers."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise bad(f"not valid JSON ({exc}); the line starts {raw[:40]!r}") from None


def _form_problem(obj: LogBody) -> tuple[str, int | None] | None:
    """Why a line's JSON object is not a well-formed entry (its message and the seq, if known),
    or None: the fields, seq, prev, hash, kind and time. One rule for both readers below."""
    maybe_seq = obj.get("seq")
    known_seq = maybe_seq if type(maybe_seq) is int else None
    if obj.keys() != FIELDS:
        missing = sorted(FIELDS - obj.keys())
        extra = sorted(obj.keys() - FIELDS)
        return f"wrong fields: missing {missing}, unexpected {extra}", known_seq
    seq, prev, kind, time, digest = obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["hash"]
    if type(seq) is not int or seq < 0:
        return f"seq must be a non-negative integer, found {seq!r}", None
    if not isinstance(prev, str) or not _HEX64.match(prev):
        return f"prev must be 64 lowercase hex digits, found {prev!r}", seq
    if not isinstance(digest, str) or not _HEX64.match(digest):
        return f"hash must be 64 lowercase hex digits, found {digest!r}", seq
    if not isinstance(kind, str) or not _KIND.match(kind):
        return f"kind must be a lowercase word, found {kind!r}", seq
    if not is_iso(time):
        return f"time must be an ISO-8601 UTC time, found {time!r}", seq
    return None


def _with_hash(enc: bytes, digest: str) -> bytes:
    """The line of an entry whose hashed encoding is ``enc``: kind, prev, seq and time are
    validated, so the last ',"kind":"' in enc is where "hash" goes."""
    cut = enc.rfind(_KIND_MARK) + 1
    return b"".join((enc[:cut], b'"hash":"', digest.encode(), b'",', enc[cut:]))


def _parse_line(raw: bytes, lineno: int, source: str) -> Entry:
    """One line's entry, verified: a padded entry read without its pad twice where it can be
    (:func:`_parse_padded`), else (and for every problem's words) :func:`_parse_plain`."""
    padded = _parse_padded(raw)
    return padded if padded is not None else _parse_plain(raw, lineno, source)


def _parse_plain(raw: bytes, lineno: int, source: str) -> Entry:
    def bad(message: str, seq: int | None = None) -> CorruptEntry:
        return CorruptEntry(source, lineno, seq, message)

    obj = load_line(raw, bad)
    if not isinstance(obj, dict):
        raise bad(f"expected a JSON object, found {type(obj).__name__}")
    problem = _form_problem(obj)
    if problem is not None:
        raise bad(*problem)
    seq, prev, kind, time, digest = obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["hash"]
    body = obj["body"]
    enc = canonical.encode({"body": body, "kind": kind, "prev": prev, "seq": seq, "time": time})
    computed = hashlib.sha256(DOMAIN + enc).hexdigest()
    if computed != digest:
        raise bad(
            f"content does not match its hash: stored {digest[:16]}…, computed "
            f"{computed[:16]}… (the entry was altered)",
            seq,
        )
    # The line must be exactly the canonical encoding, so every byte is covered by the hash and
    # no parser can read it differently (duplicate keys, escapes, spacing).
    if raw != _with_hash(enc, digest):
        raise bad("the line is not in canonical form (its bytes were altered)", seq)
    return Entry(seq, prev, kind, time, body, digest)


_PAD_KEY = b',"pad":"'
_PAD_MIN = 256  # a shorter pad is read as it is


def _unpadded(raw: bytes) -> tuple[bytes, int, int] | None:
    """(the line without its pad's spaces, where they were, how many) for a line whose last
    ``"pad"`` value is a long run of spaces (a padded entry: pbem.store.replay.padded), or
    None. Spaces inside a JSON string are its content only, so the line without them parses
    exactly as the line does, with that one string empty."""
    at = raw.rfind(_PAD_KEY)
    if at < 0:
        return None
    start = at + len(_PAD_KEY)
    end = raw.find(b'"', start)
    n = end - start
    if n < _PAD_MIN or raw[start:end] != b" " * n:  # (a compare: 10 times count's speed)
        return None
    return raw[:start] + raw[end:], start, n


def _padded_body(obj: object) -> LogBody | None:
    """The body of a parsed line whose body's own ``pad`` is the last "pad" key of the line
    (nothing after it in the canonical order can hold one: no mapping or list follows), or
    None."""
    if type(obj) is not dict or type(body := obj.get("body")) is not dict:
        return None
    if body.get("pad") != "" or any(type(v) in (dict, list) for k, v in body.items()
                                    if k > "pad"):
        return None
    return body


def _parse_padded(raw: bytes) -> Entry | None:
    """:func:`_parse_line` of a padded entry without reading its pad twice: the line is parsed
    and checked for canonical form without the pad's spaces, then hashed whole. Exactly the
    entry _parse_line gives, or None (then _parse_line reads the line as it is, and names any
    problem)."""
    found = _unpadded(raw)
    if found is None:
        return None
    short, start, n = found
    try:
        obj = json.loads(short)
    except (ValueError, UnicodeDecodeError):
        return None
    body = _padded_body(obj)
    if body is None or _form_problem(obj) is not None:
        return None
    seq, prev, kind, time, digest = obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["hash"]
    enc = canonical.encode({"body": body, "kind": kind, "prev": prev, "seq": seq, "time": time})
    if short != _with_hash(enc, digest):
        return None  # not canonical: _parse_line names it
    # The line is canonical with the spaces back in the body's pad (a string of spaces encodes
    # as itself), and its hashed bytes are enc with them back at the same place.
    # The body comes first in enc as in the line, so the pad's place in enc is ``start``.
    hashed = hashlib.sha256(DOMAIN)
    hashed.update(enc[:start])
    hashed.update(raw[start:start + n])
    hashed.update(enc[start:])
    if hashed.hexdigest() != digest:
        return None
    body["pad"] = " " * n
    return Entry(seq, prev, kind, time, body, digest)


def parse_entry(raw: bytes, lineno: int, source: str = "log") -> Entry:
    """Parse and verify one complete line on its own (form and hash; not its place in a chain).
    Raises CorruptEntry naming ``source``, ``lineno`` and the seq."""
    return _parse_line(raw, lineno, source)


def parse_lines(lines: Iterable[bytes], source: str = "log", *, start: int = 0,
                prev: str = GENESIS_PREV) -> list[Entry]:
    """Parse and verify complete lines (without their newlines) into a verified chain; with
    ``start`` and ``prev``, the lines continue a chain whose entry ``start - 1`` has hash
    ``prev`` (the tail after a trusted point)."""
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    chain = Linker(source, start=start, prev=prev)
    for index, raw in enumerate(lines, start):
        lineno = index + 1
        entry = _parse_line(raw, lineno, source)
        chain.link(entry, lineno, seen.get)
        seen[entry.hash] = lineno
        entries.append(entry)
    return entries


class Linked(Protocol):
    """What the chain rules read of an entry (or of an export's withheld record)."""

    @property
    def seq(self) -> int: ...
    @property
    def prev(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def time(self) -> str: ...
    @property
    def hash(self) -> str: ...


class Linker:
    """The chain rules, one entry at a time, so a reader need not hold the chain to verify it:
    seq counts up from ``start``, prev is the hash of the entry before, the genesis entry is the
    first and only the first; with ``times`` (the audit), times never go backwards. Holds only
    the last entry's seq, hash and time."""

    __slots__ = ("source", "index", "prev", "times", "_last")

    def __init__(self, source: str, *, start: int = 0, prev: str = GENESIS_PREV,
                 times: bool = False) -> None:
        self.source = source
        self.index = start  # the seq the next entry must have
        self.prev = prev
        self.times = times
        self._last: tuple[int, str, datetime] | None = None

    def link(self, entry: Linked, lineno: int,
             duplicate: Callable[[str], int | None]) -> None:
        """Raise BrokenChain unless ``entry`` (file line ``lineno``) follows the entries before;
        ``duplicate(hash)`` finds the line of an earlier entry with that hash (asked only when
        the seq is wrong, to name a duplicated line)."""
        index, source = self.index, self.source
        if entry.seq != index:
            line = duplicate(entry.hash)
            if line is not None:
                msg = (f"duplicate of line {line}: expected seq {index}, "
                       f"found seq {entry.seq} again")
            elif entry.seq < index:
                msg = f"expected seq {index}, found seq {entry.seq} (entries reordered or replaced)"
            else:
                msg = f"expected seq {index}, found seq {entry.seq} (entries missing or reordered)"
            raise BrokenChain(source, lineno, entry.seq, msg)
        if entry.prev != self.prev:
            raise BrokenChain(source, lineno, entry.seq,
                              f"prev is {entry.prev[:16]}…, but the entry before has hash "
                              f"{self.prev[:16]}… (the chain is broken)")
        if (entry.kind == GENESIS_KIND) != (index == 0):
            want = "the first entry must be" if index == 0 else "only the first entry may be"
            raise BrokenChain(source, lineno, entry.seq,
                              f"{want} of kind {GENESIS_KIND.value!r}, found {entry.kind!r}")
        if self.times:
            when = parse_iso(entry.time)
            last = self._last
            if last is not None and when < last[2]:
                raise BrokenChain(source, lineno, entry.seq,
                                  time_order_problem(last[0], last[1], entry.time) or "")
            self._last = (entry.seq, entry.time, when)
        self.prev = entry.hash
        self.index = index + 1


def parse_log(data: bytes, source: str = "log") -> list[Entry]:
    """Verify a whole log file's bytes. Raises TornTail if the last line lacks its newline."""
    if not data:
        raise CorruptEntry(source, None, None, "the log is empty: no genesis entry")
    lines = data.split(b"\n")
    tail = lines.pop()
    if tail:
        entries = parse_lines(lines, source)
        raise TornTail(
            source,
            len(lines) + 1,
            None,
            f"the last line is incomplete ({len(tail)} bytes without a newline): an "
            f"append was interrupted after seq {len(entries) - 1}; repair_torn_tail() "
            f"drops it",
        )
    return parse_lines(lines, source)


def head_of(entries: Sequence[Entry]) -> Head:
    return Head(len(entries), entries[-1].hash if entries else GENESIS_PREV)


# --- the log file -------------------------------------------------------------------------------


class Untrusted(LogError):
    """The log does not continue the trusted point it was opened from (shorter, or different at
    or below it): the caller verifies the whole log instead."""


class TrustedPoint(Record):
    """A verified prefix of the log: its entry count, byte length, head hash, where its last
    line starts, where the genesis line ends and the genesis hash, and the running summary."""

    __slots__ = ("entries", "offset", "head", "last_start", "genesis_end", "genesis_hash",
                 "summary")
    entries: int
    offset: int
    head: str
    last_start: int
    genesis_end: int
    genesis_hash: str
    summary: LogBody

    def __init__(self, entries: int, offset: int, head: str, last_start: int, genesis_end: int,
                 genesis_hash: str, summary: LogBody) -> None:
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "last_start", last_start)
        object.__setattr__(self, "genesis_end", genesis_end)
        object.__setattr__(self, "genesis_hash", genesis_hash)
        object.__setattr__(self, "summary", summary)


def _unverified(raw: bytes) -> Entry:
    obj = json.loads(raw)
    return Entry(obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["body"], obj["hash"])


def verified_entry(raw: bytes) -> Entry:
    """A line that :func:`parse_entry` accepted before (elsewhere: the audit verifies lines in
    worker processes), read again without re-hashing."""
    return _unverified(raw)


class GameLog:
    """A verified log file open for appending. Hold the game lock while appending.

    Opened from a trusted point (:meth:`load_trusted`) only the genesis line, the trusted
    point's last line and the lines after it are read and verified; the entries in between were
    verified when the point was made and are read (without re-hashing) only if something asks
    for them. ``summary`` is kept current through every entry, appended ones included."""

    def __init__(self, path: Path, entries: list[Entry], size: int, *,
                 summary: Summary | None = None) -> None:
        self.path = path
        self._entries = entries
        self._size = size
        self._base = 0  # entries 1 .. _base-1 not read yet (lazy), _entries[0] is genesis
        self._genesis = entries[0]
        self._prefix: tuple[int, int, Entry] | None = None
        self._summary = summary
        self._staged: list[bytes] = []  # lines of staged entries (stage / commit)
        # bytes of the lines read or written, newline included, by seq (what a trusted point
        # measures; an entry not here is encoded again to measure it)
        self._line_len: dict[int, int] = {}

    @property
    def summary(self) -> Summary:
        """The running summary at the head (folded over every entry on first use when the log
        was verified whole; kept current by :meth:`append`)."""
        if self._summary is None:
            self._summary = summarize(self.entries)
        return self._summary

    @classmethod
    def load_trusted(cls, path: Path | str, point: TrustedPoint) -> GameLog:
        """Open the log from a verified trusted point: raises Untrusted when the file is shorter
        than the point or differs at its genesis or its last line, TornTail for an
        interrupted append after it, and any LogError for damage after it. The log takes the
        point's summary over (the point is one read for this open: pbem.store.trusted.read)."""
        path = Path(path)
        source = str(path)
        try:
            with open(path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size < point.offset:
                    raise Untrusted(source, None, None,
                                    f"the log is {size} bytes, shorter than the {point.offset} "
                                    f"bytes ({point.entries} entries) verified before")
                first = fh.read(point.genesis_end)
                fh.seek(point.last_start)
                rest = fh.read()
        except FileNotFoundError:
            raise CorruptEntry(source, None, None, "no log file") from None
        except OSError as exc:
            raise atomic.storage_error(path, "read", exc) from None
        if not first.endswith(b"\n"):
            raise Untrusted(source, 1, 0, "the genesis line is not where it was verified")
        try:
            genesis = _parse_line(first[:-1], 1, source)
        except CorruptEntry as exc:
            raise Untrusted(source, 1, 0, f"the genesis line changed: {exc}") from None
        if genesis.seq != 0 or genesis.hash != point.genesis_hash:
            raise Untrusted(source, 1, 0, "the genesis entry is not the one verified before")
        cut = point.offset - point.last_start
        last_seq = point.entries - 1
        if cut <= 0 or len(rest) < cut or rest[cut - 1:cut] != b"\n":
            raise Untrusted(source, point.entries, last_seq,
                            "the last verified line is not where it was")
        try:
            last = _parse_line(rest[:cut - 1], point.entries, source)
        except CorruptEntry as exc:
            raise Untrusted(source, point.entries, last_seq,
                            f"the last verified line changed: {exc}") from None
        if last.seq != last_seq or last.hash != point.head:
            raise Untrusted(source, point.entries, last_seq,
                            "the last verified entry is not the one verified before")
        lines = rest[cut:].split(b"\n")
        torn = lines.pop()
        tail = parse_lines(lines, source, start=point.entries, prev=point.head)
        if torn:
            raise TornTail(source, point.entries + len(tail) + 1, None,
                           f"the last line is incomplete ({len(torn)} bytes without a newline):"
                           f" an append was interrupted after seq {last_seq + len(tail)}; "
                           f"repair_torn_tail() drops it")
        try:
            # the point was read from its file for this open (pbem.store.trusted.read)
            summary = Summary.from_data(point.summary, owned=True)
        except (TypeError, ValueError) as exc:
            raise Untrusted(source, None, None, f"the stored summary is unusable: {exc}") from None
        if summary.seq != last_seq:
            raise Untrusted(source, None, None, "the stored summary is not at the trusted point")
        for entry in tail:
            summary.fold(entry)
        kept = [genesis] + ([last] if point.entries > 1 else []) + tail
        log = cls(path, kept, size, summary=summary)
        log._line_len = {0: point.genesis_end, last_seq: cut}
        for entry, raw in zip(tail, lines, strict=True):
            log._line_len[entry.seq] = len(raw) + 1
        if point.entries > 2:
            log._base = point.entries - 1
            log._prefix = (point.genesis_end, point.last_start, last)
        return log

    def _load_prefix(self) -> None:
        """Read the entries between the genesis and the trusted point's last entry (verified
        when the point was made): parsed, not re-hashed; their count and their link to the
        last verified entry are checked."""
        if not self._base or self._prefix is None:
            return
        start, end, last = self._prefix
        source = str(self.path)
        try:
            with open(self.path, "rb") as fh:
                fh.seek(start)
                data = fh.read(end - start)
        except OSError as exc:
            raise atomic.storage_error(self.path, "read", exc) from None
        lines = data.split(b"\n")
        if lines.pop():
            raise LogError(source, None, None, "the log changed below its verified point")
        try:
            middle = [_unverified(raw) for raw in lines]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise LogError(source, None, None, "the log changed below its verified point") from None
        expected = self._base - 1
        if len(middle) != expected or (middle and middle[-1].hash != last.prev) or (
                not middle and last.prev != self._genesis.hash):
            raise LogError(source, None, None, "the log changed below its verified point")
        self._entries[1:1] = middle
        self._base = 0

    def trusted_point(self, *, shared: bool = False) -> TrustedPoint:
        """The point this log is verified to now (its whole length), with its summary (with
        ``shared``, the summary's own parts: for a point encoded at once, never kept)."""
        last_start = self._size - self._line_bytes(self._entries[-1])
        return TrustedPoint(
            entries=len(self), offset=self._size, head=self.head.hash, last_start=last_start,
            genesis_end=self._line_bytes(self._genesis), genesis_hash=self._genesis.hash,
            summary=self.summary.as_data() if shared else self.summary.to_data())

    def _line_bytes(self, entry: Entry) -> int:
        """len(entry.line()), from its line as read or written where this log has it (the
        genesis and the last entry of a game-turn: 12 and 19 us to encode again)."""
        known = self._line_len.get(entry.seq)
        return known if known is not None else len(entry.line())

    @property
    def size(self) -> int:
        """The bytes of the log verified and appended so far (the trusted point's offset)."""
        return self._size

    @classmethod
    def load(cls, path: Path | str) -> GameLog:
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise CorruptEntry(str(path), None, None, "no log file") from None
        except OSError as exc:
            raise atomic.storage_error(path, "read", exc) from None
        return cls(path, parse_log(data, str(path)), len(data))

    @classmethod
    def create(cls, path: Path | str, time: datetime | str, body: LogBody) -> GameLog:
        """Start a new log holding only its genesis entry; the file must not exist."""
        path = Path(path)
        genesis = make_entry(None, GENESIS_KIND, time, body)
        line = genesis.line()
        if not atomic.create_bytes(path, line):
            raise LogChanged(str(path), None, None, "a log exists already")
        return cls(path, [genesis], len(line))

    @property
    def entries(self) -> Sequence[Entry]:
        """The entries as they are now (later appends do not show): a view that reads the
        entries below a trusted point only when a scan reaches them, so scans from the end
        (the standing orders, the last resolution) stay cheap."""
        return _EntriesView(self, len(self))

    def __len__(self) -> int:
        return len(self._entries) + max(self._base - 1, 0)

    def __getitem__(self, seq: int) -> Entry:
        if seq == 0:
            return self._genesis
        if self._base and 0 < seq < self._base:
            self._load_prefix()
        elif self._base and seq >= self._base:
            return self._entries[seq - self._base + 1]
        elif self._base and seq < 0 and -seq <= len(self._entries) - 1:
            return self._entries[seq]
        self._load_prefix()
        return self._entries[seq]

    @property
    def head(self) -> Head:
        return Head(len(self), self._entries[-1].hash)

    @property
    def genesis(self) -> Entry:
        return self._genesis

    def append(self, kind: str, time: datetime | str, body: LogBody) -> Entry:
        """Append one entry durably (one write + fsync: the commit point) and return it.
        Refused (TimeGoesBackwards) if ``time`` is before the last entry's time."""
        self.commit()  # staged entries come first (they hold the chain up to here)
        entry = make_entry(self._entries[-1], kind, time, body)
        last = self._entries[-1]
        why = time_order_problem(last.seq, last.time, entry.time)
        if why is not None:
            raise TimeGoesBackwards(
                str(self.path), None, entry.seq,
                f"cannot append this {kind} entry: {why} (was --now given a time earlier than "
                f"a previous run's?)")
        line = entry.line()
        self._line_len[entry.seq] = len(line)
        try:
            self._size = atomic.append_bytes(self.path, line, expect_size=self._size)
        except atomic.FileChanged:
            raise LogChanged(
                str(self.path),
                None,
                None,
                f"the log changed since it was read (expected {self._size} bytes); "
                f"is another process writing without the lock?",
            ) from None
        self._entries.append(entry)
        if self._summary is not None:
            self._summary.fold(entry)
        return entry

    def stage(self, kind: str, time: datetime | str, body: LogBody) -> Entry:
        """Add one entry in memory only (every read sees it at once); :meth:`commit` writes
        every staged entry with one write and one fsync — group commit, for ingest's batches.
        Nothing is on disk until then: a crash before it loses the staged entries whole (the
        file holds at most a torn last line, as for :meth:`append`)."""
        entry = make_entry(self._entries[-1], kind, time, body)
        last = self._entries[-1]
        why = time_order_problem(last.seq, last.time, entry.time)
        if why is not None:
            raise TimeGoesBackwards(str(self.path), None, entry.seq,
                                    f"cannot append this {kind} entry: {why}")
        self._staged.append(entry.line())
        self._line_len[entry.seq] = len(self._staged[-1])
        self._entries.append(entry)
        if self._summary is not None:
            self._summary.fold(entry)
        return entry

    @property
    def staged(self) -> int:
        """How many staged entries :meth:`commit` has yet to write."""
        return len(self._staged)

    def commit(self) -> None:
        """Write the staged entries (one write, one fsync: the commit point of all of them)."""
        if not self._staged:
            return
        data = b"".join(self._staged)
        try:
            self._size = atomic.append_bytes(self.path, data, expect_size=self._size)
        except atomic.FileChanged:
            raise LogChanged(str(self.path), None, None,
                             f"the log changed since it was read (expected {self._size} "
                             "bytes); is another process writing without the lock?") from None
        self._staged.clear()


class _EntriesView(Sequence[Entry]):
    """A fixed-length view of a GameLog's entries (append-only, so it is a snapshot)."""

    def __init__(self, log: GameLog, length: int) -> None:
        self._log = log
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Entry: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Entry, ...]: ...

    def __getitem__(self, index: int | slice) -> Entry | tuple[Entry, ...]:
        if isinstance(index, slice):
            return tuple(self._log[i] for i in range(*index.indices(self._length)))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("log entry index out of range")
        return self._log[index]

    def __iter__(self) -> Iterator[Entry]:
        self._log._load_prefix()
        return iter(self._log._entries[: self._length])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def repair_torn_tail(path: Path | str) -> bytes:
    """Drop an incomplete final line (no newline) and return the dropped bytes (b"" if none).

    Nothing else is ever removed: a complete line, however damaged, is left for the verifier to
    report.
    """
    path = Path(path)
    try:
        with open(path, "r+b") as fh:
            data = fh.read()
            if not data or data.endswith(b"\n"):
                return b""
            keep = data.rfind(b"\n") + 1
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
            return data[keep:]
    except OSError as exc:
        raise atomic.storage_error(path, "repair", exc) from None
