"""Which order file each resolution must use, and what the audit says when it used another.

The rule (pbem.store.summary.stand and pbem.store.replay.gather_orders): for each power due,
the accepted order file with the highest seq logged after the previous resolution (the one seq
rule, pbem.protocol.orderdoc.replaces), unless the rules core no longer accepts it against the state
at the resolution (stale); where there is none, the power's latest standing file (``turn:
standing``, logged as turn 0 at any time before the resolution, by the same seq rule) if the
rules core accepts it then; failing both, the game's standing orders (``used: null``). The audit
holds every resolution to it, so a referee who logs an order file (and signs a receipt for it)
cannot resolve the turn without it, nor with an older, another power's, an earlier turn's, a
later or an invented file instead.

A full log names the file used by its digest; a public export, which withholds digests, by the
log seq of its ``orders`` entry (pbem.audit.export.withhold), with each entry's power, turn and
seq as public claims signed by the referee.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pbem.audit.export import nearest_order
from pbem.protocol.envelope import STANDING_TURN
from pbem.protocol.orderdoc import newest_by_power
from pbem.store import replay
from pbem.store.log import Entry


@dataclass(frozen=True, slots=True)
class OrderRef:
    """One logged order file: its log entry and what it is (digest: None in a public export)."""

    entry: int
    power: str
    turn: object
    seq: object
    sha256: str | None

    @property
    def standing(self) -> bool:
        """Whether this is a standing file (turn: standing, logged as turn 0)."""
        return self.turn == STANDING_TURN

    def name(self) -> str:
        if self.standing:
            return f"{self.power}'s standing file seq {self.seq} (log entry {self.entry})"
        return (f"{self.power}'s order file seq {self.seq} for turn {self.turn} (log entry "
                f"{self.entry})")


class OrderIndex:
    """Every order file of the log, by log seq and by digest."""

    def __init__(self, refs: Iterable[OrderRef]) -> None:
        self.by_entry = {r.entry: r for r in refs}
        self.by_sha: dict[str, list[OrderRef]] = {}
        for r in self.by_entry.values():
            if r.sha256:
                self.by_sha.setdefault(r.sha256, []).append(r)

    def find(self, sha: str, power: str, resolution: int) -> OrderRef | None:
        """The order file a digest names (the same power's and the nearest before the
        resolution first; the same text can be logged twice only for different turns)."""
        refs = self.by_sha.get(sha, [])
        at = nearest_order(((r.entry, r.power) for r in refs), power, resolution)
        return self.by_entry.get(at) if isinstance(at, int) else None


def ref_of(record: Any) -> OrderRef | None:
    """The order file a log record holds (None: not an order file): a whole entry by its body,
    a withheld one by its public claims."""
    if record.kind != replay.ORDERS:
        return None
    whole = isinstance(record, Entry)
    b = record.body if whole else record.public
    if not isinstance(b, dict) or "power" not in b:
        return None
    sha = b.get("sha256") if whole else None
    return OrderRef(record.seq, str(b["power"]), b.get("turn"), b.get("seq"),
                    sha if isinstance(sha, str) else None)


def latest(since: Iterable[OrderRef]) -> dict[str, OrderRef]:
    """The order file of each power among ``since`` that the one seq rule picks
    (pbem.protocol.orderdoc.replaces: the highest seq)."""
    return newest_by_power(since, _power, _seq)


def _power(ref: OrderRef) -> str:
    return ref.power


def _seq(ref: OrderRef) -> int:
    return ref.seq if isinstance(ref.seq, int) else -1


def misuse(found: OrderRef | str | None, want: OrderRef | None, latest_file: OrderRef | None,
           power: str, resolution: int, previous: int) -> tuple[str, str, str] | None:
    """None if a resolution that used ``found`` for ``power`` kept the rule; else the texts
    (expected, found, why) of the audit failure.

    ``found``: the order file used (None: the standing orders; a string: what the resolution
    named that is no logged order file). ``want``: the file the rule picks (None: the standing
    orders; a standing file where no file of the step is used). ``latest_file``: the power's
    highest-seq file since the previous resolution (it differs from ``want`` only when
    stale). ``previous``: log seq of the previous resolution."""
    if isinstance(found, OrderRef) and want is not None and found.entry == want.entry:
        return None
    if found is None and want is None:
        return None
    if want is not None:
        expected = want.name()
    elif latest_file is not None:
        expected = (f"no order file (the standing orders): {latest_file.name()} is no longer "
                    "accepted by the rules core (stale)")
    else:
        expected = ("no order file (the standing orders): none was accepted for this power "
                    "since the previous resolution")
    if found is None and want is not None and want.standing:
        return (expected, "null (the game's standing orders)",
                f"a dropped standing file: {power}'s standing file was accepted and logged "
                "before this resolution (the referee signed a receipt for it), and the rules "
                "core accepts it, yet the step was resolved without it")
    if found is None:
        assert want is not None
        return (expected, "null (the standing orders)",
                f"a dropped order: {power}'s order file was accepted and logged before this "
                "resolution (the referee signed a receipt for it), yet the turn was resolved "
                "without it")
    if isinstance(found, str):
        return (expected, found, "the resolution names orders no player sent: no orders entry "
                "of the log holds them")
    if found.entry > resolution:
        return (expected, f"{found.name()}, logged after this resolution",
                "orders cannot be used by a resolution made before they arrived")
    if found.power != power:
        return (expected, found.name(), f"{power}'s orders were taken from another power's "
                "order file")
    if found.standing:
        return (expected, found.name(), "a standing file is used only where no file of the "
                "step is, and only the power's latest one the rules core accepts")
    if found.entry < previous:
        return (expected, f"{found.name()}, logged before the previous resolution (log entry "
                f"{previous})", "an order file of an earlier turn was used again")
    if want is None and latest_file is not None and found.entry == latest_file.entry:
        return (expected, found.name(), "orders the rules core refuses against the state at "
                "the resolution cannot be used")
    if want is not None:
        return (expected, f"{found.name()}, superseded by seq {want.seq} (log entry "
                f"{want.entry})", "an older order file was used instead of the latest one "
                "accepted")
    return (expected, found.name(), "not the order file the rule picks (the highest seq "
            "accepted since the previous resolution)")
