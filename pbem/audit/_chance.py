"""What the audit checks about fair chance (docs/protocol.md, "What the audit checks").

Kept beside the walk, which calls it at each entry: genesis commitments, each power's tip and
revealed values against the signed files and the chains, the referee's value per drawing step,
and K at the game's end against the genesis commitments. Each failure is a sentence the walk
turns into an AuditFailure naming the entry and field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.chance.errors import ChanceError, ChanceMismatch
from pbem.chance.player import check_player_reveal
from pbem.chance.referee import check_referee_reveal, check_secret
from pbem.store import chance
from pbem.store.log import Entry

if TYPE_CHECKING:
    from pbem.store.records import BodyIn, Genesis

_HEX = re.compile(r"[0-9a-f]{64}")


class ChanceProblem(Exception):
    """(field, expected, found, why) of the first chance check that fails."""

    def __init__(self, field: str, expected: str, found: str, why: str) -> None:
        super().__init__(field)
        self.field, self.expected, self.found, self.why = field, expected, found, why


def _hex(value: object, field: str) -> bytes:
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise ChanceProblem(field, "64 lower-case hex digits", repr(value)[:80],
                            "a chance value is 32 bytes in hex")
    return bytes.fromhex(value)


class ChanceAudit:
    """The chance facts of one game as the walk goes (None-safe for games without chance)."""

    def __init__(self, genesis: Genesis, secret: Entry | None) -> None:
        """``secret``: the (last) entry revealing K, found before the walk (None: none)."""
        rnd = genesis.get(chance.RANDOM)
        self.enabled = isinstance(rnd, Mapping)
        self.ledger = chance.Ledger()
        self.k: bytes | None = None
        self.secret_seq: int | None = None
        self.drawing_steps = 0
        self.hidden_unproven = 0  # resolutions whose hidden draws wait for K
        if not self.enabled:
            return
        assert isinstance(rnd, Mapping)
        self.referee_tip = _hex(rnd.get("referee_tip"), "random.referee_tip")
        self.secret_commit = _hex(rnd.get("secret_commit"), "random.secret_commit")
        self.referee_last = (self.referee_tip, 0)
        if secret is not None:
            self.secret_seq = secret.seq
            self.k = _hex(secret.body.get("k"), "k")

    def check_secret(self) -> None:
        """K against secret_commit and referee_tip (at the revealing entry)."""
        assert self.k is not None
        try:
            check_secret(self.k, self.secret_commit, self.referee_tip)
        except ChanceMismatch as exc:
            raise ChanceProblem("k", "the secret K committed at genesis (secret_commit, "
                                "referee_tip)", f"{self.k.hex()[:16]}…", str(exc)) from None

    def orders(self, body: BodyIn, signed_entropy: Any,
               window: Any = None) -> None:
        """An orders entry: its ``entropy`` is the signed file's, a value hashes to the
        power's last known one, and the file carries the contribution its step needs
        (``window``: the step's, when the walk knows the state): the referee could not have
        accepted it otherwise."""
        logged = body.get("entropy")
        if logged != signed_entropy:
            raise ChanceProblem("entropy", f"{str(signed_entropy)[:40]} (the signed file)",
                                f"{str(logged)[:40]} (the entry)", "the entry's chance value "
                                "is not the one the player signed")
        if self.enabled and window is not None:
            lacking = chance.missing(self.ledger, window.kind, window.due, window.draws,
                                     str(body["power"]), logged)
            if lacking is not None:
                raise ChanceProblem("entropy", "the contribution the step needs",
                                    str(logged)[:40], "the referee accepted a file he must "
                                    "refuse: " + lacking)
        if self.enabled:
            try:
                self.ledger.check(str(body["power"]), logged)
            except (ChanceError, ChanceMismatch) as exc:
                raise ChanceProblem("entropy", "a value on the power's committed chain",
                                    str(logged)[:40], str(exc)) from None

    def resolve(self, entry: Entry, standing: Mapping[str, Mapping[str, Any]] | None) -> int:
        """A resolve entry's ``random`` field: the referee's value on its chain, each due
        power's value the one in its standing signed file (``standing`` None: withheld, only
        the chains are checked) and on its chain. Returns the step number."""
        step = self.ledger.step + 1
        rnd = entry.body.get(chance.RANDOM) if isinstance(entry.body, dict) else None
        if rnd is None:
            self.ledger.add(entry)
            return step
        if not self.enabled or not isinstance(rnd, Mapping):
            raise ChanceProblem("random", "no chance record (genesis committed none)",
                                str(rnd)[:80], "a game without commitments cannot draw")
        self.drawing_steps += 1
        referee = _hex(rnd.get("referee"), "random.referee")
        try:
            check_referee_reveal(referee, step, *self.referee_last)
        except ChanceMismatch as exc:
            raise ChanceProblem("random.referee", f"the referee's chain value for step {step}",
                                f"{referee.hex()[:16]}…", str(exc)) from None
        self.referee_last = (referee, step)
        players = rnd.get("players")
        due = list(entry.body.get("due") or [])
        heard = [*due, *[p for p in entry.body.get("listens") or [] if p not in due]]
        if not isinstance(players, Mapping) or sorted(players) != sorted(heard):
            raise ChanceProblem("random.players", f"a value or null for each due and each "
                                f"listened power ({', '.join(heard)})", str(players)[:80],
                                "every power the step concerns has a place in its seed")
        if self.ledger.drawn == 0:
            lacking = [p for p in due if players.get(p) is None and not self.ledger.exempt(p)]
            if lacking:
                raise ChanceProblem(f"random.players.{lacking[0]}", "a value from every "
                                    "power due at the game's first draw", "null",
                                    f"step {step} is the game's first draw, and "
                                    f"{', '.join(lacking)} contributed nothing: "
                                    f"{chance.FIRST_DRAW_RULE}")
        for power, value in players.items():
            where = f"random.players.{power}"
            if standing is not None:
                parsed = chance._quiet((standing.get(power) or {}).get("entropy"))
                signed = parsed[1].hex() if parsed and parsed[0] == "value" else None
                if value != signed:
                    raise ChanceProblem(where, f"{signed} (the power's standing signed file)",
                                        str(value), "the step's seed must use the value the "
                                        "player signed, or none if he sent none")
            if value is None:
                continue
            got = _hex(value, where)
            if not self.ledger.committed_before(power, step):
                raise ChanceProblem(where, f"a value on a tip committed before step {step}",
                                    f"{got.hex()[:16]}…", f"{power}'s tip was not committed "
                                    "in an earlier step's file, so his value could be chosen "
                                    "after the others' were known")
            if power in self.ledger.known:
                try:
                    check_player_reveal(power, got, step, *self.ledger.known[power])
                except ChanceMismatch as exc:
                    raise ChanceProblem(where, "a value on the power's committed chain",
                                        f"{got.hex()[:16]}…", str(exc)) from None
        self.ledger.add(entry)
        return step

    def note(self, entry: Entry) -> None:
        """Orders and key entries the ledger follows (tips, replaced players)."""
        self.ledger.add(entry)
