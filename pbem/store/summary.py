"""Running summaries of a game log: the facts every visit needs, kept up to date entry by entry.

Why: the clock (deadline, paused, last resolution), the standing orders, the missed-turn counts
and the registered keys were each a scan of the whole log on every visit, so a visit cost grew
with the game's history. A :class:`Summary` folds the same facts one entry at a time; the
trusted point (pbem.store.trusted) stores the summary at its entry, and a visit folds only the
entries after it. The fold mirrors ``pbem.store.replay.clock`` / ``standing_orders`` /
``missed_turns`` and ``GameDir.registered_keys`` exactly (tests/test_trusted.py compares them on
every prefix of a played game).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Protocol

ORDERS, RESOLVE, GM, KEY = "orders", "resolve", "gm", "key"


class _Entry(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def time(self) -> str: ...
    @property
    def body(self) -> Any: ...


@dataclass
class Summary:
    """What the log says so far, as of the entry ``seq`` (``-1``: nothing folded yet)."""

    seq: int = -1
    deadline: str | None = None
    paused: bool = False
    last_resolution: int = 0  # seq of the last resolve entry (0: none yet)
    last_resolution_time: str = ""  # time of that entry (the genesis time when none)
    standing: dict[str, dict[str, Any]] = field(default_factory=dict)
    missed: dict[str, dict[str, int]] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)  # power -> key text
    last_state_change: int = 0  # seq of the last resolve or state-changing gm entry (0: none)

    def fold(self, entry: _Entry) -> None:
        """Take one more entry (the one after ``seq``) into the summary."""
        if entry.seq != self.seq + 1:
            raise ValueError(f"summary at seq {self.seq} cannot take entry {entry.seq}")
        self.seq = entry.seq
        body = entry.body
        if entry.seq == 0:
            self.deadline = body.get("deadline")
            self.last_resolution_time = entry.time
            self.keys = dict(body.get("keys", {}))
            return
        if entry.kind == ORDERS:
            current = self.standing.get(body["power"])
            if current is None or body["seq"] >= current["seq"]:
                self.standing[body["power"]] = body
        elif entry.kind == RESOLVE:
            self.deadline = body.get("deadline")
            self.last_resolution = entry.seq
            self.last_resolution_time = entry.time
            self.last_state_change = entry.seq
            self.standing = {}
            for power, sha in body["used"].items():
                rec = self.missed.setdefault(power, {"total": 0, "in_a_row": 0})
                if sha is None:
                    rec["total"] += 1
                    rec["in_a_row"] += 1
                else:
                    rec["in_a_row"] = 0
        elif entry.kind == GM:
            op = body.get("op")
            if op == "pause":
                self.paused = True
            elif op == "resume":
                self.paused = False
                self.deadline = body.get("deadline", self.deadline)
            elif op == "extend":
                self.deadline = body["deadline"]
            if "state" in body:
                self.last_state_change = entry.seq
        elif entry.kind == KEY and isinstance(body, dict):
            self.keys[body["power"]] = body["key"]

    def standing_orders(self) -> dict[str, dict[str, Any]]:
        return dict(self.standing)

    def missed_turns(self) -> dict[str, dict[str, int]]:
        return copy.deepcopy(self.missed)

    def to_data(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "deadline": self.deadline, "paused": self.paused,
            "last_resolution": self.last_resolution,
            "last_resolution_time": self.last_resolution_time,
            "standing": self.standing, "missed": self.missed, "keys": self.keys,
            "last_state_change": self.last_state_change,
        }

    @classmethod
    def from_data(cls, data: Any) -> Summary:
        """The summary stored by :meth:`to_data` (raises KeyError/TypeError/ValueError if not)."""
        if not isinstance(data, dict) or set(data) != set(cls().to_data()):
            raise ValueError("not a log summary")
        out = cls(**data)
        if not isinstance(out.seq, int) or not isinstance(out.standing, dict) or not isinstance(
                out.missed, dict) or not isinstance(out.keys, dict):
            raise ValueError("not a log summary")
        return out


def summarize(entries: Any) -> Summary:
    """The summary of a whole sequence of entries, genesis first."""
    out = Summary()
    for entry in entries:
        out.fold(entry)
    return out
