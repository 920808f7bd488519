"""One resolution's working copies (turn.py's ``Step``): the state's changing parts, the table
and board as objects, the events so far, and how they are handed back: the events addressed
(a core event's ``to`` made the engine's ``private``), stamped with the round the step is
played in and the step, and the result written once the table says the game has ended."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.errors import Problem
from pbem.game.chance import Chance
from pbem.game.events import private

from . import setup
from .board import Board
from .table import Table

Event = dict[str, Any]
State = dict[str, Any]


def upcoming(pk: Mapping[str, Any], table: Table) -> list[str]:
    """The agendas this agenda phase votes on: the top of the deck, revealed when the phase
    opens (the ballots of both are written together: RULES.md)."""
    return list(table.agenda_deck[:int(pk["rules"]["agendas_per_phase"])])


class Step:
    """One resolution's working copies: the state's changing parts, the table and board as
    objects, and the events so far."""

    def __init__(self, state: Mapping[str, Any], chance: Chance) -> None:
        self.st: State = {**state, "standing": copy.deepcopy(state["standing"]),
                          "conceded": list(state["conceded"]),
                          "pending": copy.deepcopy(state["pending"])}
        self.pk: Mapping[str, Any] = setup.core(state["pack"])
        self.chance = chance
        self.events: list[Event] = []
        #: the round the step is played in, which its events carry (rules version 2; under
        #: 1 they carried the round the step ended in: the next one after a status or agenda
        #: phase that moved it on)
        self.round = int(state["round"]) if setup.rules_version(state) >= 2 else None
        self.table: Table | None = setup.table_of(state) if state["table"] else None
        self.board: Board | None = setup.board_of(state) if state["board"] else None

    @property
    def t(self) -> Table:
        assert self.table is not None
        return self.table

    @property
    def b(self) -> Board:
        assert self.board is not None
        return self.board

    def catalog(self) -> Any:
        return setup.catalog({**self.st, "table": self.t.to_data()})

    def phase(self, phase: str) -> None:
        self.st["phase"] = phase
        self.st["round"] = self.t.round
        words = {"strategy": "the strategy phase begins", "action": "the action phase begins",
                 "status": "the status phase begins", "agenda": "the agenda phase begins"}
        if phase in words:
            more: dict[str, Any] = {}
            text = f"Round {self.t.round}: {words[phase]}."
            if phase == "agenda":  # the agendas voted on are revealed with the phase
                more["agendas"] = upcoming(self.st["pack"], self.t)
                text = text[:-1] + f": the agendas are {', '.join(more['agendas'])}."
            self.events.append({"type": "phase", "phase": phase, "round": self.t.round,
                                "text": text, **more})

    def refused(self, player: str, section: str, problems: Sequence[Problem],
                instead: str) -> None:
        self.events.append({"type": "refused", "player": player, "section": section, "to":
                            [player], "problems": [{"code": p.code, "path": p.path,
                                                    "message": p.message} for p in problems],
                            "text": f"Your {section} was refused ("
                            + "; ".join(p.message for p in problems) + f"): {instead}."})

    def done(self, step: bool = True) -> tuple[State, list[Event]]:
        """The new state and the step's events, addressed (``step`` false: a game master's
        operation, which is not a step and leaves ``turn`` as it was)."""
        if self.table is not None:
            self.st["table"] = self.t.to_data()
            self.st["round"] = self.t.round
        if self.board is not None:
            self.st["board"] = self.b.to_data()
        out = []
        for e in self.events:
            e = dict(e)
            e.setdefault("turn", self.st["turn"])
            e.setdefault("round", self.st["round"] if self.round is None else self.round)
            if isinstance(e.get("player"), str):
                e.setdefault("power", e["player"])
            to = e.pop("to", None)
            out.append(private(e, *to) if isinstance(to, list) and to else e)
        if self.table is not None and self.t.ended and self.st["result"] is None:
            self.st["phase"] = "over"
            winners = [self.t.winner] if self.t.winner else []
            reason = next((e["text"] for e in reversed(out)
                           if e["type"] in ("victory", "game-end")), "the game ended")
            at = self.st["turn"] + (1 if step else 0)
            self.st["result"] = {"reason": reason, "turn": at, "winners": winners}
            out.append({"type": "game_over", "turn": at, "reason": reason, "winners": winners})
        if step:
            self.st["turn"] += 1
        return self.st, out
