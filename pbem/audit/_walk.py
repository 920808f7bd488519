"""Walking a verified chain from genesis: signatures, keys, order checks, escrow openings and the
replay of every resolution and game-master operation by the rules core.

The walk takes the records one at a time (:meth:`Walker.visit`) and keeps only running state:
the keys, the state, the order files of the turn being played (standing orders and the files
logged since the previous resolution), the chance ledger and the tally. What it needs from the
rest of the log it asks a :class:`pbem.audit._lookup.LogLookup`, which reads the log again: the
entry revealing the chance secret (before the walk) and, on the way to a failure only, an order
file outside the turn or an entry the message describes.

Size: one Walker carries the running state of the walk (keys, standing orders, the state, the
tally) and each check is a method reading it; split, that state would be passed between modules.
The order-file rule is apart already (_used), and so is the chain (_chain).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem import canonical
from pbem.audit._chain import Record, Withheld
from pbem.audit._chance import ChanceAudit, ChanceProblem
from pbem.audit._lookup import LogLookup, Secrets
from pbem.audit._mailed import mailed_problem, said
from pbem.audit._pad import pad_fault
from pbem.audit._parallel import Ahead, Signed, signed_matches, signed_outcome
from pbem.audit._press import press_problem
from pbem.audit._seats import SeatBook
from pbem.audit._used import OrderRef, latest, misuse, ref_of
from pbem.audit._votes import VoteBook
from pbem.chance.contributions import Contributions
from pbem.chance.errors import ChanceError
from pbem.errors import PbemError, Problem
from pbem.game import registry, versions, views
from pbem.game.plugin import GamePlugin, powers_listened
from pbem.game.results import GameResult
from pbem.protocol.envelope import STANDING_TURN
from pbem.protocol.keys import BadSignature, KeyError_, PublicKey
from pbem.protocol.orderdoc import replaces
from pbem.store import replay
from pbem.store.gamedir import GENESIS_FORMAT
from pbem.store.log import Entry

if TYPE_CHECKING:
    from pbem.game.shapes import GameState
    from pbem.store.records import BodyIn

ORDERS_FIELDS = frozenset({"turn", "power", "seq", "sha256", "text", "orders", "received",
                           "message_id", "key"})
PADDED_FIELDS = ORDERS_FIELDS | {"pad"}  # pbem.store.replay.padded: every orders entry has one
RESOLVE_FIELDS = frozenset({"turn", "due", "used", "escrow", "state", "events"})
KEY_FIELDS = frozenset({"power", "key", "signature"})
_CHECK_NAMES = {"commitment": "the commitment check", "distance": "the arrival distance check",
                "nonce": "the commitment check"}


class AuditFailure(PbemError):
    """The first entry that disagrees: where, which field, what was expected and found."""

    exit_code = 1

    def __init__(self, message: str, *, seq: int | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.seq = seq
        self.line = line
        self.field = field
        super().__init__(message)


@dataclass
class Tally:
    game: str = ""
    plugin: str = ""
    variant: str = ""
    variant_title: str = ""
    powers: list[str] = field(default_factory=list)
    entries: int = 0
    orders: int = 0
    resolutions: int = 0
    first_turn: int | None = None  # the turns resolved (kept as a range: memory stays flat)
    last_turn: int | None = None
    counts: dict[str, int] = field(default_factory=dict)  # the game's own (plugin.counts)
    escrow_opened: int = 0
    gm_ops: list[str] = field(default_factory=list)
    keys_replaced: list[str] = field(default_factory=list)
    result: GameResult | None = None  # the game's state['result'] once it is over
    over: bool = False
    withheld_orders: int = 0
    withheld_resolutions: int = 0
    unreplayed_resolutions: int = 0  # whole, but after the state became unknown
    unreplayed_gm: int = 0
    public_counts: dict[str, int] = field(default_factory=dict)
    used_checked: int = 0  # resolutions whose used order files were held to the rule
    stale_claims: int = 0  # withheld: "stale" is the referee's claim
    standing_files: int = 0  # standing files (turn: standing) checked
    press: int = 0  # press entries checked (signature and form)
    withheld_press: int = 0
    chance_steps: int = 0  # resolutions that drew (fair chance), their inputs checked
    chance_secret: bool = False  # K revealed and checked against genesis
    hidden_unproven: int = 0  # resolutions with hidden draws, not provable before K
    hidden_first: tuple[int, Any] | None = None  # (step, turn) of the first of them
    chance_signed: int = 0  # drawing steps whose values were held to the signed files
    chance_replayed: int = 0  # drawing steps whose draws the rules core replayed
    contributions: Contributions = field(default_factory=Contributions)
    claimed_over: bool = False  # the log says the game ended (no next deadline, or "end")

    @property
    def finished(self) -> bool:
        """Over by the replayed state, or by the log's own word when the state is unknown."""
        return self.over or self.claimed_over

    def resolved(self, turn: int) -> None:
        self.first_turn = turn if self.first_turn is None else min(self.first_turn, turn)
        self.last_turn = turn if self.last_turn is None else max(self.last_turn, turn)

    def counts_text(self, public: bool = False) -> str:
        """The game's counts in words ("3 battles", "4 rounds"); "" if it counted nothing."""
        counts = self.public_counts if public else self.counts
        return ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))


