"""Checking a player's receipt against a log or export: was the order file it attests used?

The receipt (pbem.protocol.receipt) is the referee's signed word that it accepted an order file.
Against a verified chain (pbem.audit.verify.verified_records) this finds the file's ``orders`` entry
and the resolution of its turn, and says which of these holds:

* **used**: the resolution used this file;
* **superseded**: it used a later file of the same power and turn (a higher seq, logged after
  this one and before the resolution): the rule, not a drop;
* **stale**: it used the standing orders and records the file as no longer accepted by the
  rules core (the full audit re-checks that; a public export only claims it);
* **pending**: the log holds no resolution of that turn yet;
* **dropped**: the file was never logged though its turn was resolved, or the resolution used
  something else (the standing orders, an older, another or an invented file).

In a public export the file is found by its public claims (power, turn, seq and log time: the
receipt's ``received``), and what each resolution used by the log seq it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pbem.audit._chain import Record, Withheld
from pbem.protocol.receipt import Receipt
from pbem.store import replay
from pbem.store.log import Entry


class Use(StrEnum):
    """What the log did with a receipted order file (a member is its word, as printed)."""

    USED = "used"
    SUPERSEDED = "superseded"
    STALE = "stale"
    PENDING = "pending"
    DROPPED = "dropped"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Finding:
    verdict: Use
    sentence: str

    @property
    def dropped(self) -> bool:
        return self.verdict == Use.DROPPED


def _body(rec: Record) -> dict[str, Any]:
    b = rec.body if isinstance(rec, Entry) else rec.public
    return b if isinstance(b, dict) else {}


def _is_file(rec: Record, r: Receipt) -> bool:
    if rec.kind != replay.ORDERS:
        return False
    b = _body(rec)
    if isinstance(rec, Entry):
        return (b.get("sha256") == r.sha256 and b.get("power") == r.power
                and b.get("turn") == r.turn)
    return (b.get("power") == r.power and b.get("turn") == r.turn and b.get("seq") == r.seq
            and rec.time == r.received)


def check(r: Receipt, records: Sequence[Record]) -> Finding:
    """What the log says became of the order file the (verified) receipt ``r`` attests."""
    what = f"{r.power}'s order file seq {r.seq} for turn {r.turn}"
    logged = next((rec for rec in records if _is_file(rec, r)), None)
    after = logged.seq + 1 if logged else 1
    resolution = next((rec for rec in records[after:] if rec.kind == replay.RESOLVE
                       and _body(rec).get("turn") == r.turn), None)
    if logged is None:
        if resolution is not None:
            return Finding(Use.DROPPED, f"dropped: the referee signed this receipt but never "
                           f"logged {what}, and resolved turn {r.turn} without it (log entry "
                           f"{resolution.seq})")
        return Finding(Use.PENDING, f"not in this log: it holds neither {what} nor a resolution "
                       f"of turn {r.turn} (it may predate the receipt: check a later export)")
    where = f"log entry {logged.seq}"
    if resolution is None:
        return Finding(Use.PENDING, f"logged at {where}; turn {r.turn} is not resolved in this "
                       "log yet")
    res = f"the resolution of turn {r.turn} (log entry {resolution.seq})"
    b = _body(resolution)
    used = b.get("used")
    if not isinstance(used, dict) or r.power not in used:
        return Finding(Use.DROPPED if isinstance(used, dict) else Use.UNKNOWN,
                       f"{res} names no orders for {r.power}" if isinstance(used, dict) else
                       f"{res} does not say which order files it used (not a 1.0 "
                       "export): check the full export")
    value = used[r.power]
    mine = logged.seq if isinstance(resolution, Withheld) else r.sha256
    if value == mine:
        return Finding(Use.USED, f"used: {res} used {what} ({where})")
    if value is None:
        stale = b.get("stale")
        if isinstance(stale, list | dict) and r.power in stale:
            return Finding(Use.STALE, f"not used, as stale: {res} records that the rules core "
                           f"no longer accepted {what} at the resolution (the full audit "
                           "re-checks this)")
        return Finding(Use.DROPPED, f"dropped: the referee logged {what} ({where}) and signed "
                       f"this receipt, but {res} used the standing orders instead")
    other = _used_file(records, value, r.power, logged.seq, resolution.seq)
    if other is not None:
        ob = _body(other)
        if (ob.get("power") == r.power and isinstance(ob.get("seq"), int)
                and ob["seq"] > r.seq and ob.get("turn") == r.turn):
            return Finding(Use.SUPERSEDED, f"superseded: {res} used your later order file seq "
                           f"{ob['seq']} (log entry {other.seq}), as the rule says")
        name = (f"{ob.get('power')}'s order file seq {ob.get('seq')} for turn {ob.get('turn')} "
                f"(log entry {other.seq})")
    else:
        name = "orders no logged file holds"
    return Finding(Use.DROPPED, f"dropped: the referee logged {what} ({where}) and signed this "
                   f"receipt, but {res} used {name} instead")


def _used_file(records: Sequence[Record], value: Any, power: str, logged: int,
               resolution: int) -> Record | None:
    """The ``orders`` record a resolution's ``used`` value names (a log seq in a public
    export, a digest otherwise): the same power's between ``logged`` and ``resolution`` first."""
    if type(value) is int:
        rec = records[value] if 0 <= value < len(records) else None
        return rec if rec is not None and rec.kind == replay.ORDERS else None
    hits = [rec for rec in records if rec.kind == replay.ORDERS
            and isinstance(rec, Entry) and _body(rec).get("sha256") == value]
    hits.sort(key=lambda rec: (_body(rec).get("power") != power,
                               not logged < rec.seq < resolution))
    return hits[0] if hits else None
