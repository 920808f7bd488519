"""The audit of who was mailed after a step (pbem.host.mailpolicy): a resolve entry records
``mailed`` (``{power: report | digest | later}``) only for a step whose window does not mail
everyone (``notify`` other than ``all``) and that did not end the game, with one of the three
for every power; the powers the window's policy names (pbem.game.events.notified: the next due
powers, and for ``touched`` the powers its events name) get a report or a digest, never
``later``; a player from whom earlier steps were held back gets a digest, never a bare report;
one from whom nothing was held back and whom the policy names gets a report. What a power not
named gets beyond that is its digest pace, which config.yaml holds and the log does not: the
audit holds it only to those rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game.events import notified

MAILED = "mailed"  # the resolve entry's field (pbem.host.mailpolicy.MAILED)
REPORT, DIGEST, LATER = "report", "digest", "later"
Problem = tuple[str, str, str]  # (field, expected, found) for the audit's failure line


def said(body: Mapping[str, Any]) -> dict[str, str]:
    """What a resolve entry says each power got ({}: everyone a report)."""
    value = body.get(MAILED)
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def mailed_problem(notify: str | None, over: bool, events: Sequence[Mapping[str, Any]],
                   due_next: Sequence[str], powers: Sequence[str], body: Mapping[str, Any],
                   before: Mapping[str, str]) -> Problem | None:
    """The first way the resolve entry ``body``'s ``mailed`` breaks the step's notify policy
    (``before``: what the previous resolution recorded); None if it keeps it."""
    value = body.get(MAILED)
    if notify is None or notify == "all" or over:
        if MAILED in body:
            return (MAILED, "absent (this step mails every player a report: its window's "
                    "notify is all, or the game ended)", str(value))
        return None
    if (not isinstance(value, dict) or set(value) != set(powers)
            or any(v not in (REPORT, DIGEST, LATER) for v in value.values())):
        return MAILED, f"report, digest or later for each of {', '.join(powers)}", str(value)
    named = notified(notify, events, due_next)
    for power in powers:
        got, held = value[power], before.get(power) == LATER
        if power in named and got == LATER:
            return (f"{MAILED}.{power}", f"report or digest (the window's notify {notify} "
                    "names this power)", got)
        if held and got == REPORT:
            return (f"{MAILED}.{power}", "digest or later (earlier steps were held back from "
                    "this player: his next mail is a digest)", got)
        if not held and power in named and got == DIGEST:
            return (f"{MAILED}.{power}", "report (nothing was held back from this player)",
                    got)
    return None
