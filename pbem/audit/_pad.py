"""The pad check of an orders entry, a pure function of the entry and its line's length: the
walk asks it where no worker did (pbem.audit._walk.Walker.orders), a worker asks it ahead
(pbem.audit._parallel.check_chunk), the same function on both sides."""

from __future__ import annotations

from pbem import canonical
from pbem.store import replay
from pbem.store.log import DOMAIN, Entry

_BODY = b'{"body":'


def pad_fault(entry: Entry, line: int | None = None) -> tuple[int, int] | None:
    """(the size the entry should have, its size) where its pad (pbem.store.replay.padded) is
    not spaces that bring it to its size class (replay.ORDERS_CLASS, or the next 1 KiB past it
    for a longer file); None where it is. ``line``: the length of the entry's verified
    (canonical) line, from which the body's encoded length follows without encoding it
    again."""
    pad = entry.body.get("pad")
    if line is None:
        body = len(canonical.encode(entry.body))
    else:
        body = line - len(_BODY) - len(link_tail(entry))
    size = len(DOMAIN) + len(_BODY) + body
    bare = size - len(str(pad)) if isinstance(pad, str) else size
    want = replay.padded_size(bare, replay.ORDERS_CLASS)
    if not isinstance(pad, str) or pad != " " * len(pad) or size != want:
        return want, size
    return None


def link_tail(entry: Entry) -> bytes:
    """The bytes of an entry's canonical line after its body: hash, kind, prev, seq, time (kind
    and time need no escaping: the log's parser holds them to a word and an ISO time)."""
    return (f',"hash":"{entry.hash}","kind":"{entry.kind}","prev":"{entry.prev}",'
            f'"seq":{entry.seq},"time":"{entry.time}"}}').encode()
