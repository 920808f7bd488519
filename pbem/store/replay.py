"""What the game log means: its entry kinds and how the state is the replay of the log.

Game-agnostic: everything about the game goes through the GamePlugin. Entry kinds (besides the
``genesis`` written by pbem.store.gamedir):

``orders``   an accepted order submission: ``{turn, power, seq, sha256, text, orders, received,
             message_id, key, pad}`` — ``text`` is the signed armored block exactly as
             verified, ``orders`` its parsed body (JSON), ``pad`` spaces (see ``padded``).
             Within one resolution the highest seq stands. A standing file (the file says
             ``turn: standing``) is logged with ``turn`` 0: the highest seq of them stands
             across resolutions, used for a due power with no usable file of its step.
``resolve``  one resolution by the rules core: ``{turn, due, used: {power: sha256|null},
             escrow: {power: {slot: {value, nonce}}}, state: digest, events, deadline}``.
             ``used`` names the order submission each power's orders came from (its step's file,
             else its standing file; null: none, the game's standing orders); ``escrow``
             the sealed values the referee opened for powers without orders (per power, per
             slot: ``{value, nonce}``, and whatever else the game records of it); ``state``
             the canonical digest of the state after it.
``gm``       a game-master operation, signed by the referee: ``{op, …, signature}`` (op
             ``chance-secret``: K revealed at the game's end, ``{k}``).
``key``      a power's key replaced by the game master: ``{power, key, email, signature}``.
``press``    a relayed press file (pbem.host.press): ``{turn, power, sha256, text, messages,
             received, message_id, key, pad}``. Never changes the state, never counts as orders.

What the log says besides the state (the clock, the standing orders, missed turns, …) is the
running summary's (pbem.store.summary): one fold, no scan here.

``replay`` rebuilds the state from genesis; each ``resolve`` and state-changing ``gm`` entry
carries the digest of the state after it, so a replay that disagrees names the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem import canonical
from pbem.errors import PbemError, Problem
from pbem.game import results
from pbem.game.chance import NO_CHANCE, Chance
from pbem.game.events import check_events
from pbem.game.plugin import GamePlugin, Resolution, SealedOpener, powers_listened
from pbem.game.shapes import GameState, OrderBody
from pbem.game.views import order_view
from pbem.protocol.keys import PrivateKey, PublicKey
from pbem.store import chance
from pbem.store.gamedir import GameDir, LoadedState
from pbem.store.kinds import GmOp
from pbem.store.log import DOMAIN, Entry
from pbem.store.records import BodyIn, LogBody
from pbem.store.summary import GM as GM
from pbem.store.summary import KEY as KEY
from pbem.store.summary import ORDERS as ORDERS
from pbem.store.summary import PRESS as PRESS
from pbem.store.summary import RESOLVE as RESOLVE
from pbem.store.summary import is_standing, stand

GM_DOMAIN = "pbem-gm-v1"
GM_TYPE = "application/vnd.pbem.gm+json"

State = GameState
EscrowOpener = Callable[[str, str, str, int], tuple[str, str] | None]
"""(power, slot, escrow blob, turn committed) -> (value, nonce) or None: the referee opening
what a power sealed to it (pbem.protocol.escrow), for any game."""


def step_chance(body: BodyIn | None, game_id: str = "", step: int = 0,
                k: bytes | None = None) -> Chance:
    """The chance a recorded resolution drew from: the ``StepChance`` its entry's ``random``
    field describes (with K, hidden draws replay too; without it they raise), or ``NO_CHANCE``
    for an entry that drew nothing. The turn job builds a new step's chance lazily instead
    (pbem.store.chance.LazyChance)."""
    if body is None:
        return NO_CHANCE
    made = chance.recorded(body, game_id, step, k)
    return made if made is not None else NO_CHANCE


def resolve_step(plugin: GamePlugin, state: State, orders: Mapping[str, OrderBody],
                 drawn: Chance) -> Resolution:
    """``plugin.resolve`` with the step's public draws appended as one ``chance`` event (labels
    and results), the same way when resolving and when replaying. Events that use the engine's
    reserved keys wrongly (pbem.game.events) are refused: a game's bug, named before any log
    entry or mail holds them."""
    result = plugin.resolve(state, orders, drawn)
    check_events(result.events, f"game {plugin.id!r}")
    built = drawn.built if isinstance(drawn, chance.LazyChance) else drawn
    if isinstance(built, chance.StepChance):
        event = chance.public_event(built)
        if event is not None:
            return Resolution(result.state, [*result.events, event])
    return result


def chance_key(game: GameDir) -> bytes:
    """K of a game under a root whose referee key is at hand."""
    return chance.referee_for_root(game.root, game.genesis).k


class ReplayMismatch(PbemError):
    """Replaying the log does not give the state the log recorded."""

    def __init__(self, entry: Entry, field: str, expected: str, found: str) -> None:
        self.entry = entry
        self.field = field
        super().__init__(
            f"log entry {entry.seq} ({entry.kind}): {field} recorded as {expected} but the "
            f"replay gives {found}"
        )


def json_safe(value: Any) -> Any:
    """Parsed YAML as JSON data: mapping keys become strings (``1:`` and ``"1":`` alike)."""
    kind = type(value)
    if kind is dict:  # the common cases first, without the abstract classes' checks
        return {k if type(k) is str else str(k): json_safe(v) for k, v in value.items()}
    if kind is list:
        return [json_safe(v) for v in value]
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def orders_body(
    *, turn: int, power: str, seq: int, sha256: str, text: str, orders: Any,
    received: str, message_id: str | None, key: str, entropy: Any = None,
) -> LogBody:
    body = {
        "turn": turn, "power": power, "seq": seq, "sha256": sha256, "text": text,
        "orders": json_safe(orders), "received": received, "message_id": message_id, "key": key,
    }
    if entropy is not None:  # fair chance: the signed file's value or tip (pbem.store.chance)
        body["entropy"] = json_safe(entropy)
    return padded(body, ORDERS_CLASS)


PAD_BUCKET = 1024
"""A padded entry's hashed prefix (``DOMAIN {"body":<body>``) is a multiple of this many
bytes."""

ORDERS_CLASS = 8 * PAD_BUCKET
"""The one size class of an ``orders`` entry: its hashed prefix is padded to this many bytes
(or, for a file longer than any the players' tools write, to the next multiple of PAD_BUCKET).
8 KiB holds the largest order file the tools of every game write with room to spare (the
largest, with every escrowed alternative and the fair-chance value, is well under it), so an
order file with or without sealed values shows the same length in a public export
(docs/audit.md, "The length of withheld order files"). Cost: 8 KiB per order file in log.jsonl.
"""


def padded(body: LogBody, floor: int = PAD_BUCKET) -> LogBody:
    """``body`` with a ``pad`` of spaces bringing its hashed prefix to ``floor`` bytes, or to
    the next multiple of PAD_BUCKET past it (``floor``: a multiple of PAD_BUCKET).

    Why: a public export finishes a withheld order file's hash from its SHA-256 midstate, and
    SHA-256 needs the exact length of what it hashed, so the length is public. Padded, it tells
    only the size class, not whether a secret vote, permit or escrow made the file longer; and
    the midstate's tail (the bytes after the last whole block) is empty."""
    unpadded = {k: v for k, v in body.items() if k != "pad"}
    size = len(DOMAIN) + len(b'{"body":') + len(canonical.encode(unpadded)) + len(b',"pad":""')
    return {**unpadded, "pad": " " * (padded_size(size, floor) - size)}


def padded_size(size: int, floor: int = PAD_BUCKET) -> int:
    """The length a hashed prefix of ``size`` bytes is padded to: ``floor``, or the next multiple
    of PAD_BUCKET past it. One rule for the padding and the audit's check of it."""
    return max(floor, size + (-size % PAD_BUCKET))


def gather_orders(
    plugin: GamePlugin,
    state: State,
    standing: Mapping[str, BodyIn],
    open_escrow: EscrowOpener | None,
    standing_files: Mapping[str, BodyIn] | None = None,
) -> tuple[dict[str, OrderBody], dict[str, str | None], LogBody, dict[str, list[Problem]]]:
    """Orders for every due power: its standing submission checked against its order view
    (pbem.game.views), else its standing file (``standing_files``: power -> the body of its
    latest ``turn: standing`` file) if that checks (a stale one's problems join ``stale``), or
    the game's standing orders (with escrowed reveals opened where the
    game allows); and for every listened power (``Window.listens``) its standing submission if
    it sent one that checks, else its standing file if that checks (only then does ``used``
    name the power: a listened power is never given the game's standing orders and never
    misses a turn).

    Returns (orders, used, sealed values opened, problems of submissions that no longer check)."""
    orders: dict[str, OrderBody] = {}
    used: dict[str, str | None] = {}
    opened: LogBody = {}
    stale: dict[str, list[Problem]] = {}
    files = standing_files or {}

    def first_that_checks(power: str) -> bool:
        """Use ``power``'s standing submission, else its standing file, whichever checks
        first; the problems of one that does not join ``stale``."""
        for sub in (standing.get(power), files.get(power)):
            if sub is None:
                continue
            norm, problems = plugin.normalize_orders(sub["orders"],
                                                     order_view(plugin, state, power))
            if problems:
                stale.setdefault(power, []).extend(problems)
                continue
            orders[power] = norm
            used[power] = sub["sha256"]
            return True
        return False

    for power in plugin.powers_due(state):
        if first_that_checks(power):
            continue
        norm, revealed = plugin.nmr_orders(state, power, _bind(open_escrow, power))
        orders[power] = norm
        used[power] = None
        if revealed:
            opened[power] = revealed
    for power in powers_listened(plugin, state):
        first_that_checks(power)
    return orders, used, opened, stale


def _bind(opener: EscrowOpener | None, power: str) -> SealedOpener | None:
    if opener is None:
        return None
    return lambda slot, blob, turn: opener(power, slot, blob, turn)


class Fold:
    """The replay of a log as a fold over its entries after the genesis: ``feed`` them (all at
    once, or as the log grows) and read ``state``. One step count, one set of orders standing
    for the next resolution, one of standing files (never cleared by a resolution)."""

    def __init__(self, plugin: GamePlugin, initial: State, game_id: str,
                 k: bytes | None = None) -> None:
        self.plugin, self.state, self.game_id, self.k = plugin, initial, game_id, k
        self.standing: dict[str, LogBody] = {}
        self.kept: dict[str, LogBody] = {}
        self.step = 0

    def feed(self, entries: Sequence[Entry]) -> State:
        """The state after ``entries`` too, checked against every recorded digest."""
        for entry in entries:
            if entry.kind == ORDERS:
                stand(self.kept if is_standing(entry.body) else self.standing, entry.body)
            elif entry.kind == RESOLVE:
                self.step += 1
                self.state = replay_resolution(
                    self.plugin, self.state, self.standing, entry, game_id=self.game_id,
                    step=self.step, k=self.k, standing_files=self.kept).state
                self.standing = {}
            elif entry.kind == GM:
                self.state = apply_gm(self.plugin, self.state, entry)
        return self.state


def replay(plugin: GamePlugin, entries: Sequence[Entry], initial: State,
           k: bytes | None = None) -> State:
    """The state after every entry of the log, checked against every recorded digest (``k``:
    the game's chance secret, for replaying hidden draws)."""
    game_id = str(entries[0].body.get("game_id", "")) if entries else ""
    return Fold(plugin, initial, game_id, k).feed(entries[1:])


def load_state(plugin: GamePlugin, game: GameDir) -> LoadedState:
    """The game's state at its log head: the cache if current, else the replay of the log.
    A game the installed plugin cannot play (another rules version) is refused first, cache or
    not (pbem.game.versions)."""
    game.check_rules(plugin)
    return game.load_state(lambda entries: replay(plugin, entries, game.initial_state(plugin),
                                                  chance_key(game)))


def replay_resolution(
    plugin: GamePlugin, state: State, standing: Mapping[str, BodyIn], entry: Entry,
    *, game_id: str = "", step: int = 0, k: bytes | None = None,
    standing_files: Mapping[str, BodyIn] | None = None,
    recorded_events: bytes | None = None,
    state_digest: Callable[[Any], str] = canonical.digest,
) -> Resolution:
    """The resolution a ``resolve`` entry records, recomputed and checked against every digest
    and choice the entry records (ReplayMismatch names the first that differs).
    ``standing_files``: each power's latest standing file before the entry.
    ``recorded_events``: the entry's events canonically encoded, if the caller has them (the
    audit's workers do); ``state_digest``: canonical.digest, or one that gives the same
    digests faster (canonical.Digests)."""
    body = entry.body
    kept = standing_files or {}
    for power, sha in body["used"].items():
        if sha and all(power not in files or files[power]["sha256"] != sha
                       for files in (standing, kept)):
            raise ReplayMismatch(entry, f"used.{power}", sha, "no such accepted submission")
    result, used = resolve_again(plugin, state, standing, entry, game_id=game_id, step=step, k=k,
                                 standing_files=kept)
    if used != body["used"]:
        raise ReplayMismatch(entry, "used", canonical.dumps(body["used"]), canonical.dumps(used))
    digest = state_digest(result.state)
    if digest != body["state"]:
        raise ReplayMismatch(entry, "state", body["state"], digest)
    events = canonical.encode(result.events)  # the bytes the digests would hash: no hashing
    if events != (canonical.encode(body["events"]) if recorded_events is None
                  else recorded_events):
        raise ReplayMismatch(entry, "events", canonical.digest(body["events"]),
                             canonical.digest(result.events))
    return result


def resolve_again(
    plugin: GamePlugin, state: State, standing: Mapping[str, BodyIn], entry: Entry,
    *, game_id: str = "", step: int = 0, k: bytes | None = None,
    standing_files: Mapping[str, BodyIn] | None = None,
) -> tuple[Resolution, dict[str, str | None]]:
    """(resolution, orders used) the rules give for a ``resolve`` entry from ``state``: the
    submissions the entry used, sealed values opened from the entry's record. Unchecked: the
    replay checks it, the STOPPED mail (pbem.host.mismatch) shows how it differs."""
    body = entry.body
    recorded = body["escrow"]

    def from_log(power: str, slot: str, blob: str, turn: int) -> tuple[str, str] | None:
        item = recorded.get(power, {}).get(slot)
        return (item["value"], item["nonce"]) if item else None

    def named(files: Mapping[str, BodyIn]) -> dict[str, BodyIn]:
        return {p: files[p] for p, sha in body["used"].items()
                if sha and p in files and files[p]["sha256"] == sha}

    orders, used, _opened, _ = gather_orders(plugin, state, named(standing), from_log,
                                             named(standing_files or {}))
    return resolve_step(plugin, state, orders, step_chance(body, game_id, step, k)), used


# -- game-master operations ----------------------------------------------------------------------
STATE_OPS = (GmOp.CONCEDE, GmOp.END, GmOp.CANCEL)


def sign_gm(key: PrivateKey, body: BodyIn) -> LogBody:
    """A gm entry body with the referee's signature over everything else in it."""
    unsigned = {k: v for k, v in body.items() if k != "signature"}
    sig = key.sign(GM_DOMAIN, GM_TYPE, canonical.encode(unsigned))
    return {**unsigned, "signature": sig.hex()}


def verify_gm(referee: PublicKey, body: BodyIn) -> None:
    unsigned = {k: v for k, v in body.items() if k != "signature"}
    referee.verify(GM_DOMAIN, GM_TYPE, canonical.encode(unsigned),
                   bytes.fromhex(str(body.get("signature", ""))))


def gm_resolution(plugin: GamePlugin, state: State, body: BodyIn) -> Resolution | None:
    """The state change a gm operation makes (None for operations that change only the
    schedule or the players)."""
    op = body.get("op")
    if op == GmOp.CONCEDE:
        result = plugin.concede(state, str(body["power"]))
    elif op == GmOp.END:
        result = plugin.end_game(state, str(body.get("reason") or "ended by the game master"))
    elif op == "cancel":  # the game's agreed end, with no winner (pbem.game.results.cancelled)
        ended = plugin.end_game(state, results.CANCELLED)
        result = Resolution(*results.cancelled(ended.state, ended.events))
    else:
        return None
    check_events(result.events, f"game {plugin.id!r}")
    return result


def apply_gm(plugin: GamePlugin, state: State, entry: Entry) -> State:
    result = gm_resolution(plugin, state, entry.body)
    if result is None:
        return state
    digest = canonical.digest(result.state)
    if digest != entry.body.get("state"):
        raise ReplayMismatch(entry, "state", str(entry.body.get("state")), digest)
    return result.state
