"""A player's settings in words, for the welcome mail (templates/common/_settings.txt): for each of
his powers, the reminder lead, quiet hours and their zone, the digest pace and tell-when-due, each
as it applies (his own signed choice, else the game's), and how to change them
(docs/operations.md, "Player preferences and quiet hours")."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.schedule import format_duration
from pbem.store.gameconfig import GameConfig
from pbem.store.prefs import Prefs

HOW = ("To change them, sign a prefs file and mail it to the referee: `pbem vote prefs --game "
       "{game} --power {power} --key YOUR.key --set reminder=12h --set quiet=22:00-07:00 --set "
       "tz=Europe/Paris --set digest=daily --set tell_when_due=true` (any of these; the rest "
       "stay as they are).")


def settings_line(config: GameConfig, power: str) -> str:
    """``power``'s settings as they apply now, in one sentence."""
    own = config.prefs.get(power, Prefs())
    entry = config.powers[power]
    lead = (f"{format_duration(own.reminder)} before the deadline (your choice)"
            if own.reminder is not None else
            f"{format_duration(config.schedule.reminder)} before the deadline (the game's)")
    zone = own.tz or entry.tz or "UTC"
    quiet = (f"quiet hours {own.quiet[0]:%H:%M}-{own.quiet[1]:%H:%M} {zone}"
             if own.quiet is not None else f"no quiet hours (zone {zone})")
    due = "on" if own.tell_when_due else "off"
    return (f"{power.replace('_', ' ').capitalize()}: reminder {lead}; {quiet}; digest "
            f"{config.digest_pace(power)}; tell when due {due}.")


def settings(config: GameConfig, game_id: str, powers: Sequence[str]) -> dict[str, object]:
    """The welcome mail's ``settings``: a line per power and how to change them."""
    return {"lines": [settings_line(config, p) for p in powers],
            "how": HOW.format(game=game_id, power=powers[0] if powers else "POWER")}
