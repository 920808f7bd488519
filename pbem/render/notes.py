"""The turn report's notices beside the events (templates/common/_turn_notes.*), in sentences:
the game master's operations since the last report, what was done for a power that missed the
turn, and the order the powers were resolved in. The game-master notice mail uses the same
sentences."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem.game.base import Presenter
from pbem.game.plugin import GamePlugin
from pbem.render.environment import format_when
from pbem.store.kinds import GmOp

if TYPE_CHECKING:
    from pbem.game.shapes import ChanceFacts, Context, GmNotice, MailFacts, MissedTurn
    from pbem.store.records import BodyIn


def when(iso: str | None, tz: str | None) -> str:
    """A UTC ISO time as "Wed 2 Dec 2026 18:00 UTC (19:00 Europe/Paris)"."""
    f = format_when(iso, tz)
    if f is None:
        return ""
    return f["utc"] + (f" ({f['local']})" if f["local"] else "")


def notice_line(notice: GmNotice, tz: str | None = None) -> str:
    """One game-master operation in a sentence (the notice mail and the report's section)."""
    op, name = notice["op"], str(notice.get("power") or "").capitalize()
    at = when(notice.get("time"), tz)
    reason = f" ({notice['reason']})" if notice.get("reason") else ""
    turn = f" for turn {notice['turn']}" if notice.get("turn") else ""
    if op == GmOp.PAUSE:
        return (f"The game master paused the game on {at}{reason}. No turn is resolved while "
                "it is paused; you will get a new deadline when it resumes.")
    if op == GmOp.RESUME:
        return (f"The game master resumed the game on {at}: orders{turn} are now due "
                f"{when(notice.get('deadline'), tz)}.")
    if op == GmOp.EXTEND:
        return (f"The game master moved the deadline{turn} on {at}: orders are now due "
                f"{when(notice.get('deadline'), tz)}.")
    if op == GmOp.REPLACE:
        return (f"The game master gave {name} to a new player on {at}; orders for {name} are "
                "now taken only with the new player's key.")
    if op == GmOp.CONCEDE:
        return f"{name} conceded on {at} (through the game master)."
    if op == GmOp.AUTOPILOT:
        who = ("The referee" if notice.get("auto") else "The game master")
        return (f"{who} put {name}'s seat on autopilot on {at}, after {notice.get('missed')} "
                f"missed turns in a row: {name}'s standing orders (or the game's default "
                f"answer) are used and no turn waits for it, until its player sends orders "
                "again (that takes the seat back) or a new player takes it.")
    if op == GmOp.END:
        return f"The game master ended the game on {at}{reason}."
    if op == "cancel":
        return f"The game master cancelled the game on {at}{reason}: it ends with no winner."
    return f"The game master made a change on {at} ({op})."


def nmr_lines(power: str, nmr: MissedTurn) -> list[str]:
    """What was done for ``power`` when it sent no usable orders for a turn."""
    name = power.capitalize()
    out = []
    if nmr.get("stale"):
        out.append(f"{name}'s orders for turn {nmr['turn']} no longer fitted the situation when "
                   f"the turn was resolved ({'; '.join(nmr['stale'])}), so they were not used: "
                   "its standing orders were.")
    else:
        out.append(f"{name} sent no orders for turn {nmr['turn']}: its standing orders were "
                   "used.")
    for slot in nmr.get("escrow", []):
        out.append(f"The referee opened what you had sealed in escrow for this case (slot "
                   f"{slot}), so it was used as planned.")
    for slot in nmr.get("escrow_unused", []):
        out.append(f"The referee opened what you had sealed in escrow for this case (slot "
                   f"{slot}), but it could not be used this turn (not a valid reveal for it now, "
                   "or not a place of the board), so nothing was done with it.")
    out.append(f"Turns missed so far: {nmr['total']} ({nmr['in_a_row']} in a row).")
    if nmr.get("alerted"):
        out.append("The game master has been told, and may give the power to a new player.")
    if nmr.get("autopilot"):
        out.append(f"{name}'s seat is on autopilot: its standing orders are used and no turn "
                   "waits for it. Send orders to take the seat back.")
    return out


def gm_missed_lines(nmr: Mapping[str, MissedTurn]) -> list[str]:
    """The game master's summary: each power that missed the turn just resolved, in one
    sentence (what was used instead, and the count so far)."""
    out = []
    for power, info in sorted(nmr.items()):
        name = power.capitalize()
        why = (f"its orders no longer fitted ({'; '.join(info['stale'])})"
               if info.get("stale") else "it sent no orders")
        escrow = "; its escrow was opened" if info.get("escrow") else ""
        alert = "; you have been alerted" if info.get("alerted") else ""
        out.append(f"{name} missed turn {info['turn']}: {why}, so its standing orders were "
                   f"used{escrow} ({info['total']} missed so far, {info['in_a_row']} in a "
                   f"row{alert}).")
    return out


def turn_notes(game: MailFacts, powers: Sequence[str],
               tz: str | None = None) -> Context:
    """The report's notices beside the events (templates/common/_turn_notes.*): the game
    master's operations since the last report, what was done for the reader's powers that
    missed the turn, the order the powers were resolved in (when more than one was), and in a
    digest (pbem.host.mailpolicy) what the reader's powers saw of the steps not mailed to him
    (``earlier``: lines made from ``view_events`` for those powers alone)."""
    nmr = game.get("nmr") or {}
    order = [str(p).capitalize() for p in game.get("order") or []]
    return {
        "gm": [notice_line(n, tz) for n in game.get("notices") or []],
        "missed": [line for p in powers if p in nmr for line in nmr_lines(p, nmr[p])],
        "order": order if len(order) > 1 else [],
        "chance": chance_notes(game.get("chance"), powers),
        "earlier": [line for p in powers for line in (game.get("digest") or {}).get(p, [])],
        "standing": [],  # the standing files used: the report fills them in (render.mails)
    }


def chance_notes(drawn: ChanceFacts | None, powers: Sequence[str]) -> Context:
    """The report's fair-chance lines (``drawn``: pbem.host.notify.chance_facts): each public
    draw of the step with its label in words, how to re-check them, and the steps drawn
    without the reader's value when this one was. Empty for a step that drew nothing."""
    if not drawn:
        return {}
    step = drawn["step"]
    missing = drawn.get("missing") or {}
    own = [p for p in powers if p in missing]
    from pbem.chance.contributions import drawn_without  # a drawing step's notes only

    return {
        "step": step,
        "draws": [draw_words(d) for d in drawn.get("draws") or []],
        "verify": (f"To re-check every public draw of step {step}, save this mail and run: "
                   f"pbem dice verify THIS.eml (it reads the attached chance-step-{step}.json"
                   + ("; add --referee-tip WELCOME.eml to check the referee's value against "
                      "the tip your welcome mail gave" if drawn.get("referee_tip") else "")
                   + ")."),
        "missing": [_upper(drawn_without(missing[p], "your" if len(powers) == 1
                                         else f"{p.capitalize()}'s"))
                    + ": sign with `pbem orders sign FILE --key KEY --view THIS.eml` so your "
                    "value is in the next draws." for p in own],
    }


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def draw_words(draw: Mapping[str, Any]) -> str:
    """One draw in words: its label, what was drawn and what came."""
    words = " ".join(str(draw.get("label", "")).replace(":", " ").replace("-", " ").split())
    result = draw.get("result")
    kind = draw.get("kind")
    if kind == "roll" and isinstance(result, list):
        return f"{words}: rolled {', '.join(map(str, result))}"
    if kind == "below":
        return f"{words}: drew {result} (from 0 to {int(draw.get('n', 1)) - 1})"
    if kind == "shuffle" and isinstance(result, list):
        return f"{words}: shuffled into the order {', '.join(map(str, result))}"
    return f"{words}: {kind} {result}"


def digest_lines(plugin: GamePlugin, steps: Sequence[BodyIn], power: str) -> list[str]:
    """A digest's account of the steps not mailed to ``power``'s player (``steps``: their
    resolve entries' bodies, oldest first): each event ``power`` may see (the plugin's
    ``view_events``, nothing else) in a sentence, one line each: the game's own ``sentence``
    where its presenter is built on pbem.game.base.Presenter, else the generic one."""
    given = plugin.presenter
    say = (given if isinstance(given, Presenter) else Presenter()).sentence  # a game on the
    # contract's defaults words its events; another gets the generic sentence
    lines = [f"Step {body['turn']}: {say(e)}" for body in steps
             for e in plugin.view_events(body.get("events") or [], power)]
    return lines or [f"Nothing happened that {power.capitalize()} may see."]

