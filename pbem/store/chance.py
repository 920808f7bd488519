"""Fair chance in the store: the genesis commitments, the referee's chance of a game, what the
log says each power has committed and revealed, and the ``StepChance`` a resolution draws from
(docs/protocol.md, "Fair chance").

Why here: the turn job, the replay, the acceptance of an order file and the audit must agree on
the same facts (the step number, each power's last known chain value, the inputs of a step), and
all of them are facts of the log. The chance library (pbem.chance) is pure; this module reads
them from log entries.

* **Step numbers** count ``resolve`` entries from the game's start: the n-th resolution is step
  n, whatever its kind.
* **Tips** come from accepted order files whose envelope says ``entropy: {tip: HEX}`` (a game
  with chance asks for them in a first step of kind ``setup``, which draws nothing); a ``key``
  entry (a replaced player) forgets the power's chain, so the new player commits a tip of his
  own. The ledger keeps the step each tip was committed in: a value counts only on a tip
  committed at an EARLIER step.
* **Values** come from the ``entropy: HEX`` of the standing order file of each power the step
  concerns: the due powers and the powers the window listens to (``Window.listens``); the
  resolve entry records them (``random: {referee, players}``, null for a power that sent
  none) and they become the power's last known value.
* **The first draw** of a game needs every due power's value (``draw_values``): the set-up
  step and the first drawing step wait for every live power's contribution (``waiting_for``),
  and a draw attempted before (at step 1, say) raises. What each file must carry is
  ``expected``: a file without it is refused (``missing_problem``).
* A resolution that never draws records nothing: the chance is built only at the first draw
  (``LazyChance``), so games without dice (4000 A.D.) keep their logs and costs unchanged.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.chance.errors import ChanceError, ChanceMismatch
from pbem.chance.kinds import Contribution
from pbem.protocol.keys import PrivateKey
from pbem.record import Mutable
from pbem.store.kinds import EntryKind, GmOp
from pbem.store.log import Entry
from pbem.store.referee import referee_key

# The chance library's chains, streams and referee (cryptography's HKDF) are imported where a
# step draws or a tip or value is checked, not by every process that reads a game: an order mail
# to a game without dice reads only the instance id and the ledger (issue 30, "Fast start").
if TYPE_CHECKING:
    from pbem.chance.chain import N as N
    from pbem.chance.player import check_player_reveal as check_player_reveal
    from pbem.chance.player import missing_sentence as missing_sentence
    from pbem.chance.referee import RefereeChance as RefereeChance
    from pbem.chance.referee import new_nonce as new_nonce
    from pbem.chance.step import StepChance as StepChance
    from pbem.chance.stream import PUBLIC as PUBLIC
    from pbem.chance.stream import Stream
    from pbem.game.shapes import EventData
    from pbem.store.records import BodyIn, Genesis, LogBody

#: The chance library's names this module has always offered, each imported when first read.
_LATER = {"N": "chain", "check_player_reveal": "player", "missing_sentence": "player",
          "RefereeChance": "referee", "new_nonce": "referee", "StepChance": "step",
          "PUBLIC": "stream"}


def __getattr__(name: str) -> Any:
    """One of :data:`_LATER`, imported from pbem.chance when first read."""
    if name in _LATER:
        return getattr(importlib.import_module(f"pbem.chance.{_LATER[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

RANDOM = "random"
SECRET_OP = GmOp.CHANCE_SECRET  # the gm entry revealing K at the game's end
#: Bound once: Ledger.add runs on every log entry, and an enum member read off its class costs
#: a lookup each time.
_ORDERS, _RESOLVE, _TIP = EntryKind.ORDERS, EntryKind.RESOLVE, Contribution.TIP
EVENT = "chance"  # the event listing a step's public draws
_HEX = re.compile(r"[0-9a-f]{64}")

# One RefereeChance per game per process: its chain checkpoints make every later value cheap.
_REFEREES: dict[tuple[str, str, str], RefereeChance] = {}


def genesis_random(referee: PrivateKey, game_id: str) -> dict[str, str]:
    """What genesis records: ``{nonce, referee_tip, secret_commit}`` (a fresh nonce)."""
    from pbem.chance.referee import RefereeChance, new_nonce

    rc = RefereeChance(referee.raw(), game_id, new_nonce())
    _REFEREES[(game_id, rc.nonce.hex(), referee.public.text())] = rc
    return rc.commitments().to_json()


def instance(genesis: Genesis) -> str:
    """This game instance's id (the genesis nonce): order files carry it, so a file of an older
    game made again under the same id and keys is refused. Every game has one (GameDir.create
    draws it); a genesis without it is damaged."""
    rnd = genesis.get(RANDOM)
    nonce = rnd.get("nonce") if isinstance(rnd, Mapping) else None
    if not isinstance(nonce, str):
        raise ChanceError(f"game {genesis.get('game_id')}: the genesis entry has no instance "
                          "(random.nonce)")
    return nonce


def referee_chance(genesis: Genesis, referee: PrivateKey) -> RefereeChance:
    """The referee's chance of the game (every 1.0 genesis commits to it: one without is
    damaged). Refuses a key that does not make the commitments genesis recorded."""
    from pbem.chance.referee import RefereeChance

    rnd = genesis.get(RANDOM)
    instance(genesis)  # raises for a genesis without its commitments
    assert isinstance(rnd, Mapping)
    game_id = str(genesis["game_id"])
    cache = (game_id, str(rnd["nonce"]), referee.public.text())
    rc = _REFEREES.get(cache)
    if rc is None:
        rc = RefereeChance(referee.raw(), game_id, bytes.fromhex(str(rnd["nonce"])))
        if rc.commitments().to_json() != dict(rnd):
            raise ChanceMismatch(f"{game_id}: the referee key does not make the chance "
                                 "commitments recorded at genesis")
        _REFEREES[cache] = rc
    return rc


def parse_entropy(value: object) -> tuple[Contribution, bytes] | None:
    """An envelope's ``entropy``: ("tip", T) or ("value", e_t); None when absent."""
    if value is None:
        return None
    if isinstance(value, Mapping) and set(value) == {"tip"} and isinstance(value["tip"], str) \
            and _HEX.fullmatch(value["tip"]):
        return Contribution.TIP, bytes.fromhex(value["tip"])
    if isinstance(value, str) and _HEX.fullmatch(value):
        return Contribution.VALUE, bytes.fromhex(value)
    raise ChanceError("entropy: must be 64 lower-case hex digits (your chain's value for this "
                      "step) or {tip: 64 hex digits} (your set-up commitment), as `pbem orders "
                      "sign` fills it in")


