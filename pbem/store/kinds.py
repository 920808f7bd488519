"""The store's closed vocabularies as StrEnums: each member is its wire word, so a file written
with a member holds exactly the string it held before (the formats are 1.0), and a member
compares equal to the string read back from disk.

- ``EntryKind``: the kind of a log entry (docs/protocol.md, "The log").
- ``Verdict``: a stored submission's verdict (pbem.store.submissions).
- ``VoteKind``, ``VoteRule``: what players may vote on, and how a vote carries (the game's
  config, ``votes:``; pbem.store.gameconfig).
- ``GmOp``: the operation of a game-master log entry (pbem.host.gmops writes them).
"""

from __future__ import annotations

from enum import StrEnum


class EntryKind(StrEnum):
    """The kind of a log entry."""

    GENESIS = "genesis"  # the first entry: the game's set-up
    ORDERS = "orders"  # an accepted order file
    RESOLVE = "resolve"  # a resolution: the step's orders, chance and events
    GM = "gm"  # a signed game-master operation
    KEY = "key"  # a player's key registered or replaced
    PRESS = "press"  # a relayed press message


class Verdict(StrEnum):
    """What the host decided of a stored submission (its sidecar's ``verdict``)."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"


class VoteKind(StrEnum):
    """What players may vote on."""

    DRAW = "draw"
    CANCEL = "cancel"  # end with no winner
    PAUSE = "pause"
    RESUME = "resume"


class VoteRule(StrEnum):
    """How a vote carries."""

    UNANIMOUS = "unanimous"
    MAJORITY = "majority"


class GmOp(StrEnum):
    """The ``op`` of a game-master (``gm``) log entry: what the operation did."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"
    REPLACE = "replace"
    CONCEDE = "concede"
    END = "end"
    CANCEL = "cancel"  # the game ends with no winner (a vote or the game master)
    AUTOPILOT = "autopilot"  # an abandoned seat played by its standing orders
    VOTE = "vote"  # a player's signed vote, logged
    PREFS = "prefs"  # a player's own settings, logged
    CHANCE_SECRET = "chance-secret"  # the referee's K revealed at the game's end
