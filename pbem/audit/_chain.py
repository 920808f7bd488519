"""Reading the entry lines of an export or log into a verified chain of records: whole entries
(re-hashed) and withheld records (hash finished from their SHA-256 midstate)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem import canonical
from pbem.audit import sha256mid
from pbem.audit.export import RECORD_FIELDS, WITHHELD_KINDS, Header, record_hash
from pbem.schedule import is_iso
from pbem.store import log as glog
from pbem.store.log import BrokenChain, CorruptEntry, Entry
from pbem.store.replay import ORDERS

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
    public: dict[str, Any]
    linked: bool  # its hash was finished from a midstate (else it is the referee's claim)


Record = Entry | Withheld


def _need(condition: object) -> None:
    if not condition:
        raise ValueError("malformed")


def _parse_withheld(raw: bytes, lineno: int, source: str, header: Header | None) -> Withheld:
    def bad(message: str, seq: int | None = None) -> CorruptEntry:
        return CorruptEntry(source, lineno, seq, message)

    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise bad(f"not valid JSON ({exc}); the line starts {raw[:40]!r}") from None
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


def read_records(lines: Sequence[bytes], first_line: int, source: str,
                 header: Header | None) -> list[Record]:
    """Verify every line and the chain over them (seq, prev, genesis first), as pbem.log does
    for log.jsonl; raises LogError naming the file line and seq."""
    records: list[Record] = []
    seen: dict[str, int] = {}
    prev_hash = glog.GENESIS_PREV
    withheld_seqs: set[int] = set()
    for index, raw in enumerate(lines):
        lineno = first_line + index
        record: Record
        if raw.startswith(b'{"body":'):
            record = glog.parse_entry(raw, lineno, source)
        else:
            record = _parse_withheld(raw, lineno, source, header)
            withheld_seqs.add(record.seq)
        if record.seq != index:
            if record.hash in seen:
                msg = (f"duplicate of line {seen[record.hash]}: expected seq {index}, found "
                       f"seq {record.seq} again")
            elif record.seq < index:
                msg = (f"expected seq {index}, found seq {record.seq} (entries reordered or "
                       "replaced)")
            else:
                msg = (f"expected seq {index}, found seq {record.seq} (entries missing or "
                       "reordered)")
            raise BrokenChain(source, lineno, record.seq, msg)
        if record.prev != prev_hash:
            raise BrokenChain(source, lineno, record.seq,
                              f"prev is {record.prev[:16]}…, but the entry before has hash "
                              f"{prev_hash[:16]}… (the chain is broken)")
        if (record.kind == glog.GENESIS_KIND) != (index == 0):
            want = "the first entry must be" if index == 0 else "only the first entry may be"
            raise BrokenChain(source, lineno, record.seq,
                              f"{want} of kind {glog.GENESIS_KIND!r}, found {record.kind!r}")
        last = records[-1] if records else None
        if last and (why := glog.time_order_problem(last.seq, last.time, record.time)):
            raise BrokenChain(source, lineno, record.seq, why)
        seen[record.hash] = lineno
        prev_hash = record.hash
        records.append(record)
    if header is not None:
        unsigned = sorted(set(header.withheld) - withheld_seqs)
        if unsigned:
            raise CorruptEntry(source, 1, unsigned[0], f"the header lists seq {unsigned[0]} as "
                               "withheld but the file holds it whole or not at all")
    return records