class Ledger(Mutable):
    """Each power's committed tip and last known chain value, from the log."""

    _fields = ("step", "tips", "known", "tip_steps", "drawn", "replaced")
    step: int  # resolutions so far
    tips: dict[str, bytes]
    known: dict[str, tuple[bytes, int]]
    tip_steps: dict[str, int]  # the step each tip's file was for
    drawn: int  # resolutions that drew
    replaced: set[str]  # chains a key entry forgot

    def __init__(self, step: int = 0, tips: dict[str, bytes] | None = None,
                 known: dict[str, tuple[bytes, int]] | None = None,
                 tip_steps: dict[str, int] | None = None, drawn: int = 0,
                 replaced: set[str] | None = None) -> None:
        self.step = step
        self.tips = {} if tips is None else tips
        self.known = {} if known is None else known
        self.tip_steps = {} if tip_steps is None else tip_steps
        self.drawn = drawn
        self.replaced = set() if replaced is None else replaced

    def add(self, entry: Entry) -> None:
        body = entry.body
        if entry.kind == _ORDERS:
            parsed = _quiet(body.get("entropy"))
            power = str(body["power"])
            if parsed is not None and parsed[0] == _TIP and power not in self.tips:
                self.tips[power] = parsed[1]
                self.tip_steps[power] = self.step + 1
                self.known[power] = (parsed[1], 0)
        elif entry.kind == _RESOLVE:
            self.step += 1
            rnd = body.get(RANDOM)
            if isinstance(rnd, Mapping):
                self.drawn += 1
                for power, value in (rnd.get("players") or {}).items():
                    if isinstance(value, str):
                        self.known[power] = (bytes.fromhex(value), self.step)
        elif entry.kind == "key":
            power = str(body["power"])
            self.tips.pop(power, None)
            self.tip_steps.pop(power, None)
            self.known.pop(power, None)
            self.replaced.add(power)

    def to_data(self) -> LogBody:
        """The ledger as JSON data (kept in the log's running summary, pbem.store.summary)."""
        return {"step": self.step, "tips": {p: t.hex() for p, t in self.tips.items()},
                "known": {p: [v.hex(), s] for p, (v, s) in self.known.items()},
                "tip_steps": dict(self.tip_steps), "drawn": self.drawn,
                "replaced": sorted(self.replaced)}

    @classmethod
    def from_data(cls, data: BodyIn) -> Ledger:
        return cls(int(data["step"]), {p: bytes.fromhex(t) for p, t in data["tips"].items()},
                   {p: (bytes.fromhex(v), int(s)) for p, (v, s) in data["known"].items()},
                   {p: int(s) for p, s in data["tip_steps"].items()}, int(data["drawn"]),
                   set(data["replaced"]))

    def committed_before(self, power: str, step: int | None = None) -> bool:
        """Whether ``power``'s tip was committed in a file for a step before ``step`` (default:
        the coming one): only then may a value on it enter a seed."""
        at = self.tip_steps.get(power)
        return at is not None and at < (self.step + 1 if step is None else step)

    def exempt(self, power: str) -> bool:
        """A power whose chain a ``pbem gm replace`` reset and whose new tip is not committed
        before the coming step: the first draw cannot wait for a value he cannot have yet."""
        return power in self.replaced and not self.committed_before(power)

    def check(self, power: str, entropy: object) -> None:
        """Raise ChanceError/ChanceMismatch unless ``entropy`` may be accepted from ``power``
        now (for step ``self.step + 1``)."""
        parsed = parse_entropy(entropy)
        if parsed is None:
            return
        kind, value = parsed
        tip = self.tips.get(power)
        if kind == Contribution.TIP:
            if tip is not None and tip != value:
                raise ChanceMismatch(f"{power}: a chance tip was committed already "
                                     f"({tip.hex()[:16]}…); this file commits another")
            return
        if tip is None:
            raise ChanceMismatch(f"{power}: no chance tip is committed yet, so this file cannot "
                                 "reveal a value (the set-up file carries entropy: {tip: …})")
        if not self.committed_before(power):
            raise ChanceMismatch(f"{power}: your chance tip was committed in a file for this "
                                 f"very step ({self.step + 1}); a value on it counts from the "
                                 "next step (a value on a tip of the same step could be "
                                 "chosen after the others' values were known)")
        last, last_step = self.known[power]
        from pbem.chance.player import check_player_reveal

        check_player_reveal(power, value, self.step + 1, last, last_step)