def _add(total: dict[str, int], counts: Mapping[str, int]) -> None:
    """Sum a resolution's counts into the game's."""
    for name, n in counts.items():
        total[name] = total.get(name, 0) + int(n)


def _first_difference(a: object, b: object, path: str = "") -> tuple[str, Any, Any]:
    """The first path at which two JSON values differ, and the two values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b or a[k] != b[k]:
                if k in a and k in b:
                    return _first_difference(a[k], b[k], f"{path}.{k}" if path else str(k))
                return (f"{path}.{k}" if path else str(k), a.get(k, "(absent)"),
                        b.get(k, "(absent)"))
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
    return path, a, b


def _short(value: object, limit: int = 80) -> str:
    text = value if isinstance(value, str) else canonical.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Memo:
    """The game plugin with ``order_view``, ``normalize_orders`` and ``window`` remembered for
    the current state.

    All are pure (the plugin contract), and the walk asks for them more than once per state:
    the view and the check twice per order file (in the acceptance check and again in the
    replay, replay.gather_orders), the window once per order file (the chance check) and
    again at the resolution. Results are handed out by reference; the rules core never
    mutates its inputs. The order checks read the game's ``order_view`` (pbem.game.views: its
    ``view`` where it has none), as acceptance does; the views are kept by the engine's one
    view cache (pbem.game.views.ViewCache, which the renderer keeps too), for one state: the
    walk's."""

    _NONE: Any = object()  # no window remembered yet (a game's window may be None)

    def __init__(self, plugin: GamePlugin) -> None:
        self._plugin = plugin
        self._state: Any = None
        self._views = views.ViewCache(1)
        self._checked: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
        self._window: Any = self._NONE
        if getattr(plugin, views.ORDER_VIEW, None) is not None:
            self.order_view = self._order_view

    def __getattr__(self, name: str) -> Any:
        return getattr(self._plugin, name)

    def _at(self, state: GameState) -> None:
        if state is not self._state:
            self._state, self._checked = state, {}
            self._window = self._NONE

    def window(self, state: GameState) -> Any:
        self._at(state)
        if self._window is self._NONE:
            self._window = self._plugin.window(state)
        return self._window

    def view(self, state: GameState, power: str | None) -> Any:
        return self._views.view(self._plugin, state, power)

    def _order_view(self, state: GameState, power: str) -> Any:
        return self._views.order_view(self._plugin, state, power)

    def normalize_orders(self, body: Any, view: Any) -> Any:
        key = (id(body), id(view))
        hit = self._checked.get(key)
        if hit is not None and hit[0] is body and hit[1] is view:
            return hit[2]
        result = self._plugin.normalize_orders(body, view)
        self._checked[key] = (body, view, result)
        return result


