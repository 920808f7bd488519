"""What the walk needs from the whole log but does not keep: found by reading the log again.

The walk holds only running state (pbem.audit._walk), so the few questions about entries it
has passed or not reached yet are answered by a fresh read of the source: the entry revealing
the chance secret K (needed from the first resolution on, logged at the game's end: one read
before the walk, only for games with fair chance), and, only on the way to an audit failure,
the line of a duplicated entry, the order file a resolution names that is not among the files
of its turn, and an entry the failure message describes. A read that finds a line it cannot
parse skips it: such a line fails the chain, and a chain failure is what the audit reports.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pbem.audit._chain import Record, Withheld
from pbem.audit._source import Opened
from pbem.audit._used import OrderIndex, OrderRef, ref_of
from pbem.store import chance as store_chance
from pbem.store import replay
from pbem.store.log import Entry

_BODY = b'{"body":'


def _marker(text: str) -> bytes:
    """How ``text`` appears inside a canonical line (as a JSON string, without the quotes)."""
    return json.dumps(text, ensure_ascii=False)[1:-1].encode()


def _record(raw: bytes) -> Record | None:
    """A line as a record, unverified (None if it is not one)."""
    try:
        obj = json.loads(raw)
        if not isinstance(obj, dict):
            return None
        if raw.startswith(_BODY):
            return Entry(obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["body"],
                         obj["hash"])
        held = obj["withheld"]
        return Withheld(obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["hash"],
                        list(held["fields"]), dict(held["public"]),
                        held.get("sha256") is not None)
    except (ValueError, UnicodeDecodeError, KeyError, TypeError, AttributeError):
        return None


def is_secret(record: Record) -> bool:
    """The gm entry revealing the chance secret K."""
    return (isinstance(record, Entry) and record.kind == replay.GM
            and isinstance(record.body, dict)
            and record.body.get("op") == store_chance.SECRET_OP)


@dataclass(frozen=True)
class Secrets:
    """The first and last entries revealing K (the walk replays with the last's K and names
    the first where K is wrong)."""

    first: Entry | None = None
    last: Entry | None = None


def chance_enabled(genesis: object) -> bool:
    return isinstance(genesis, Mapping) and isinstance(genesis.get(store_chance.RANDOM),
                                                       Mapping)


class LogLookup:
    """Answers the walk's questions about the whole log by reading it again."""

    def __init__(self, opened: Opened) -> None:
        self.opened = opened

    def _records(self) -> Iterator[tuple[int, bytes]]:
        return enumerate(self.opened.entry_lines())

    def secrets(self) -> Secrets:
        first = last = None
        marker = _marker(store_chance.SECRET_OP)
        for _, raw in self._records():
            if marker in raw:
                record = _record(raw)
                if record is not None and is_secret(record):
                    assert isinstance(record, Entry)
                    first = first or record
                    last = record
        return Secrets(first, last)

    def record_at(self, seq: int) -> Record | None:
        for index, raw in self._records():
            if index == seq:
                return _record(raw)
        return None

    def ref_at(self, seq: int) -> OrderRef | None:
        """The order file logged at ``seq`` (None: no order file there)."""
        record = self.record_at(seq)
        return ref_of(record) if record is not None else None

    def find(self, sha: str, power: str, resolution: int) -> OrderRef | None:
        """The order file a digest names, among every order file of the log
        (pbem.audit._used.OrderIndex.find)."""
        refs = []
        marker = _marker(sha)
        for _, raw in self._records():
            if marker in raw:
                record = _record(raw)
                ref = ref_of(record) if record is not None else None
                if ref is not None and ref.sha256 == sha:
                    refs.append(ref)
        return OrderIndex(refs).find(sha, power, resolution)

    def duplicate(self, digest: str, lineno: int) -> int | None:
        """The file line before ``lineno`` of the entry whose hash is ``digest``."""
        first = self.opened.first_line
        found = None
        marker = _marker(digest)
        for index, raw in self._records():
            if first + index >= lineno:
                break
            if marker in raw:
                record = _record(raw)
                if record is not None and record.hash == digest:
                    found = first + index
        return found