def _quiet(value: object) -> tuple[Contribution, bytes] | None:
    try:
        return parse_entropy(value)
    except ChanceError:
        return None


def step_values(powers: Sequence[str], standing: Mapping[str, BodyIn]
                ) -> dict[str, bytes | None]:
    """Each power's value for this step (the due powers and the listened ones): from its
    standing file's ``entropy``, or None (it sent none, or no value)."""
    out: dict[str, bytes | None] = {}
    for power in powers:
        parsed = _quiet((standing.get(power) or {}).get("entropy"))
        out[power] = parsed[1] if parsed is not None and parsed[0] == Contribution.VALUE else None
    return out


FIRST_DRAW_RULE = ("a game's first draw needs a value from every power due, each on a tip "
                   "committed in an earlier step's file (docs/protocol.md, \"Fair chance\": a "
                   "game with chance commits the tips in a set-up step that draws nothing, and "
                   "deals in the next)")


def draw_values(ledger: Ledger, due: Sequence[str], listens: Sequence[str],
                standing: Mapping[str, BodyIn]) -> dict[str, bytes | None]:
    """The players' part of the coming step's seed (``ledger``: the log up to this
    resolution), or ChanceError when the step may not draw: a value whose tip was committed
    in this very step, or the game's first draw without every due power's value (at step 1
    nobody has one, so a game that deals in its set-up step fails here, loudly)."""
    step = ledger.step + 1
    values = step_values([*due, *[p for p in listens if p not in due]], standing)
    for power, value in values.items():
        if value is not None and not ledger.committed_before(power, step):
            raise ChanceError(f"step {step} cannot draw: {power}'s value is on a tip not "
                              f"committed before this step ({FIRST_DRAW_RULE})")
    if ledger.drawn == 0:
        missing = [p for p in due if values.get(p) is None and not ledger.exempt(p)]
        if missing:
            raise ChanceError(f"step {step} cannot draw: {', '.join(missing)} "
                              f"{'has' if len(missing) == 1 else 'have'} contributed no value "
                              f"yet; {FIRST_DRAW_RULE}")
    return values


