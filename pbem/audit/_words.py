"""The audit's words for fair chance: only the checks the walk made, the draws it could not
prove, and each power's missing contributions (pbem.chance.contributions), for any game."""

from __future__ import annotations

from pbem.audit._walk import Tally
from pbem.chance.contributions import audit_line


def unproven_text(t: Tally) -> str:
    """``the hidden draws of step 1 (turn 1) remain unproven, and the 4 resolution(s) after it
    could not be replayed``."""
    step, turn = t.hidden_first or (None, None)
    first = (f"the hidden draws of step {step} (turn {turn})" if step is not None
             else "the hidden draws")
    later = t.unreplayed_resolutions - t.hidden_unproven
    return first + " remain unproven" + (
        f", and the {later} resolution(s) after it could not be replayed" if later > 0
        else "")


def chance_lines(t: Tally) -> list[str]:
    """The chance line (only the checks made: the chains always; the signed files and the
    replay where the walk could make them), then one line per power drawn without its value."""
    parts = [f"chance: {t.chance_steps} drawing steps, the referee's value and each "
             "player's checked against their committed chains"]
    if t.chance_signed == t.chance_steps:
        parts.append("each player's value is the one in his signed file")
    elif t.chance_signed:
        parts.append(f"each player's value is the one in his signed file in "
                     f"{t.chance_signed} of them")
    if t.chance_replayed:
        what = "public and hidden" if t.chance_secret else "public"
        parts.append(f"the {what} draws of {t.chance_replayed} of them replayed")
    else:
        parts.append("no draw replayed")
    if t.chance_secret:
        parts.append("the referee's secret K revealed and checked against genesis")
    elif t.hidden_unproven:
        step = t.hidden_first[0] if t.hidden_first else "?"
        when = "the game is over" if t.finished else "it is revealed at the game's end"
        parts.append(f"hidden draws not {'proven' if t.finished else 'yet provable'}: "
                     f"step {step} drew in secret and the referee has not revealed K "
                     f"({when}); the public draws of each step are proven by its "
                     "report's chance-step-N.json: pbem dice verify REPORT.eml")
    return ["; ".join(parts)] + [f"chance: {audit_line(t.contributions, p)}" for p in t.powers
                                 if t.contributions.without(p)]
