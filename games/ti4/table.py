"""The table: the players' economy beside the board (RULES.md T30-T32).

A ``Table`` is immutable (frozen dataclasses; ``replace`` makes the next one) and has a
canonical JSON form (``to_data``/``from_data``). It holds the seating and the speaker, each
player's VP, trade goods, commodities, strategy cards held and used, passing, technologies,
secret objectives held and objectives scored; the trade goods lying on unchosen strategy cards;
the public objectives revealed and the order of the rest; the secret-objective and agenda decks;
the laws in play; whether the Custodians are taken; and the winner. Command-token pools are on
the board (``board.POOLS``), not here.

Hidden here and nowhere in a view: the decks' order and each player's unscored secrets (the
per-player view, ``view.py``, shows decks as counts and another's secrets as a count).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pbem.game.chance import Chance


@dataclass(frozen=True)
class Seat:
    """One player's economy."""

    vp: int = 0
    trade_goods: int = 0
    commodities: int = 0
    cards: tuple[str, ...] = ()       # strategy cards held this round
    used: tuple[str, ...] = ()        # of those, exhausted by the strategic action
    passed: bool = False
    techs: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()     # secret objectives held, unscored
    scored: tuple[str, ...] = ()      # objectives scored (public and secret), in order

    def to_data(self) -> dict[str, Any]:
        return {"vp": self.vp, "trade_goods": self.trade_goods, "commodities": self.commodities,
                "cards": list(self.cards), "used": list(self.used), "passed": self.passed,
                "techs": list(self.techs), "secrets": list(self.secrets),
                "scored": list(self.scored)}

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Seat:
        return Seat(int(data["vp"]), int(data["trade_goods"]), int(data["commodities"]),
                    tuple(data["cards"]), tuple(data["used"]), bool(data["passed"]),
                    tuple(data["techs"]), tuple(data["secrets"]), tuple(data["scored"]))


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]                      # players clockwise
    factions: Mapping[str, str]                 # player -> faction id
    speaker: str
    players: Mapping[str, Seat]
    round: int = 1
    card_goods: Mapping[str, int] = field(default_factory=dict)  # trade goods on cards
    publics: tuple[str, ...] = ()               # public objectives revealed
    public_deck: tuple[str, ...] = ()           # the rest, in the order they will be revealed
    secret_deck: tuple[str, ...] = ()
    agenda_deck: tuple[str, ...] = ()
    laws: Mapping[str, str] = field(default_factory=dict)  # law -> outcome (or elected)
    custodians_taken: bool = False
    locked: Mapping[str, str] = field(default_factory=dict)  # system -> player, this round
    turn: str | None = None                     # who acts next in the action phase
    winner: str | None = None
    ended: bool = False

    def seat(self, player: str) -> Seat:
        return self.players[player]

    def with_seat(self, player: str, **changes: Any) -> Table:
        players = dict(self.players)
        players[player] = replace(players[player], **changes)
        return replace(self, players=players)

    def speaker_order(self) -> list[str]:
        """The speaker, then clockwise."""
        i = self.seats.index(self.speaker)
        return list(self.seats[i:] + self.seats[:i])

    def to_data(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "factions": dict(sorted(self.factions.items())),
                "speaker": self.speaker, "round": self.round,
                "players": {p: s.to_data() for p, s in sorted(self.players.items())},
                "card_goods": {c: n for c, n in sorted(self.card_goods.items()) if n},
                "publics": list(self.publics), "public_deck": list(self.public_deck),
                "secret_deck": list(self.secret_deck), "agenda_deck": list(self.agenda_deck),
                "laws": dict(sorted(self.laws.items())),
                "custodians_taken": self.custodians_taken,
                "locked": dict(sorted(self.locked.items())), "turn": self.turn,
                "winner": self.winner,
                "ended": self.ended}

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Table:
        return Table(tuple(data["seats"]), dict(data["factions"]), data["speaker"],
                     {p: Seat.from_data(s) for p, s in data["players"].items()},
                     int(data["round"]), dict(data["card_goods"]), tuple(data["publics"]),
                     tuple(data["public_deck"]), tuple(data["secret_deck"]),
                     tuple(data["agenda_deck"]), dict(data["laws"]),
                     bool(data["custodians_taken"]), dict(data["locked"]), data["turn"],
                     data["winner"],
                     bool(data["ended"]))


def initiative(table: Table, cards: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Players by their lowest strategy card's initiative (RULES.md T33); players holding no
    card (between rounds) follow in speaker order."""
    order = table.speaker_order()

    def key(p: str) -> tuple[int, int]:
        held = [int(cards[c]["initiative"]) for c in table.players[p].cards]
        return (min(held) if held else 1000, order.index(p))
    return sorted(table.seats, key=key)


def set_up(pack: Mapping[str, Any], seats: Sequence[str], factions: Mapping[str, str],
           speaker: str, chance: Chance) -> Table:
    """The table at set-up (RULES.md T31): the public objectives dealt (stage I shuffled, then
    stage II shuffled, each cut to the pack's count) with the first ones revealed; every player
    draws secrets and keeps the first (a player's choice of which is the plugin's); the agenda
    deck shuffled; commodities empty, no trade goods."""
    rules = pack["rules"]
    objectives = pack["objectives"]
    publics: list[str] = []
    for stage, key in ((1, "stage1"), (2, "stage2")):
        ids = sorted(o for o, d in objectives.items() if d["stage"] == stage)
        publics += chance.secret(f"deal:public:stage{stage}").shuffle(ids)[
            :int(rules["public_objectives"][key])]
    shown = int(rules["public_objectives"]["revealed_at_start"])
    secrets = chance.secret("deal:secrets").shuffle(
        sorted(o for o, d in objectives.items() if d["stage"] == "secret"))
    agendas = chance.secret("deal:agendas").shuffle(sorted(pack["agendas"]))
    players: dict[str, Seat] = {}
    drawn, kept = int(rules["secret_objectives"]["drawn"]), int(rules["secret_objectives"]["kept"])
    for p in seats:
        hand, secrets = secrets[:drawn], secrets[drawn:]
        players[p] = Seat(secrets=tuple(hand[:kept]),
                          techs=tuple(pack["factions"][factions[p]]["techs"]))
        secrets += hand[kept:]   # the ones not kept go to the bottom of the deck
    return Table(tuple(seats), dict(factions), speaker, players, publics=tuple(publics[:shown]),
                 public_deck=tuple(publics[shown:]), secret_deck=tuple(secrets),
                 agenda_deck=tuple(agendas))


def award(table: Table, player: str, vp: int, why: str, events: list[dict[str, Any]],
          target: int) -> Table:
    """``player`` gains ``vp``; the game ends the moment he reaches ``target`` (RULES.md T41).
    Nothing is gained once the game is over."""
    if table.winner is not None or table.ended or vp <= 0:
        return table
    total = table.players[player].vp + vp
    events.append({"type": "vp", "player": player, "vp": vp, "total": total,
                   "text": f"{player} gains {vp} VP ({why}): {total} VP."})
    table = table.with_seat(player, vp=total)
    if total >= target:
        events.append({"type": "victory", "player": player,
                       "text": f"{player} reaches {total} VP and wins at once."})
        table = replace(table, winner=player, ended=True)
    return table