def expected(ledger: Ledger, kind: str | None, due: Sequence[str], draws: bool,
             power: str) -> Contribution | None:
    """What ``power``'s order file for the coming step must carry in a game with chance:
    "tip" (the set-up step, or a replaced player without a chain), "value" (a due power at a
    step that may draw) or None (nothing: a listened power may send his value, a power that
    committed his tip in this very step has none to send yet). ``kind``, ``due`` and ``draws``
    are the step's window (kind None: the game is over)."""
    if kind is None or power not in due:
        return None
    if kind == "setup":
        return Contribution.TIP if power not in ledger.tips else None
    if not draws:
        return None
    if power not in ledger.tips:
        return Contribution.TIP
    return Contribution.VALUE if ledger.committed_before(power) else None


def missing(ledger: Ledger, kind: str | None, due: Sequence[str], draws: bool, power: str,
            entropy: object) -> str | None:
    """The sentence refusing a file of ``power`` whose ``entropy`` lacks what ``expected``
    asks for, or None."""
    need = expected(ledger, kind, due, draws, power)
    if need is None:
        return None
    parsed = _quiet(entropy)
    if parsed is not None and (parsed[0] == need or need == Contribution.TIP):
        return None  # a wrong tip or value is refused by Ledger.check with its own sentence
    from pbem.chance.player import missing_sentence

    return missing_sentence(power, need, ledger.step + 1)


def waiting_for(ledger: Ledger, kind: str | None, due: Sequence[str], draws: bool,
                standing: Mapping[str, BodyIn]) -> list[str]:
    """The due powers without whose contribution the coming step may not resolve, even past
    its deadline: at the set-up step, those without a tip; at the game's first drawing step,
    those whose standing file carries no value (a replaced player without an earlier tip
    excepted). Later steps never wait: a missing value is an empty field."""
    if kind == "setup":
        return [p for p in due if p not in ledger.tips]
    if draws and ledger.drawn == 0:
        values = step_values(due, standing)
        return [p for p in due if values[p] is None and not ledger.exempt(p)]
    return []


def recorded(body: BodyIn, game_id: str, step: int,
             k: bytes | None) -> StepChance | None:
    """The StepChance a resolve entry's ``random`` field describes (None: it drew nothing)."""
    rnd = body.get(RANDOM)
    if not isinstance(rnd, Mapping):
        return None
    players = {str(p): (bytes.fromhex(v) if isinstance(v, str) else None)
               for p, v in (rnd.get("players") or {}).items()}
    from pbem.chance.step import StepChance

    return StepChance(game_id, step, bytes.fromhex(str(rnd["referee"])), players, k)


class LazyChance:
    """The chance of a step, built at its first draw (a step that draws nothing records
    nothing and costs nothing)."""

    def __init__(self, make: Callable[[], StepChance]) -> None:
        self._make = make
        self.built: StepChance | None = None

    def _get(self) -> StepChance:
        if self.built is None:
            self.built = self._make()
        return self.built

    def public(self, label: str) -> Stream:
        return self._get().public(label)

    def secret(self, label: str) -> Stream:
        return self._get().secret(label)


def public_event(chance: StepChance) -> EventData | None:
    """The event listing a step's public draws (labels and results), or None if none."""
    from pbem.chance.stream import PUBLIC

    draws = chance.draws.to_json(PUBLIC)
    if not draws:
        return None
    return {"type": EVENT, "step": chance.step, "draws": draws}


def block(chance: StepChance, genesis: Genesis,
          tips: Mapping[str, bytes]) -> LogBody:
    """The chance block a report attaches (``chance-step-T.json``): the published inputs and
    draws, with the tips they hash to."""
    rnd = genesis.get(RANDOM) or {}
    return {**chance.published(),
            "tips": {"referee": rnd.get("referee_tip"),
                     "players": {p: tips[p].hex() for p in sorted(chance.players)
                                 if p in tips and chance.players[p] is not None}}}


def referee_for_root(root: Path, genesis: Genesis) -> RefereeChance:
    """The referee's chance of a game under ROOT, with ROOT's referee key."""
    key, _ = referee_key(root)
    return referee_chance(genesis, key)


__all__ = ["N", "RANDOM", "SECRET_OP", "EVENT", "Ledger", "LazyChance", "StepChance"]
