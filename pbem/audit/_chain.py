"""Reading the entry lines of an export or log into a verified chain of records: whole entries
(re-hashed) and withheld records (hash finished from their SHA-256 midstate)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem import canonical
from pbem.audit import sha256mid
from pbem.audit.export import RECORD_FIELDS, WITHHELD_KINDS, Header, record_hash
from pbem.schedule import is_iso
from pbem.store import log as glog
from pbem.store.log import CorruptEntry, Entry
from pbem.store.replay import ORDERS

if TYPE_CHECKING:
    from pbem.game.shapes import GameView
    from pbem.store.records import LogBody

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True, slots=True)
class Withheld:
    """A withheld entry of a public export: its place in the chain, what was left out, and the
    public claims the referee signed with the export."""

    seq: int
    prev: str
    kind: str
    time: str
    hash: str
    fields: list[str]
    public: GameView
    linked: bool  # its hash was finished from a midstate (else it is the referee's claim)


Record = Entry | Withheld


def _need(condition: object) -> None:
    if not condition:
        raise ValueError("malformed")


def _parse_withheld(raw: bytes, lineno: int, source: str, header: Header | None) -> Withheld:
    def bad(message: str, seq: int | None = None) -> CorruptEntry:
        return CorruptEntry(source, lineno, seq, message)

    obj = glog.load_line(raw, bad)
    if not isinstance(obj, dict) or obj.keys() != RECORD_FIELDS:
        found = sorted(obj) if isinstance(obj, dict) else type(obj).__name__
        raise bad(f"neither a log entry nor a withheld record (fields {found})")
    seq, prev, kind, time, digest = obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["hash"]
    if type(seq) is not int or seq < 0:
        raise bad(f"seq must be a non-negative integer, found {seq!r}")
    if canonical.encode(obj) != raw:
        raise bad("the line is not in canonical form (its bytes were altered)", seq)
    if header is None or not header.public:
        raise bad("a withheld record in a file that is not a public export", seq)
    signed = header.withheld.get(seq)
    if signed is None or signed != hashlib.sha256(raw + b"\n").hexdigest():
        raise bad("this withheld record is not the one the referee signed in the header (its "
                  "fields, public claims or midstate were changed)", seq)
    held = obj["withheld"]
    try:
        _need(isinstance(prev, str) and _HEX64.match(prev) and isinstance(digest, str))
        _need(kind in WITHHELD_KINDS and is_iso(time))
        _need(isinstance(held, dict) and held.keys() == {"fields", "public", "sha256"})
        _need(isinstance(held["fields"], list) and isinstance(held["public"], dict))
        _need(isinstance(digest, str) and _HEX64.match(digest))
        sha = held["sha256"]
        mid = None
        if sha is not None or kind == ORDERS:  # order files always carry their midstate
            _need(isinstance(sha, dict) and sha.keys() == {"state", "length", "tail"})
            _need(type(sha["length"]) is int and isinstance(sha["state"], str))
            _need(isinstance(sha["tail"], str))
            mid = sha256mid.from_hex(sha["state"], sha["length"], bytes.fromhex(sha["tail"]))
    except ValueError:
        raise bad("malformed withheld record (prev, kind, time or sha256 midstate)", seq) from None
    if mid is not None and record_hash(mid, kind, prev, seq, time) != digest:
        raise bad("its hash does not follow from its midstate, kind, prev, seq and time (the "
                  "record was altered)", seq)
    return Withheld(seq, prev, kind, time, digest, list(held["fields"]), dict(held["public"]),
                    mid is not None)


class ChainReader:
    """Verifies the entry lines of an export or log one at a time, in order (seq, prev, genesis
    first, times, each line's form and hash; withheld records against the header), holding
    only the last link: the audit streams a log of any length through it.

    ``duplicate(hash, lineno)`` finds the file line of an earlier entry with that hash (asked
    only when a seq is wrong, to name a duplicated line: the reader keeps no index)."""

    def __init__(self, source: str, first_line: int, header: Header | None,
                 duplicate: Callable[[str, int], int | None]) -> None:
        self.source = source
        self.first_line = first_line
        self.header = header
        self.count = 0
        self.head = glog.GENESIS_PREV
        self._linker = glog.Linker(source, times=True)
        self._duplicate = duplicate
        self._withheld: set[int] = set()

    def record(self, raw: bytes, verified: bool = False,
               parsed: tuple[int, str, str, str, LogBody, str] | None = None) -> Record:
        """The next line's record, verified and linked (LogError names the line and seq);
        ``verified``: a worker has parsed and hashed this whole-entry line already, and
        ``parsed`` holds the entry's fields as it read them (then the line is not read again)."""
        lineno = self.first_line + self.count
        record: Record
        if raw.startswith(b'{"body":'):
            if not verified:
                record = glog.parse_entry(raw, lineno, self.source)
            else:
                record = glog.verified_entry(raw) if parsed is None else Entry(*parsed)
        else:
            record = _parse_withheld(raw, lineno, self.source, self.header)
            self._withheld.add(record.seq)
        self._linker.link(record, lineno, lambda digest: self._duplicate(digest, lineno))
        self.count += 1
        self.head = record.hash
        return record

    def finish(self) -> None:
        """After the last line: every record the header lists as withheld was there."""
        if self.header is not None:
            unsigned = sorted(set(self.header.withheld) - self._withheld)
            if unsigned:
                raise CorruptEntry(self.source, 1, unsigned[0], f"the header lists seq "
                                   f"{unsigned[0]} as withheld but the file holds it whole or "
                                   "not at all")


def read_records(lines: Iterable[bytes], first_line: int, source: str,
                 header: Header | None) -> list[Record]:
    """Verify every line and the chain over them (seq, prev, genesis first), as pbem.store.log does
    for log.jsonl; raises LogError naming the file line and seq."""
    seen: dict[str, int] = {}
    reader = ChainReader(source, first_line, header, lambda digest, _line: seen.get(digest))
    records: list[Record] = []
    for raw in lines:
        record = reader.record(raw)
        seen[record.hash] = first_line + len(records)
        records.append(record)
    reader.finish()
    return records
