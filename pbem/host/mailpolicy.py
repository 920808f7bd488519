"""Who is mailed after a step (pbem.game.plugin.Window ``notify``) and who gets a digest.

A step whose window says ``notify: "all"`` (the default) mails every player a full report, as
always, and its resolve entry says nothing more. Any other step's resolve entry records, for
every power, what its player gets for it (``"mailed"``: ``{power: "report" | "digest" |
"later"}``), decided once by the turn job when it resolves the step:

* a power the step names (``notify: "due"``: due at the next step; ``"touched"``: those and
  the powers an event of the step is addressed to or names in ``power``) gets a ``report``,
  or a ``digest`` when earlier steps were not mailed to it;
* any other power gets what its digest pace says (``GameConfig.digest_pace``: the player's own
  signed choice, else the game master's ``digest`` in config.yaml): ``every-step``, a report
  anyway; ``daily``, a digest once a day has passed since its last mail, else nothing yet;
  ``when-due``, nothing until the power is named again.

The mails are then built from the log alone (a crash between the entry and its mail gives
the same mails again): a digest is the step's report with the reader's events of every step
since his last mail, each seen through ``view_events`` for his power (pbem.host.notify).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from pbem.game.events import notified
from pbem.game.plugin import Window
from pbem.schedule import parse_iso
from pbem.store.gameconfig import GameConfig
from pbem.store.kinds import EntryKind
from pbem.store.log import GameLog

if TYPE_CHECKING:
    from pbem.game.shapes import EventData
    from pbem.store.records import BodyIn

MAILED = "mailed"  # the resolve entry's field
REPORT, DIGEST, LATER = "report", "digest", "later"
RESOLVE = EntryKind.RESOLVE
DAY = timedelta(days=1)


def named(window: Window, events: Sequence[EventData], due_next: Sequence[str]
          ) -> set[str]:
    """The powers a step's window mails a full report: the next due powers, and for
    ``notify: "touched"`` every power an event of the step is addressed to or names
    (pbem.game.events.notified, which the audit checks the record with)."""
    return notified(window.notify, events, due_next)


def decide(window: Window | None, events: Sequence[EventData],
           due_next: Sequence[str], over: bool, config: GameConfig, log: GameLog,
           now: datetime) -> dict[str, str] | None:
    """What each power's player gets for the step about to be logged (None: everyone a
    report, the ``notify: "all"`` of every step until now)."""
    if window is None or window.notify == "all" or over:
        return None
    mailed = named(window, events, due_next)
    out = {}
    for power in config.powers:
        since, last = pending(log, power, len(log) - 1)
        pace = config.digest_pace(power)
        if power in mailed or pace == "every-step":
            out[power] = DIGEST if since else REPORT
        elif pace == "daily" and now - parse_iso(last) >= DAY:
            out[power] = DIGEST
        else:
            out[power] = LATER
    return out


def pending(log: GameLog, power: str, last: int) -> tuple[list[int], str]:
    """The resolve entries up to ``last`` whose step was not mailed to ``power`` since its
    last mail (oldest first), and the time of that mail (the genesis: the welcome)."""
    out: list[int] = []
    for seq in range(last, 0, -1):
        entry = log[seq]
        if entry.kind != RESOLVE:
            continue
        said = entry.body.get(MAILED) if isinstance(entry.body, dict) else None
        if not isinstance(said, dict) or said.get(power) != LATER:
            return out[::-1], entry.time
        out.append(seq)
    return out[::-1], log[0].time


def gets(body: BodyIn, powers: Sequence[str]) -> str:
    """What a player commanding ``powers`` gets for the step of resolve entry ``body``: a
    report if any of them does, else a digest if any does, else nothing yet."""
    said = body.get(MAILED)
    if not isinstance(said, dict):
        return REPORT
    mine = {said.get(p, REPORT) for p in powers}
    return REPORT if REPORT in mine else DIGEST if DIGEST in mine else LATER
