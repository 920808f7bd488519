"""The secret objective kept at set-up (RULES.md T82): each player sees the secrets he drew
and keeps the pack's ``kept`` of them by choice.

The deal (``table.set_up``, T31) gives each player the first ``kept`` of the ``drawn`` secrets
he draws and puts the rest under the secret deck, player after player in seat order. The
plugin records every hand drawn in ``state["drawn"]`` (hidden: his own in his view alone). In
the first step where he is due after the deal his ``keep:`` entry (silence: the first ones) is
settled: the secrets he keeps replace the provisional ones, the others take their places at
the bottom of the deck, and only he is told which.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.errors import Problem

from .step import Step
from .table import Table


def rules(pk: Mapping[str, Any]) -> tuple[int, int]:
    """(drawn, kept) of the pack."""
    so = pk["rules"]["secret_objectives"]
    return int(so["drawn"]), int(so["kept"])


def drawn_hands(table: Table, pk: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each player's hand as drawn at the deal: his provisional secrets, then the ones
    ``set_up`` put under the deck (the deck's tail, in seat order)."""
    drawn, kept = rules(pk)
    back = drawn - kept
    deck = list(table.secret_deck)
    tail = deck[len(deck) - back * len(table.seats):] if back else []
    return {p: [*table.players[p].secrets, *tail[i * back:(i + 1) * back]]
            for i, p in enumerate(table.seats)}


def choice(value: object) -> list[str]:
    """A ``keep:`` entry as a list of ids (one id alone is a list of one)."""
    if isinstance(value, str):
        return [value]
    return [str(x) for x in value] if isinstance(value, list) else []


def keep_problems(value: object, hand: Sequence[str], kept: int) -> list[Problem]:
    """``keep:``: ``kept`` different secrets of the hand he drew."""
    if not hand:
        return [Problem("section-not-now", "keep", "keep: is asked for once, in your first "
                        "step after the deal")]
    ids = choice(value)
    if not isinstance(value, (str, list)) or len(ids) != kept or len(set(ids)) != kept:
        return [Problem("keep-count", "keep", f"keep: names {kept} of the secrets you drew "
                        f"({', '.join(hand)})")]
    return [Problem("keep-secret", f"keep[{i}]", f"{o} is not one of the secrets you drew "
                    f"({', '.join(hand)})") for i, o in enumerate(ids) if o not in hand]


def settle(table: Table, pk: Mapping[str, Any], player: str, hand: Sequence[str],
           wanted: Sequence[str]) -> tuple[Table, dict[str, Any]]:
    """``player`` keeps ``wanted`` of ``hand`` (not a valid choice: the first ones); the
    others take the places of the ones set aside at the deal, at the bottom of the deck."""
    _, kept = rules(pk)
    seat = table.players[player]
    keep = list(wanted) if not keep_problems(list(wanted), hand, kept) else list(hand[:kept])
    before = [o for o in hand if o not in seat.secrets]
    after = [o for o in hand if o not in keep]
    deck = list(table.secret_deck)
    if all(o in deck for o in before) and all(o in hand for o in seat.secrets):
        spots = {o: deck.index(o) for o in before}
        for old, new in zip(before, after, strict=True):
            deck[spots[old]] = new
        held = [o for o in hand if o in keep] + [o for o in seat.secrets if o not in hand]
        table = table.with_seat(player, secrets=tuple(held))
        table = replace(table, secret_deck=tuple(deck))
    else:
        keep = [o for o in hand if o in seat.secrets]
        after = [o for o in hand if o not in keep]
    return table, {"type": "secret-kept", "player": player, "to": [player], "kept": keep,
                   "text": f"You keep the secret objective(s) {', '.join(keep)}"
                   + (f"; {', '.join(after)} go(es) to the bottom of the deck" if after
                      else "") + "."}


def dealt(s: Step) -> None:
    """After the deal: every hand drawn recorded, each told to its player alone."""
    hands = drawn_hands(s.t, s.pk)
    _, kept = rules(s.pk)
    s.st["drawn"] = hands
    for p, hand in hands.items():
        s.events.append({"type": "secrets-drawn", "player": p, "to": [p], "drawn": list(hand),
                         "kept": kept,
                         "text": f"You draw the secret objectives {', '.join(hand)}: keep "
                         f"{kept} (keep: in your next orders; silence keeps "
                         f"{', '.join(hand[:kept])})."})


def settle_due(s: Step, orders: Mapping[str, Any], due: Sequence[str]) -> None:
    """Every hand whose player is due in this step (or has conceded) settled."""
    drawn = dict(s.st.get("drawn") or {})
    if not drawn or s.table is None:
        return
    for p in [q for q in s.t.seats if q in drawn]:  # seat order, whatever the dict's order
        if p not in due and p not in s.st["conceded"]:
            continue
        wanted = choice((orders.get(p) or {}).get("keep")) if p not in s.st["conceded"] \
            else []
        s.table, event = settle(s.t, s.pk, p, drawn.pop(p), wanted)
        s.events.append(event)
    s.st["drawn"] = drawn