class Walker:
    """Replays the records in order; raises AuditFailure at the first disagreement."""

    def __init__(self, genesis: Record, line_of: Callable[[int], int],
                 components: Callable[[str], Any] | None, lookup: LogLookup,
                 secrets: Secrets) -> None:
        """``components(digest)`` finds the game's component pack (None: not found); the
        plugin's stand-in pack is tried when it has the digest genesis records. ``secrets``:
        the entries revealing the chance secret (found before the walk, for games with fair
        chance)."""
        self.line_of = line_of
        self.lookup = lookup
        self.tally = Tally()
        self.state: GameState | None = None  # set once the genesis checks pass
        if not isinstance(genesis, Entry):
            raise self.fail(genesis, "body", "the genesis entry whole", "a withheld record")
        self.genesis = genesis
        body = genesis.body
        if not isinstance(body, dict) or body.get("format") != GENESIS_FORMAT:
            raise self.fail(genesis, "format", GENESIS_FORMAT, _short(
                body.get("format") if isinstance(body, dict) else body))
        self.game_id = str(body["game_id"])
        try:
            rules = registry.load(body["plugin"])
        except PbemError as exc:
            raise self.fail(genesis, "plugin", "an installed game plugin", str(exc)) from None
        self.plugin: GamePlugin = _Memo(rules)  # type: ignore[assignment]
        variants = self.plugin.variants()
        if body.get("variant") not in variants:
            raise self.fail(genesis, "variant", f"one of {', '.join(sorted(variants))}",
                            body.get("variant"))
        info = variants[body["variant"]]
        try:
            self.keys = {p: PublicKey.parse(t) for p, t in body["keys"].items()}
            self.referee = PublicKey.parse(body["referee"])
        except KeyError_ as exc:
            raise self.fail(genesis, "keys", "well-formed public keys", str(exc)) from None
        self.key_version = 0  # counts key changes (order files checked ahead, _parallel)
        self.votes = VoteBook(self.game_id, list(self.keys))
        self.seats = SeatBook(list(self.keys))
        self.mailed: dict[str, str] = {}  # what the last resolution recorded (pbem.audit._mailed)
        self._key_texts: tuple[int, dict[str, str]] | None = None
        self._fingerprints: tuple[int, dict[str, PublicKey]] | None = None
        if sorted(self.keys) != sorted(info.powers):
            raise self.fail(genesis, "keys", f"one key for each of {', '.join(info.powers)}",
                            ", ".join(sorted(self.keys)))
        refused = versions.refusal(self.game_id, rules, body)  # its data digests: per class
        if refused is not None:  # replay only with the rules version the game recorded
            raise self.fail(genesis, "rules_version", versions.recorded_version(body),
                            versions.rules_version(self.plugin), refused)
        initial = self.plugin.setup(body["variant"],
                                    versions.setup_options(body, self._pack(body, components)))
        digest = canonical.digest(initial)
        if digest != body.get("initial_state"):
            raise self.fail(genesis, "initial_state", str(body.get("initial_state")), digest,
                            "the rules core's set-up with the recorded variant and options "
                            "gives another initial state")
        t = self.tally
        t.game, t.plugin, t.variant, t.variant_title = (
            self.game_id, self.plugin.id, body["variant"], info.title)
        t.powers = list(info.powers)
        self.state = initial
        self.version = 0  # counts state changes, to reuse acceptance-time order checks
        self.digests = canonical.Digests()  # the states' digests (their unchanged parts once)
        self.standing: dict[str, dict[str, Any]] = {}
        self.checked: dict[str, tuple[int, str]] = {}
        self.retired: dict[str, tuple[str, int]] = {}  # fingerprint -> (power, seq replaced)
        self.since: list[OrderRef] = []  # order files logged since the previous resolution
        # The standing files (turn: standing): each power's latest, kept across resolutions.
        self.kept: dict[str, dict[str, Any]] = {}
        self.kept_refs: dict[str, OrderRef] = {}
        self.previous = 0  # log seq of the previous resolution (0: genesis)
        self.step = 0  # the fair-chance step of the resolution being walked
        try:
            self.chance = ChanceAudit(body, secrets.last)
            if self.chance.k is not None:
                self.chance.check_secret()
        except ChanceProblem as exc:
            raise self._chance_fail(secrets.first or genesis, exc) from None

    def keys_now(self) -> tuple[int, dict[str, str]]:
        """(version, {power: key text}) of the keys registered now, for the workers."""
        if self._key_texts is None or self._key_texts[0] != self.key_version:
            self._key_texts = (self.key_version, {p: k.text() for p, k in self.keys.items()})
        return self._key_texts

    def _by_fingerprint(self) -> dict[str, PublicKey]:
        """The keys registered now by fingerprint (made again only after a key change)."""
        if self._fingerprints is None or self._fingerprints[0] != self.key_version:
            self._fingerprints = (self.key_version,
                                  {k.fingerprint: k for k in self.keys.values()})
        return self._fingerprints[1]

    def _chance_fail(self, record: Record, exc: ChanceProblem) -> AuditFailure:
        return self.fail(record, exc.field, exc.expected, exc.found, exc.why)

    def _pack(self, body: BodyIn, find: Callable[[str], Any] | None) -> Any:
        """The component pack genesis names, by its digest (None if genesis names none)."""
        named, data = versions.recorded_pack(self.plugin, body, find)
        if named and data is None:
            digest = body[versions.COMPONENTS_KEY].get("digest")
            raise self.fail(self.genesis, "components", f"the pack with digest {digest}",
                            "no such pack here", "audit the game directory, or put the game's "
                            "components.json beside the export")
        return data

    # -- reporting ---------------------------------------------------------------------------
    def where(self, record: Record) -> str:
        parts = [record.kind]
        body = record.body if isinstance(record, Entry) else record.public
        if isinstance(body, dict):
            turn = body.get("turn")
            if turn is None and self.state is not None and record.kind != "genesis":
                turn = self.plugin.orders_turn(self.state)
            if turn is not None:
                parts.append(f"turn {turn}")
            if isinstance(body.get("power"), str):
                parts.append(f"power {body['power']}")
        parts.append(f"line {self.line_of(record.seq)}")
        return f"log entry seq {record.seq} ({', '.join(parts)})"

    def fail(self, record: Record, field_: str, expected: Any, found: Any,
             why: str = "") -> AuditFailure:
        text = (f"{self.where(record)}, field {field_}: expected {_short(expected, 240)}, "
                f"found {_short(found, 240).rstrip('.')}.")
        if why:
            text += f" {why[0].upper()}{why[1:]}."
        return AuditFailure(text, seq=record.seq, line=self.line_of(record.seq), field=field_)

    # -- the walk ----------------------------------------------------------------------------
    def visit(self, record: Record, ahead: Ahead | None = None, size: int | None = None) -> None:
        """Check the next record after genesis. ``ahead``: what a worker found for its line
        (pbem.audit._parallel); ``size``: its line's length in bytes (spares re-encoding)."""
        if isinstance(record, Withheld):
            self.withheld(record)
        elif record.kind == replay.ORDERS:
            self.orders(record, ahead, size)
        elif record.kind == replay.RESOLVE:
            self.resolve(record, None if ahead is None else ahead.events)
        elif record.kind == replay.GM:
            self.gm(record)
        elif record.kind == replay.KEY:
            self.key(record)
        elif record.kind == replay.PRESS:
            self.press(record)
        else:
            raise self.fail(record, "kind", "orders, resolve, gm or key", record.kind)

    def finish(self, entries: int) -> Tally:
        """The tally after the last of ``entries`` records."""
        self.tally.entries = entries
        if self.state is not None:
            self.tally.over = self.plugin.is_over(self.state)
            self.tally.result = self.state.get("result")
        return self.tally

    def press(self, entry: Entry) -> None:
        """A relayed press file: signed by its power (press never changes the state)."""
        problem = press_problem(entry.body, self.game_id, self.keys)
        if problem is not None:
            raise self.fail(entry, *problem)
        self.tally.press += 1

    def withheld(self, record: Withheld) -> None:
        if record.kind == replay.PRESS:
            self.tally.withheld_press += 1
            return
        if record.kind == replay.ORDERS:
            self.tally.withheld_orders += 1
            ref = ref_of(record)
            if ref is not None:
                if ref.power not in self.keys or type(ref.seq) is not int:
                    raise self.fail(record, "withheld.public", "the power and seq of an order "
                                    "file", f"power {ref.power!r}, seq {ref.seq!r}")
                if ref.standing:
                    self._keep_ref(record, ref)
                else:
                    self.since.append(ref)
            return
        self.tally.withheld_resolutions += 1
        self.chance.ledger.step += 1  # its chance is checked in the full export
        if any(isinstance(e, dict) and e.get("type") == "chance"
               for e in record.public.get("events") or []):
            self.chance.ledger.drawn += 1  # it drew in public
        self._check_claimed_use(record)
        self.since, self.previous = [], record.seq
        self.state = None  # unknown from here on: nothing after can be replayed
        self.standing = {}
        events = record.public.get("events")
        if isinstance(events, list):
            _add(self.tally.public_counts,
                 self.plugin.counts([e for e in events if isinstance(e, dict)]))
        if isinstance(record.public.get("turn"), int):
            self.tally.resolved(record.public["turn"])

    def orders(self, entry: Entry, ahead: Ahead | None = None, size: int | None = None) -> None:
        b = entry.body
        if not isinstance(b, dict) or (b.keys() - {"entropy"}) != PADDED_FIELDS:
            found = sorted(b) if isinstance(b, dict) else type(b).__name__
            raise self.fail(entry, "body", f"the fields {sorted(PADDED_FIELDS)}", found)
        if ahead is None or not ahead.pad_ok:  # a worker found it right: a pure function
            self._check_pad(entry, size)
        power = b["power"]
        if power not in self.keys:
            raise self.fail(entry, "power", f"one of {', '.join(self.keys)}", power)
        key = self.keys[power]
        v = ahead.outcome if ahead is not None and ahead.keys == self.key_version else None
        if v is None:  # not checked ahead, or against keys replaced since
            v = signed_outcome(str(b["text"]), self.game_id, self.keys, self._by_fingerprint())
        if isinstance(v, list):
            raise self._rejected(entry, power, key, v)
        if not (v.matches or signed_matches(b, v, self.game_id)):
            self._mismatched(entry, b, v)
        try:
            self.chance.orders(b, v.entropy, None if self.state is None
                               else self.plugin.window(self.state))
        except ChanceProblem as exc:
            raise self._chance_fail(entry, exc) from None
        self.chance.note(entry)
        self.tally.orders += 1
        self.seats.back(power)  # an accepted file takes a seat back from autopilot
        state = self.state
        if b["turn"] == STANDING_TURN:
            self._standing_file(entry, b)
            return
        if state is not None:
            turn = self.plugin.orders_turn(state)
            if b["turn"] != turn:
                raise self.fail(entry, "turn", turn, b["turn"], "the referee takes orders only "
                                "for the turn being played: an old or future order file was "
                                "logged")
            current = self.standing.get(power)
            if current is not None and not replaces(b["seq"], current["seq"]):
                raise self.fail(entry, "seq", f"more than {current['seq']} (accepted before)",
                                b["seq"], "an older or equal submission cannot replace an "
                                "accepted one (a replayed order file)")
            self._check_orders(entry, power, b)
        self.standing[power] = b
        ref = ref_of(entry)
        assert ref is not None
        self.since.append(ref)

    def _mismatched(self, entry: Entry, b: dict[str, Any], v: Signed) -> None:
        """Raise for the first field in which an orders entry does not describe its signed
        order file (pbem.audit._parallel.signed_matches said it does not)."""
        expected: dict[str, Any] = {"game": self.game_id, "power": b["power"], "turn": b["turn"],
                                    "seq": b["seq"], "sha256": b["sha256"], "key": b["key"]}
        recorded: dict[str, Any] = {"game": v.game, "power": v.power, "turn": v.turn, "seq": v.seq,
                                    "sha256": v.sha256, "key": v.key}
        for name in expected:
            if expected[name] != recorded[name]:
                raise self.fail(entry, name, f"{expected[name]} (as the entry records it)",
                                f"{recorded[name]} in the signed order file",
                                "the entry does not describe the order file it holds")
        path, want, got = _first_difference(replay.json_safe(v.orders), b["orders"])
        raise self.fail(entry, f"orders.{path}", f"{_short(want)} (the signed text)",
                        f"{_short(got)} (the entry's parsed orders)",
                        "the parsed orders the referee logged are not what the player signed")

    def _standing_file(self, entry: Entry, b: dict[str, Any]) -> None:
        """A standing file (turn: standing): only the game's standing sections, no chance
        value, a higher seq than the power's standing file before, orders the rules core
        accepted against the state it arrived in; then it is the power's standing file."""
        sections = tuple(getattr(self.plugin, "standing_sections", ()))
        other = [k for k in b["orders"] if k not in sections]
        if other:
            raise self.fail(entry, f"orders.{other[0]}", "only the game's standing sections ("
                            f"{', '.join(sections) or 'none'}) in a standing file", other[0],
                            "the referee must refuse a standing file with any other section")
        if b.get("entropy") is not None:
            raise self.fail(entry, "entropy", "no chance value in a standing file",
                            str(b["entropy"])[:40], "a chance value belongs to one step")
        if self.state is not None:
            self._check_orders(entry, str(b["power"]), b, remember=False)
        ref = ref_of(entry)
        assert ref is not None
        self._keep_ref(entry, ref)
        self.kept[ref.power] = b

    def _keep_ref(self, record: Record, ref: OrderRef) -> None:
        current = self.kept_refs.get(ref.power)
        if (current is not None and isinstance(ref.seq, int) and isinstance(current.seq, int)
                and not replaces(ref.seq, current.seq)):
            raise self.fail(record, "seq", f"more than {current.seq} (the standing file "
                            "accepted before)", ref.seq, "an older or equal standing file "
                            "cannot replace an accepted one (a replayed order file)")
        self.kept_refs[ref.power] = ref
        self.tally.standing_files += 1

    def _kept_now(self, state: GameState, power: str) -> OrderRef | None:
        """The power's latest standing file if the rules core accepts it against ``state``
        (where no file of the step is used, the rule picks it)."""
        ref, b = self.kept_refs.get(power), self.kept.get(power)
        if ref is None or b is None:
            return None
        _, problems = self.plugin.normalize_orders(b["orders"], views.order_view(self.plugin,
                                                                                 state, power))
        return None if problems else ref

    def _rejected(self, entry: Entry, power: str, key: PublicKey,
                  problems: list[Problem]) -> AuditFailure:
        first = problems[0]
        found = first.message
        fp = entry.body.get("key")
        if first.code == "unknown-signer" and fp in self.retired:
            owner, seq = self.retired[fp]
            found = (f"a signature by key {fp}, {owner}'s key until the game master replaced "
                     f"it at seq {seq}")
        elif first.code == "not-registered":
            other = next((p for p, k in self.keys.items() if k.fingerprint == fp), None)
            if other:
                found = f"a valid signature by {other}'s key {fp}, not {power}'s"
        return self.fail(entry, f"text ({first.path or first.code})",
                         f"an order file signed with {power}'s registered key "
                         f"{key.fingerprint}", found,
                         "the signature check of the order file fails")

    def _check_orders(self, entry: Entry, power: str, b: Mapping[str, Any],
                      remember: bool = True) -> None:
        assert self.state is not None
        _, problems = self.plugin.normalize_orders(b["orders"], views.order_view(
            self.plugin, self.state, power))
        if problems:
            p = problems[0]
            check = _CHECK_NAMES.get(p.code, f"the order check ({p.code})")
            raise self.fail(entry, f"orders.{p.path}" if p.path else "orders",
                            "orders the rules core accepts against the power's view",
                            p.message, f"{check} of the rules core (normalize_orders) "
                            "refuses these orders, so the referee could not accept them")
        if remember:
            self.checked[power] = (self.version, str(b["sha256"]))

    def resolve(self, entry: Entry, events: bytes | None = None) -> None:
        """``events``: the entry's events canonically encoded, where a worker did it."""
        b = entry.body
        if not isinstance(b, dict) or not b.keys() >= RESOLVE_FIELDS:
            found = sorted(b) if isinstance(b, dict) else type(b).__name__
            raise self.fail(entry, "body", f"at least the fields {sorted(RESOLVE_FIELDS)}", found)
        if isinstance(b["turn"], int):
            self.tally.resolved(b["turn"])
        self.tally.resolutions += 1
        if isinstance(b["used"], dict):
            self.seats.resolved(b)  # missed due steps in a row (abandoned seats)
        mailed_before, self.mailed = self.mailed, said(b)
        state = self.state
        try:
            self.step = self.chance.resolve(entry, self.standing if state is not None else None)
        except ChanceProblem as exc:
            raise self._chance_fail(entry, exc) from None
        self.tally.chance_steps = self.chance.drawing_steps
        drew = isinstance(b.get("random"), dict)
        if drew:
            self.tally.contributions.add(self.step, b["random"])
            self.tally.chance_signed += state is not None
        self.tally.claimed_over = "deadline" in b and b["deadline"] is None
        if state is None:
            self.tally.unreplayed_resolutions += 1
            self.standing, self.since, self.previous = {}, [], entry.seq
            return
        plugin = self.plugin
        if b["turn"] != plugin.orders_turn(state):
            raise self.fail(entry, "turn", plugin.orders_turn(state), b["turn"])
        if b["due"] != plugin.powers_due(state):
            raise self.fail(entry, "due", plugin.powers_due(state), b["due"])
        listens = powers_listened(plugin, state)
        if b.get("listens", []) != listens:
            raise self.fail(entry, "listens", listens, b.get("listens", []))
        window = plugin.window(state)
        silence = "default" if window is not None and window.silence == "default" else None
        if b.get("silence") != silence:  # what decides whether silence was a missed turn
            raise self.fail(entry, "silence", silence or "none (silence here is a missed turn)",
                            b.get("silence"), "the step's window says what silence means; the "
                            "referee may not mark a step so (missed turns hidden or invented)")
        used = b["used"]
        heard = [*b["due"], *listens]
        if (not isinstance(used, dict) or not set(b["due"]) <= set(used) <= set(heard)
                or any(used[p] is None for p in used if p not in b["due"])):
            raise self.fail(entry, "used", "a mapping of each power due to the digest of the "
                            "order file used (or null), and of each listened power whose "
                            "order file was used to its digest", used)
        newest = latest(self.since)
        for power in heard:
            want = newest.get(power)
            if want is not None and not self._accepted_now(state, power):
                want = None  # stale: the rules core no longer accepts it
            if want is None:  # a due or listened power's standing file
                want = self._kept_now(state, power)
            sha = used.get(power)
            named: OrderRef | str | None = None
            if sha is not None:
                named = self._named(str(sha), power, entry.seq) or (
                    f"{_short(sha)}, a digest no orders entry of the log holds")
            bad = misuse(named, want, newest.get(power), power, entry.seq, self.previous)
            if bad:
                raise self.fail(entry, f"used.{power}", *bad)
        self.tally.used_checked += 1
        self._check_escrow(entry, state, used)
        try:
            result = replay.replay_resolution(plugin, state, self.standing, entry,
                                              game_id=self.game_id, step=self.step,
                                              k=self.chance.k, standing_files=self.kept,
                                              recorded_events=events,
                                              state_digest=self.digests.digest)
        except replay.ReplayMismatch as exc:
            raise self._mismatch(entry, state, exc) from None
        except ChanceError as exc:
            if self.chance.k is None and "random" in b:
                # A hidden draw: provable once the referee reveals K at the game's end.
                self.tally.hidden_unproven += 1
                self.tally.hidden_first = self.tally.hidden_first or (self.step, b["turn"])
                self.tally.unreplayed_resolutions += 1
                self.state = None
                self.standing, self.since, self.previous = {}, [], entry.seq
                return
            raise self.fail(entry, "random", "the chance the rules core drew from", str(exc),
                            "the resolution cannot be replayed with the chance it records"
                            ) from None
        except PbemError as exc:  # NO_CHANCE: the entry records no chance, yet the rules drew
            raise self.fail(entry, "random", "a chance record for a resolution that draws",
                            str(exc), "the rules core draws in this step") from None
        notify = window.notify if window is not None else None
        problem = None
        if notify not in (None, "all") or "mailed" in b:  # (a plain step costs nothing more)
            over = plugin.is_over(result.state)
            problem = mailed_problem(notify, over, result.events,
                                     [] if over else plugin.powers_due(result.state),
                                     self.seats.powers, b, mailed_before)
        if problem is not None:
            raise self.fail(entry, *problem, "who is mailed after a step follows the window's "
                            "notify policy (docs/operations.md, \"Digests\")")
        _add(self.tally.counts, plugin.counts(result.events))
        self.tally.chance_replayed += drew
        self.tally.escrow_opened += sum(len(v) for v in b["escrow"].values())
        self.state = result.state
        self.version += 1
        self.standing, self.since, self.previous = {}, [], entry.seq

    def _named(self, sha: str, power: str, resolution: int) -> OrderRef | None:
        """The order file a resolution names by digest (pbem.audit._used.OrderIndex.find over
        the whole log): the power's own latest file of the turn with that digest is the one the
        rule picks over every other file of the log; failing that (the resolution fails), the
        whole log is searched for the file to name."""
        mine = [r for r in self.since if r.sha256 == sha and r.power == power]
        if mine:
            return max(mine, key=lambda r: r.entry)
        return self.lookup.find(sha, power, resolution)

    def _accepted_now(self, state: GameState, power: str) -> bool:
        """Whether the rules core accepts the power's standing order file against ``state``
        (False: stale, e.g. after a concession changed the board)."""
        b = self.standing[power]
        if self.checked.get(power) == (self.version, str(b["sha256"])):
            return True
        _, problems = self.plugin.normalize_orders(b["orders"], views.order_view(self.plugin,
                                                                                 state, power))
        return not problems

    def _check_claimed_use(self, record: Withheld) -> None:
        """A withheld resolution: its public claims of which ``orders`` entry each power's
        orders came from, held to the rule over the public claims of the order files."""
        pub = record.public
        used, due, stale = pub.get("used"), pub.get("due"), pub.get("stale")
        if not isinstance(used, dict) or not isinstance(due, list) or not isinstance(stale,
                                                                                     list):
            raise self.fail(record, "withheld.public", "the claims used, due and stale (a 1.0 "
                            "public export names the order files each resolution used)",
                            sorted(pub) if isinstance(pub, dict) else str(pub)[:80])
        if not set(due) <= set(used):
            raise self.fail(record, "withheld.public.used", "one entry per power due",
                            sorted(used))
        for ref in self.since:
            if ref.turn != pub.get("turn"):
                at = self.lookup.record_at(ref.entry)
                assert at is not None
                raise self.fail(at, "withheld.public.turn",
                                f"turn {pub.get('turn')} (the turn the next resolution "
                                f"resolves, log entry {record.seq})", ref.turn, "the referee "
                                "takes orders only for the turn being played")
        newest = latest(self.since)
        claimed = pub.get("listens", [])  # Window.listens, as the referee claims it
        listened = sorted((set(used) | set(stale) | set(claimed)) - set(due)) if isinstance(
            claimed, list) else sorted((set(used) | set(stale)) - set(due))
        for power in [*due, *listened]:
            want = newest.get(power)
            kept = self.kept_refs.get(power)
            if power in stale:
                if want is None and kept is None:
                    raise self.fail(record, f"withheld.public.stale.{power}", "stale only "
                                    "for a power with an order file", "no order file")
                self.tally.stale_claims += 1
                # the step's file, else the standing file, is the referee's claim to judge:
                # a stale step file leaves the standing file the rule's pick, unless that one
                # is claimed stale too (used null)
                want = kept if want is not None and used.get(power) is not None else None
            elif want is None:
                want = kept
            claim = used.get(power)
            found: OrderRef | str | None = None
            if claim is not None:
                found = None
                if type(claim) is int:  # an order file of the turn, else (failing) any
                    found = next((r for r in self.since if r.entry == claim), None) or (
                        self.lookup.ref_at(claim))
                if found is None:
                    found = (f"log entry {claim}, which is no order file" if type(claim) is int
                             else f"{_short(claim)}: a digest no orders entry of the log holds")
            bad = misuse(found, want, newest.get(power), power, record.seq, self.previous)
            if bad:
                raise self.fail(record, f"withheld.public.used.{power}", *bad)
        self.tally.used_checked += 1

    def _check_pad(self, entry: Entry, line: int | None = None) -> None:
        """The pad holds only spaces and brings the entry to its size class (pbem.audit._pad):
        it carries nothing, and a public export shows only the class of the entry's length,
        the same with an escrow or without."""
        fault = pad_fault(entry, line)
        if fault is not None:
            want, size = fault
            pad = entry.body.get("pad")
            raise self.fail(entry, "pad", f"spaces that bring the entry to {want} bytes (its "
                            f"size class: {replay.ORDERS_CLASS} bytes, or the next multiple of "
                            f"{replay.PAD_BUCKET} past it)", f"{len(str(pad))} characters, the "
                            f"entry {size} bytes", "the pad must carry nothing and hide the "
                            "length of the order file")

    def _check_escrow(self, entry: Entry, state: GameState, used: Mapping[str, Any]) -> None:
        recorded = entry.body["escrow"]
        if not isinstance(recorded, dict):
            raise self.fail(entry, "escrow", "a mapping of power to openings", recorded)
        due = self.plugin.powers_due(state)
        for power in recorded:
            if power not in due or used.get(power):
                raise self.fail(entry, f"escrow.{power}", "openings only for a due power that "
                                "sent no orders", f"an opening for {power}, whose own orders "
                                "were used" if used.get(power) else f"an opening for {power}")
        for power in due:
            if used.get(power):
                continue
            items = recorded.get(power, {})

            def from_log(slot: str, blob: str, turn: int, items: Any = items) -> Any:
                item = items.get(slot) if isinstance(items, dict) else None
                return (item["value"], item["nonce"]) if isinstance(item, dict) else None

            _, opened = self.plugin.nmr_orders(state, power, from_log)
            if opened != items:
                path, want, got = _first_difference(opened, items)
                raise self.fail(entry, f"escrow.{power}.{path}", f"{_short(want)} (the rules "
                                "core's escrow check: commitment and arrival distance)",
                                f"{_short(got)} as recorded", "the escrow opening the referee "
                                "recorded is not what the rules core makes of it: a reveal "
                                "that does not open the departure's commitment, is not due, "
                                "or was opened where no escrow was given")

    def _mismatch(self, entry: Entry, state: GameState,
                  exc: replay.ReplayMismatch) -> AuditFailure:
        b = entry.body
        if exc.field == "events":
            chosen = {p: self.standing[p] for p, sha in b["used"].items()
                      if sha and p in self.standing and self.standing[p]["sha256"] == sha}
            kept = {p: self.kept[p] for p, sha in b["used"].items()
                    if sha and p in self.kept and self.kept[p]["sha256"] == sha}
            recorded = b["escrow"]

            def from_log(power: str, slot: str, blob: str, turn: int) -> Any:
                item = recorded.get(power, {}).get(slot)
                return (item["value"], item["nonce"]) if item else None

            orders, *_ = replay.gather_orders(self.plugin, state, chosen, from_log, kept)
            events = replay.resolve_step(self.plugin, state, orders, replay.step_chance(
                b, self.game_id, self.step, self.chance.k)).events
            path, want, got = _first_difference(events, b["events"])
            return self.fail(entry, f"events{path}", f"{_short(want)} (the rules core's "
                             "replay)", f"{_short(got)} as recorded", "the referee recorded "
                             "events the rules do not produce from these orders")
        if exc.field == "state":
            return self.fail(entry, "state", f"state digest {str(exc).split(' ')[-1]} (the rules "
                             "core's replay)", f"{b['state']} as recorded", "the recorded "
                             "state after this resolution is not the one the rules produce "
                             "from the orders (the log keeps only the state's digest, so the "
                             "field that differs, e.g. a ship count, cannot be named)")
        return self.fail(entry, exc.field, "what the rules core's replay uses", str(exc),
                         "the referee did not use the orders the rules core would use "
                         "(a stale order file or a missing one)")

    def gm(self, entry: Entry) -> None:
        b = entry.body
        self._referee_signed(entry)
        op = b.get("op")
        self.tally.gm_ops.append(str(op))
        problem = self.votes.visit(entry.seq, b, self.keys)  # votes and what they made
        if problem is None:
            problem = self.seats.gm(entry.seq, b)  # abandoned seats on autopilot
        if problem is not None:
            raise self.fail(entry, *problem)
        if op in ("end", "cancel"):
            self.tally.claimed_over = True
        if self.chance.secret_seq == entry.seq:
            self.tally.chance_secret = True
        if op not in replay.STATE_OPS:
            return
        if self.state is None:
            self.tally.unreplayed_gm += 1
            return
        result = replay.gm_resolution(self.plugin, self.state, b)
        assert result is not None
        digest = self.digests.digest(result.state)
        if digest != b.get("state"):
            raise self.fail(entry, "state", f"state digest {digest} (the rules core's {op})",
                            f"{b.get('state')} as recorded")
        if "events" in b and b["events"] != result.events:
            path, want, got = _first_difference(result.events, b["events"])
            raise self.fail(entry, f"events{path}", f"{_short(want)} (the rules core's {op})",
                            f"{_short(got)} as recorded")
        self.state = result.state
        self.version += 1

    def key(self, entry: Entry) -> None:
        b = entry.body
        if not isinstance(b, dict) or not b.keys() >= KEY_FIELDS:
            found = sorted(b) if isinstance(b, dict) else type(b).__name__
            raise self.fail(entry, "body", f"at least the fields {sorted(KEY_FIELDS)}", found)
        self._referee_signed(entry)
        power = b["power"]
        if power not in self.keys:
            raise self.fail(entry, "power", f"one of {', '.join(self.keys)}", power)
        try:
            new = PublicKey.parse(str(b["key"]))
        except KeyError_ as exc:
            raise self.fail(entry, "key", "a public key", str(exc)) from None
        self.chance.note(entry)
        self.retired[self.keys[power].fingerprint] = (power, entry.seq)
        self.keys[power] = new
        self.seats.back(power)
        self.key_version += 1
        self.tally.keys_replaced.append(power)

    def _referee_signed(self, entry: Entry) -> None:
        if not isinstance(entry.body, dict):
            raise self.fail(entry, "body", "a mapping", type(entry.body).__name__)
        try:
            replay.verify_gm(self.referee, entry.body)
        except (BadSignature, ValueError):
            raise self.fail(entry, "signature", f"the referee's signature (key "
                            f"{self.referee.fingerprint}) over the entry",
                            "a signature that does not verify", "a game-master operation "
                            "must be signed by the referee key recorded in the genesis "
                            "entry") from None

