"""A lying referee: the export of the played game of tests/support/played.py rewritten, every
hash after the change recomputed and the export re-signed with the real referee key."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Protocol

from pbem import canonical
from pbem.audit.export import make_header
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.log import Entry
from pbem.store.referee import referee_key
from pbem.store.summary import summarize
from tests.support.ad_driver import AD
from tests.support.genesis_setup import setup_options
from tests.support.pbem_host import Host
from tests.support.played import Played

#: log seqs of the resolutions of turns 2 and 3 (tests/engine/audit/test_audit_used.py checks)
TURN2, TURN3 = 10, 16


class Exported(Protocol):
    """A played game with its full export: tests/support/played.py's, or any other."""

    host: Host
    export: bytes


Items = list[dict[str, Any]]


def items_of(game: Played) -> Items:
    return [{"kind": e.kind, "time": e.time, "body": copy.deepcopy(e.body)}
            for e in game.host.entries()]


def chain_of(items: Items) -> list[Entry]:
    chain: list[Entry] = []
    for item in items:
        chain.append(glog.make_entry(chain[-1] if chain else None, item["kind"], item["time"],
                                     item["body"]))
    return chain


def re_resolve_without(items: Items, seq: int, power: str) -> None:
    """What a lying referee does to drop ``power``'s orders: resolve the turn at ``seq`` with the
    rules core as if the power had sent nothing, record that (state, events, used: null) and
    carry on from there (the log ends with this resolution)."""
    chain = chain_of(items[:seq])
    initial = AD.setup(chain[0].body["variant"], setup_options(chain[0].body))
    state = replay.replay(AD, chain, initial)
    standing = summarize(chain).standing_orders()
    assert power in standing
    del standing[power]
    body = items[seq]["body"]
    recorded = body["escrow"]

    def from_log(p: str, warp: str, blob: str, turn: int) -> Any:
        item = recorded.get(p, {}).get(warp)
        return (item["value"], item["nonce"]) if item else None

    orders, used, opened, _ = replay.gather_orders(AD, state, standing, from_log)
    result = AD.resolve(state, orders)
    assert used[power] is None
    body.update(used=used, escrow=opened, state=canonical.digest(result.state),
                events=result.events)
    del items[seq + 1:]


def lines_of(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def lying_referee(game: Exported, change: Callable[[list[dict[str, Any]]], None]) -> bytes:
    """The export after the referee changed entry bodies (``change`` edits a list of
    {kind, time, body}), recomputed every hash after them and re-signed the header."""
    items = [{"kind": e.kind, "time": e.time, "body": copy.deepcopy(e.body)}
             for e in entries_of(game.export)]
    change(items)
    chain: list[Entry] = []
    for item in items:
        chain.append(glog.make_entry(chain[-1] if chain else None, item["kind"], item["time"],
                                     item["body"]))
    key, _ = referee_key(game.host.root)
    header = make_header(key, game.host.game_id, chain, False, {})
    return join([canonical.encode(header), *(e.line().rstrip(b"\n") for e in chain)])


def entries_of(data: bytes) -> list[Entry]:
    return [glog.parse_entry(raw, n + 2) for n, raw in enumerate(lines_of(data)[1:])]
