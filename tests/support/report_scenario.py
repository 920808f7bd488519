"""The scripted games the report tests render (goldens, leak test, screenshot tool).

Independents, 4 players (``golden_game``): departures, a combined arrival of two warps winning a
battle, production, a home star captured and its owner eliminated, a warp at its furthest reach.
Wild Alliance (``wild_game``): a secret alliance proposed, formed, then announced by a combined
arrival. Both are played through the real plugin with tests.support.ad_driver.Table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem import canonical
from pbem.store import replay
from tests.support.ad_driver import AD, Table

CHECKPOINT = (
    "pbem-checkpoint game=test-game length=53 "
    "head=9c41d2a07b3e55f1c0de4b6a8e2f719a3c5d0b8e6f4a2c1d9e7b5a3f1c0d2e4b\n"
    " sig=" + "Q" * 86 + "\n"
)
GAME = {"game_id": "test-game", "title": "Andromeda Seven", "deadline": "2026-12-02T18:00:00Z",
        "checkpoint": CHECKPOINT, "missed": {"pavo": 1},
        "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
PLAYERS = {
    "algol": {"name": "Ann Example", "email": "ann@example.org", "tz": "Europe/Paris"},
    "regulus": {"name": "Bob Example", "email": "bob@example.org", "tz": "America/New_York"},
    "pavo": {"name": "Cy Example", "email": "cy@example.org", "tz": None},
    "antares": {"name": "Di Example", "email": "di@example.org", "tz": "Asia/Tokyo"},
}


@dataclass
class Round:
    """One resolution: the states around it and its events."""

    before: dict[str, Any]
    after: dict[str, Any]
    events: list[dict[str, Any]]
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    vault: dict[tuple[str, str, int], tuple[str, str]] = field(default_factory=dict)
    bodies: dict[str, dict[str, Any]] = field(default_factory=dict)


def _play(t: Table, rounds: list[Round], **bodies: dict[str, Any]) -> Round:
    before = t.state
    # What Table.play would send for a due power without a body (its due reveals), made here
    # so the round records every submission, as the log does.
    bodies = {p: bodies.get(p) or t.body(p) for p in AD.powers_due(before)}
    normalised = {}
    for power, body in bodies.items():
        normalised[power], problems = t.check(power, body)
        assert not problems
    events = t.play(**bodies)
    r = Round(before, t.state, events, normalised, dict(t.vault),
              {p: dict(b) for p, b in bodies.items()})
    rounds.append(r)
    return r


def golden_game() -> tuple[Table, list[Round]]:
    """Four rounds of Independents, 4 players."""
    t = Table().put("Hamal", "pavo", 8).put("Schedar", "algol", 5).put("Antares", "antares", 20)
    # Regulus: a long journey that will sit at its furthest reach.
    rounds: list[Round] = []
    # Turn 1: four departures.
    _play(t, rounds,
          algol=t.body("algol", ("Schedar", 5, "Hamal")),
          regulus=t.body("regulus", ("Regulus", 4, "Adhara")),
          antares=t.body("antares", ("Antares", 9, "Pavo")),
          pavo=t.body("pavo", ("Pavo", 10, "Vega")))
    # Turn 2 (production): Algol's second fleet for Hamal; Regulus lands at Adhara and sends
    # a fleet far away.
    _play(t, rounds,
          algol=t.body("algol", ("Algol", 5, "Hamal")),
          regulus=t.body("regulus", ("Regulus", 3, "Sabik")))
    # Turn 3: Algol's two warps arrive together at Hamal and win; Antares takes Pavo.
    _play(t, rounds)
    # Turn 4 (production): Pavo did not regain its home star: eliminated.
    _play(t, rounds, antares=t.body("antares", ("Pavo", 4, "Mira")))
    return t, rounds


ESCROW = "ESCROW-pavo-" + "Zm9vYmFy" * 8


def _escrowed(body: dict[str, Any]) -> dict[str, Any]:
    body["depart"]["escrow"] = ESCROW
    return body


def wild_game() -> tuple[Table, list[Round]]:
    """Wild Alliance: Algol and Regulus ally in secret, then combine an arrival."""
    t = Table("wild-4").put("Capella", "algol", 2).put("Elnath", "regulus", 2)
    rounds: list[Round] = []
    _play(t, rounds,
          algol=t.body("algol", ("Algol", 6, "Caph"), alliance={"propose": ["regulus"]}),
          regulus=t.body("regulus", ("Regulus", 5, "Wezen"),
                         alliance={"accept": ["algol"]}),
          pavo=_escrowed(t.body("pavo", ("Pavo", 7, "Sirius"))),
          antares=t.body("antares", alliance={"propose": ["pavo"]}))
    _play(t, rounds, algol=t.body("algol", ("Algol", 4, "Mira")))
    _play(t, rounds, algol=t.body("algol", ("Capella", 2, "Elnath")),
          pavo=t.body("pavo", alliance={"accept": ["antares"]}))
    _play(t, rounds, regulus=t.body("regulus", ("Elnath", "all", "Mintaka")))
    _play(t, rounds)
    return t, rounds


def alliances_game() -> tuple[Table, list[Round]]:
    """Alliances, 2 players: one player commands Pavo and Antares."""
    t = Table("alliances-2")
    rounds: list[Round] = []
    _play(t, rounds, pavo=t.body("pavo", ("Pavo", 6, "Vega")),
          antares=t.body("antares", ("Antares", 5, "Nunki")),
          regulus=t.body("regulus", ("Regulus", 7, "Sirius")))
    return t, rounds


def log(rounds: list[Round]) -> list[dict[str, Any]]:
    """The log the engine writes for these rounds: an ``orders`` entry per submission (made by
    the engine's own replay.orders_body) and a ``resolve`` entry per round naming them."""
    out: list[dict[str, Any]] = []
    for r in rounds:
        used: dict[str, str | None] = {p: None for p in AD.powers_due(r.before)}
        turn = AD.orders_turn(r.before)
        for power, body in r.bodies.items():
            sha = canonical.digest([turn, power, body])
            out.append({"kind": replay.ORDERS, "body": replay.orders_body(
                turn=turn, power=power, seq=1, sha256=sha, text="", orders=body,
                received="", message_id=None, key="")})
            used[power] = sha
        out.append({"kind": replay.RESOLVE, "body": {
            "turn": turn, "due": AD.powers_due(r.before), "used": used, "escrow": {},
            "state": canonical.digest(r.after), "events": r.events}})
    return out


def reveal(rounds: list[Round]) -> list[dict[str, Any]]:
    """The end-of-game reveal, as production makes it: the game's presenter over the log."""
    return AD.presenter.reveal(log(rounds))
