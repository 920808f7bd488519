"""The audit's per-line work that needs no running state, done ahead in worker processes.

Verifying a line (JSON, canonical form, its hash) and an order file's signature and YAML are
pure functions of the line's bytes and, for the order file, of the keys registered at that
point; together they are about half of an audit. Where the machine has a core free beside the
walk's (:func:`workers_for`) the reader hands the lines in bounded chunks
(:data:`CHUNK_LINES`, at most :data:`AHEAD` chunks in flight, each at most
:data:`CHUNK_BYTES` unless one line is longer, so memory stays flat) to worker processes and
gives them to the walk in log order with what the workers found; the walk checks a share of
the chunks itself, adapted so that neither side waits for the other (:class:`_Share`), and any
chunk no worker has started when the walk reaches it. The walk uses a result only where it is
exactly what it would compute itself: a line a worker could not verify is parsed again in
order (so the error is the serial one, word for word), and an order file checked against keys
that have changed since (a ``key`` entry walked after the chunk was handed out) is checked
again with the keys of the walk.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, NamedTuple

from pbem import canonical
from pbem.audit._pad import pad_fault
from pbem.errors import PbemError, Problem, Rejected
from pbem.protocol.keys import PublicKey
from pbem.protocol.orderdoc import verify_orders
from pbem.store import log as glog
from pbem.store import replay

CHUNK_LINES = 128
FIRST_LINES = 8  # the first chunks are smaller (doubling), so the walk starts soon
CHUNK_BYTES = 256 * 1024  # a chunk ends at this many bytes or lines (or holds one longer line)
AHEAD = 4  # chunks in flight per worker
MIN_BYTES = 1 << 20  # smaller logs are audited in one process (starting workers costs more)
MOST_WORKERS = 4  # the walk uses what they find at about the rate four of them find it
MOST_KEPT = 0.9  # the largest share of the chunks the walk keeps (_Share)
STEAL = True  # the walk shares the chunks with the workers (False: they check all, it waits)
_BODY = b'{"body":'
PAD_SENT = 256  # a pad of this many spaces or more is sent back as its length (Ahead.fields)
SWITCH = 0.0005  # seconds: the GIL switch interval while the pool runs (:func:`ahead`)


class Signed(NamedTuple):
    """What the walk reads of a verified order file (pbem.protocol.orderdoc.VerifiedOrders).
    A named tuple, as :class:`Ahead`: they cross from the workers by pickle, which rebuilds a
    slotted dataclass field by field in Python, a tuple in one step."""

    game: str
    power: str
    turn: Any
    seq: Any
    sha256: str
    key: str
    orders: Any  # the parsed body as the YAML loader gives it (replay.json_safe: as logged)
    entropy: Any
    matches: bool = False  # a worker found it matches its entry (signed_matches); orders None


Outcome = Signed | list[Problem]  # the problems: verify_orders refused it (Rejected)


def signed_matches(body: Mapping[str, Any], v: Signed, game_id: str) -> bool:
    """Whether an orders entry's body describes the order file it holds: the game, its power,
    turn, seq, digest and key as signed, and its parsed orders those of the signed text (the
    parsed body equal to the logged orders is equal as JSON data too: the log's keys are
    strings, which an int key never equals; so json_safe only where they differ). The walk
    names what differs where this is False (pbem.audit._walk.Walker.orders)."""
    try:
        described = (game_id, body["power"], body["turn"], body["seq"], body["sha256"],
                     body["key"])
        logged = body["orders"]
    except KeyError:
        return False
    return (described == (v.game, v.power, v.turn, v.seq, v.sha256, v.key)
            and (v.orders == logged or replay.json_safe(v.orders) == logged))


def signed_outcome(text: str, game_id: str, keys: Mapping[str, PublicKey],
                   by_fp: Mapping[str, PublicKey] | None = None) -> Outcome:
    """verify_orders against the keys registered now, as the walk asks it: one function for the
    walk and the workers, so both give the same outcome. ``by_fp``: the same keys by
    fingerprint, if the caller keeps them (a worker does, per key version)."""
    if by_fp is None:
        by_fp = {k.fingerprint: k for k in keys.values()}

    def keys_for(game: str, p: str) -> tuple[PublicKey, ...]:
        return (keys[p],) if game == game_id and p in keys else ()

    try:
        v = verify_orders(text, keys_for, fingerprints=by_fp)
    except Rejected as exc:
        return list(exc.problems)
    return Signed(v.game, v.power, v.turn, v.seq, v.sha256, v.key_fingerprint, v.body,
                  v.entropy)


class Ahead(NamedTuple):
    """A worker's findings for one line: it parsed and hashed the whole entry (``verified``),
    which it hands over as its fields (``entry``: seq, prev, kind, time, body, hash; the walk
    does not parse the line again: unpickling them costs a third of ``json.loads``) and, for an
    order file, its outcome against the keys of version ``keys``."""

    verified: bool
    keys: int = -1
    outcome: Outcome | None = None
    entry: tuple[int, str, str, str, Any, str] | None = None
    spaces: int = -1  # the body's pad was this many spaces, sent as "" (-1: sent as it is)
    pad_ok: bool = False  # an orders entry's pad passed pbem.audit._pad.pad_fault
    events: bytes | None = None  # a resolve entry's recorded events, canonically encoded

    def fields(self) -> tuple[int, str, str, str, Any, str] | None:
        """The entry's fields as the worker read them, its pad's spaces put back (an order
        file's pad is most of its line: 6 KiB not pickled twice)."""
        if self.entry is not None and self.spaces >= 0:
            self.entry[4]["pad"] = " " * self.spaces
        return self.entry


KeysNow = Callable[[], tuple[int, dict[str, str]]]
"""(version, {power: public key text}) of the walk's keys now; the version counts key changes."""


def cores() -> int:
    """The cores this process may run on (its affinity, which a container or ``taskset`` may
    narrow; else every core of the machine)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def others_running() -> float:
    """How many cores other processes want now: the one-minute load average (processes running
    or waiting for a core), or the processes runnable this instant besides this one where that
    is fewer (/proc/loadavg: the load average still counts the work this process did just
    before, e.g. a benchmark writing the log it now audits)."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average here: assume a quiet machine
        return 0.0
    try:
        with open("/proc/loadavg", "rb") as fh:
            runnable = int(fh.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return load
    return max(min(load, runnable - 1.0), 0.0)


def workers_for(size: int, requested: int | None, machine: tuple[int, float] | None = None
                ) -> int:
    """How many worker processes to use for a source of ``size`` bytes: ``requested`` if given
    (0: none); else none for a small log, and one per core free beside the walk's own
    (``machine``: the cores this process may use and :func:`others_running`: a worker for each
    whole core the others leave, the walk's own counted), at most :data:`MOST_WORKERS`. A worker
    that finds no core free costs little (measured on 2 cores beside a process spinning on
    one: 698-727 turns/s with a worker, 725-730 without), one that finds one gains much (the
    load average of 0.95 that the run before this one left: 1,164-1,228 against 743-748), so
    only a core the others take whole keeps a worker from starting. The walk still checks a share
    of the chunks itself, more as the workers fall behind (:func:`ahead`), so a machine that
    becomes busy costs little more than the chunks the workers hold."""
    if requested is not None:
        return max(requested, 0)
    if size < MIN_BYTES:
        return 0
    have, others = machine if machine is not None else (cores(), others_running())
    return min(max(int(have - others), 0), have - 1, MOST_WORKERS)


class _Share:
    """The share of the chunks the walk checks itself, adapted as it goes: up when it found a
    worker's chunk unfinished (the workers are behind: the machine is busy, or their work costs
    more than the walk's), down when the findings were ready (a worker waits for work). So the
    two sides finish together on a quiet machine and the walk does nearly all of it on a busy
    one, without doing any line twice. At most :data:`MOST_KEPT`: a few chunks still go to the
    workers, so the walk finds out when a core frees up again."""

    UP = 0.05  # as much as DOWN: the two sides balance where the walk waits half the time
    DOWN = 0.05  # (0.1 up, 0.02 down kept twice the worker's share of the lines: measured)

    def __init__(self) -> None:
        self.kept = 0.0
        self._credit = 0.0

    def mine(self) -> bool:
        """Whether the next chunk is the walk's own."""
        self._credit += self.kept
        if self._credit >= 1.0:
            self._credit -= 1.0
            return True
        return False

    def found(self, ready: bool) -> None:
        self.kept = (max(self.kept - self.DOWN, 0.0) if ready
                     else min(self.kept + self.UP, MOST_KEPT))


def ahead(lines: Iterator[bytes], first_line: int, source: str, game_id: str,
          keys_now: KeysNow, workers: int, path: str | None = None, offset: int = 0
          ) -> Generator[tuple[bytes, Ahead | None], None, None]:
    """The lines, each with what a worker found (None: nothing; the walk does it all).

    With :data:`STEAL` (the default) the walk keeps a share of the chunks (:class:`_Share`)
    and takes back any chunk no worker has started when it reaches it; without, the workers
    check every chunk and the walk waits for them. ``path``: the file the lines are read from,
    the first at byte ``offset``; a worker then reads a chunk's lines from it
    (:func:`check_range`) and only their place and lengths are sent (the lines pickled through
    a pipe were 70 MiB of a 2,000-turn game, copied four times)."""
    if workers <= 0:
        for raw in lines:
            yield raw, None
        return
    # fork is cheap and shares the imports; with threads running, fork is unsafe: forkserver
    method = "fork" if threading.active_count() == 1 else "forkserver"
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method))
    # The pool's own threads (feeding the calls, collecting the results) take the GIL whenever
    # the walk lets it go (hashing a state, a write), and keep it for the switch interval (5 ms
    # by default) while they have work: the walk, the audit's one serial path, waited. A short
    # interval bounds each wait; the findings are unpickled by the walk itself (check_chunk),
    # so those threads hold the GIL only briefly.
    switch = sys.getswitchinterval()
    sys.setswitchinterval(min(switch, SWITCH))
    pending: deque[tuple[list[bytes], Future[bytes] | None]] = deque()
    share = _Share()
    popped = 0
    lineno = first_line
    limit = FIRST_LINES
    broken = False
    try:
        while True:
            while len(pending) < AHEAD * workers:
                chunk = _chunk(lines, min(limit, CHUNK_LINES))
                limit *= 2
                if not chunk:
                    break
                future = None
                lengths = [len(raw) for raw in chunk]
                if not broken and not (STEAL and share.mine()):
                    version, keys = keys_now()
                    try:
                        future = (pool.submit(check_chunk, chunk, lineno, source, game_id,
                                              version, keys) if path is None else
                                  pool.submit(check_range, path, offset, lengths, lineno,
                                              source, game_id, version, keys))
                    except RuntimeError:  # the pool broke (a worker died): go on alone
                        broken = True
                lineno += len(chunk)
                offset += sum(lengths) + len(lengths)  # each line and its newline
                pending.append((chunk, future))
            if not pending:
                return
            chunk, future = pending.popleft()
            found: list[Ahead | None] = [None] * len(chunk)
            popped += 1
            if future is not None and STEAL:
                if popped > AHEAD * workers:  # not the first chunks: the workers were starting
                    share.found(future.done())
                if not future.done() and future.cancel():
                    future = None  # no worker started it: the walk's own
            if future is not None:
                try:
                    found = pickle.loads(future.result())
                except Exception:  # noqa: BLE001 - a lost worker: the walk does it itself
                    broken = True
            yield from zip(chunk, found, strict=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        sys.setswitchinterval(switch)


def _chunk(lines: Iterator[bytes], most: int) -> list[bytes]:
    chunk: list[bytes] = []
    size = 0
    for raw in lines:
        chunk.append(raw)
        size += len(raw)
        if len(chunk) >= most or size >= CHUNK_BYTES:
            break
    return chunk


_KEYS: dict[int, tuple[dict[str, PublicKey], dict[str, PublicKey]]] = {}
"""In a worker: the keys of the one key version it checks against, by power and by
fingerprint (parsed and fingerprinted once, not per order file)."""


def check_chunk(lines: list[bytes], first_line: int, source: str, game_id: str, version: int,
                key_texts: dict[str, str]) -> bytes:
    """In a worker: verify each whole-entry line and each order file's signature; the
    findings (:func:`findings`) pickled in one bytes object, which the pool's thread in the walk's
    process hands over as it is and the walk unpickles when it reaches the chunk (unpickled
    by that thread, they held the GIL the walk was waiting for)."""
    return pickle.dumps(findings(lines, first_line, source, game_id, version, key_texts),
                        protocol=pickle.HIGHEST_PROTOCOL)


def check_range(path: str, offset: int, lengths: list[int], first_line: int, source: str,
                game_id: str, version: int, key_texts: dict[str, str]) -> bytes:
    """In a worker: :func:`check_chunk` of the lines of ``lengths`` bytes (each with its newline)
    read from ``path`` at ``offset``. Where the file does not hold lines of those lengths there
    (it changed since the walk read it), nothing is found: the walk checks them itself, so
    every line's record comes from one reading of its bytes."""
    size = sum(lengths) + len(lengths)
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            data = fh.read(size)
    except OSError:
        data = b""
    lines = data.split(b"\n")
    if lines.pop() != b"" or [len(raw) for raw in lines] != lengths:
        return pickle.dumps([None] * len(lengths), protocol=pickle.HIGHEST_PROTOCOL)
    return check_chunk(lines, first_line, source, game_id, version, key_texts)


def findings(lines: list[bytes], first_line: int, source: str, game_id: str, version: int,
             key_texts: dict[str, str]) -> list[Ahead | None]:
    """Each whole-entry line verified and each order file's signature checked: what a worker
    finds for the walk."""
    known = _KEYS.get(version)
    if known is None:
        _KEYS.clear()
        keys = {p: PublicKey.parse(t) for p, t in key_texts.items()}
        known = _KEYS[version] = keys, {k.fingerprint: k for k in keys.values()}
    keys, by_fp = known
    out: list[Ahead | None] = []
    for n, raw in enumerate(lines):
        if not raw.startswith(_BODY):
            out.append(None)  # a withheld record: the walk reads it against the header
            continue
        try:
            entry = glog.parse_entry(raw, first_line + n, source)
        except PbemError:
            out.append(None)  # the walk parses it again and names the problem
            continue
        outcome: Outcome | None = None
        body = entry.body
        if entry.kind == replay.ORDERS and isinstance(body, dict) and "text" in body:
            try:
                outcome = signed_outcome(str(body["text"]), game_id, keys, by_fp)
                if not isinstance(outcome, list) and signed_matches(body, outcome, game_id):
                    # Sent back as the entry's own values (equal, as signed_matches found; the
                    # pickle refers to them instead of copying them), without the orders.
                    outcome = Signed(game_id, body["power"], body["turn"], body["seq"],
                                     body["sha256"], body["key"], None, outcome.entropy, True)
            except Exception:  # noqa: BLE001 - the walk meets the same failure itself
                outcome = None
        pad_ok, events = _line_checks(entry, len(raw))
        spaces = -1
        pad = body.get("pad") if type(body) is dict else None
        if type(pad) is str and len(pad) >= PAD_SENT and pad == " " * len(pad):  # memcmp
            spaces, body["pad"] = len(pad), ""
        out.append(Ahead(True, version, outcome, (entry.seq, entry.prev, entry.kind,
                                                   entry.time, body, entry.hash), spaces,
                         pad_ok, events))
    return out


def _line_checks(entry: glog.Entry, line: int) -> tuple[bool, bytes | None]:
    """The walk's work on a line that needs no state, done here: whether an orders entry's pad
    is right (pbem.audit._pad) and a resolve entry's events as the canonical bytes the replay
    compares with its own (pbem.store.replay.replay_resolution). Where this fails the walk
    does it itself and meets the failure in order."""
    body = entry.body
    if type(body) is not dict:
        return False, None
    try:
        if entry.kind == replay.ORDERS:
            return pad_fault(entry, line) is None, None
        if entry.kind == replay.RESOLVE and "events" in body:
            return False, canonical.encode(body["events"])
    except Exception:  # noqa: BLE001 - the walk meets the same failure itself
        pass
    return False, None
