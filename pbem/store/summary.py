"""The running summary of a game log: the one definition of every fact the engine reads from
the log, kept up to date entry by entry.

A :class:`Summary` folds the log one entry at a time into: the clock (deadline, paused, last
resolution), the standing orders (by ``pbem.protocol.orderdoc.replaces``, the one seq rule),
the standing files (``turn: standing``: each power's latest, kept across resolutions), the
missed-turn counts, the registered keys, the last entry that changes the state (is the
state cache current?), each power's last accepted seq, the fair-chance ledger and
contributions, the game-master entries of this turn and of the turn just resolved (a report's
notices), the press counts and order files of the latest turn, whether the game drew and
revealed its secret. Nothing else computes these facts from the log: a question about the log
at an earlier entry is :func:`summarize` over the entries up to it.

Why a fold: a scan of the whole log on every visit made a visit's cost grow with the game's
history. The trusted point (pbem.store.trusted) stores the summary at its entry and a visit
folds only the entries after it, so a fact at turn 300 costs what it costs at turn 2.
tests/engine/store/test_summary.py checks, over generated logs, that a summary folded incrementally
(through trusted points) equals one folded from scratch, and that the standing orders it gives
are the files the replay and the audit then require.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from pbem.protocol.envelope import STANDING_TURN
from pbem.protocol.orderdoc import replaces
from pbem.record import Mutable, Record
from pbem.store.kinds import EntryKind, GmOp

if TYPE_CHECKING:
    from pbem.chance.contributions import Contributions

if TYPE_CHECKING:
    from pbem.store.chance import Ledger
    from pbem.store.records import BodyIn, FileRow, LogBody

ORDERS, RESOLVE, GM, KEY, PRESS = (EntryKind.ORDERS, EntryKind.RESOLVE, EntryKind.GM, EntryKind.KEY,
                                  EntryKind.PRESS)
STATELESS = frozenset({ORDERS, KEY, PRESS})
"""Log entries that never change the state: a cache made before them is still current."""
SECRET_OP = GmOp.CHANCE_SECRET  # pbem.store.chance.SECRET_OP
AUTOPILOT = GmOp.AUTOPILOT  # the gm op that puts an abandoned seat on autopilot (pbem.host.seats)


class _Entry(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def time(self) -> str: ...
    @property
    def body(self) -> LogBody: ...
    @property
    def hash(self) -> str: ...


class Clock(Record):
    """What the log says about time: the current deadline and whether the game is paused."""

    __slots__ = ("deadline", "paused", "last_resolution")
    deadline: str | None
    paused: bool
    last_resolution: int  # log seq of the last resolve entry (0: none yet)

    def __init__(self, deadline: str | None, paused: bool, last_resolution: int) -> None:
        object.__setattr__(self, "deadline", deadline)
        object.__setattr__(self, "paused", paused)
        object.__setattr__(self, "last_resolution", last_resolution)


class Noted(Record):
    """A game-master or key entry kept in the summary (what its notice mail needs)."""

    __slots__ = ("seq", "kind", "time", "body")
    seq: int
    kind: str
    time: str
    body: LogBody

    def __init__(self, seq: int, kind: str, time: str, body: Any) -> None:
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "time", time)
        object.__setattr__(self, "body", body)


class Summary(Mutable):
    """What the log says so far, as of the entry ``seq`` (``-1``: nothing folded yet). (A plain
    class with a dataclass's repr and equality, pbem.record.Mutable: a dataclass cost every
    process that opens a game ~6 M instructions to make.)"""

    _fields = ("seq", "deadline", "paused", "last_resolution", "last_resolution_time", "standing",
               "missed", "keys", "last_state_change", "state_head", "last_seq", "ledger",
               "notices", "turn_notices", "press", "turn_orders", "drew", "secret",
               "contributions", "standing_files", "autopilot")
    seq: int
    deadline: str | None
    paused: bool
    last_resolution: int  # seq of the last resolve entry (0: none yet)
    last_resolution_time: str  # time of that entry (the genesis time when none)
    standing: dict[str, LogBody]
    missed: dict[str, dict[str, int]]
    keys: dict[str, str]  # power -> key text
    last_state_change: int  # seq of the last resolve or state-changing gm entry (0: none)
    #: [length, hash] after the last entry not in STATELESS
    state_head: list[int | str]
    last_seq: dict[str, int]  # power -> highest accepted seq
    ledger: LogBody  # pbem.store.chance.Ledger as data
    notices: list[LogBody]  # gm/key entries this turn
    turn_notices: list[LogBody]  # … of the turn resolved
    press: list[Any]  # [turn, {power: messages}] latest turn
    #: [turn, [[seq, power, sha256, bytes], …]]: every orders entry of the latest turn
    turn_orders: list[Any]
    drew: bool  # a resolution drew (fair chance)
    secret: bool  # the chance secret was revealed
    contributions: LogBody  # pbem.chance.contributions
    #: power -> the body of its latest standing file (never cleared by a resolution)
    standing_files: dict[str, LogBody]
    #: power -> seq of the gm entry that put its seat on autopilot (cleared by its accepted
    #: orders, a replace, a concede)
    autopilot: dict[str, int]

    def __init__(self, seq: int = -1, deadline: str | None = None, paused: bool = False,
                 last_resolution: int = 0, last_resolution_time: str = "",
                 standing: dict[str, LogBody] | None = None,
                 missed: dict[str, dict[str, int]] | None = None,
                 keys: dict[str, str] | None = None, last_state_change: int = 0,
                 state_head: list[int | str] | None = None, last_seq: dict[str, int] | None = None,
                 ledger: LogBody | None = None, notices: list[LogBody] | None = None,
                 turn_notices: list[LogBody] | None = None, press: list[Any] | None = None,
                 turn_orders: list[Any] | None = None, drew: bool = False, secret: bool = False,
                 contributions: LogBody | None = None,
                 standing_files: dict[str, LogBody] | None = None,
                 autopilot: dict[str, int] | None = None) -> None:
        self.seq = seq
        self.deadline = deadline
        self.paused = paused
        self.last_resolution = last_resolution
        self.last_resolution_time = last_resolution_time
        self.standing = {} if standing is None else standing
        self.missed = {} if missed is None else missed
        self.keys = {} if keys is None else keys
        self.last_state_change = last_state_change
        self.state_head = [] if state_head is None else state_head
        self.last_seq = {} if last_seq is None else last_seq
        self.ledger = {} if ledger is None else ledger
        self.notices = [] if notices is None else notices
        self.turn_notices = [] if turn_notices is None else turn_notices
        self.press = [] if press is None else press
        self.turn_orders = [] if turn_orders is None else turn_orders
        self.drew = drew
        self.secret = secret
        self.contributions = {} if contributions is None else contributions
        self.standing_files = {} if standing_files is None else standing_files
        self.autopilot = {} if autopilot is None else autopilot

    def fold(self, entry: _Entry) -> None:
        """Take one more entry (the one after ``seq``) into the summary."""
        if entry.seq != self.seq + 1:
            raise ValueError(f"summary at seq {self.seq} cannot take entry {entry.seq}")
        self.seq = entry.seq
        body = entry.body
        if entry.kind not in STATELESS:
            self.state_head = [entry.seq + 1, entry.hash]
        if entry.seq > 0 and entry.kind in (ORDERS, RESOLVE, KEY):
            self._fold_ledger(entry)
        if entry.seq == 0:
            self.deadline = body.get("deadline")
            self.last_resolution_time = entry.time
            self.keys = dict(body.get("keys", {}))
            return
        if entry.kind == ORDERS or (entry.kind == KEY and isinstance(body, dict)):
            self.autopilot.pop(str(body.get("power")), None)  # the seat is taken back
        if entry.kind == ORDERS and is_standing(body):
            stand(self.standing_files, body)
            power = body["power"]
            self.last_seq[power] = max(self.last_seq.get(power, -1), int(body["seq"]))
        elif entry.kind == ORDERS:
            stand(self.standing, body)
            power = body["power"]
            self.last_seq[power] = max(self.last_seq.get(power, -1), int(body["seq"]))
            turn = body.get("turn")
            if not self.turn_orders or self.turn_orders[0] != turn:
                self.turn_orders = [turn, []]
            self.turn_orders[1].append(order_file_row(entry.seq, body))
        elif entry.kind == RESOLVE:
            self.turn_notices, self.notices = self.notices, []
            if "random" in body:
                self.drew = True
                from pbem.chance.contributions import Contributions

                made = Contributions.from_data(self.contributions)
                made.add(int(self.ledger.get("step", 0)), body["random"])
                self.contributions = made.to_data()
            self.deadline = body.get("deadline")
            self.last_resolution = entry.seq
            self.last_resolution_time = entry.time
            self.last_state_change = entry.seq
            self.standing = {}
            fold_missed(self.missed, body)
        elif entry.kind == GM:
            op = body.get("op")
            if op == GmOp.PAUSE:
                self.paused = True
            elif op == GmOp.RESUME:
                self.paused = False
                self.deadline = body.get("deadline", self.deadline)
            elif op == GmOp.EXTEND:
                self.deadline = body["deadline"]
            elif op == AUTOPILOT:
                self.autopilot[str(body.get("power"))] = entry.seq
            elif op == "concede":
                self.autopilot.pop(str(body.get("power")), None)
            if "state" in body:
                self.last_state_change = entry.seq
            if op == SECRET_OP:
                self.secret = True
        elif entry.kind == KEY and isinstance(body, dict):
            self.keys[body["power"]] = body["key"]
        elif entry.kind == PRESS and isinstance(body, dict):
            turn = body.get("turn")
            if not self.press or self.press[0] != turn:
                self.press = [turn, {}]
            power = str(body.get("power"))
            self.press[1][power] = self.press[1].get(power, 0) + len(body.get("messages") or [])
        if entry.kind in (GM, KEY):
            self.notices.append({"seq": entry.seq, "kind": entry.kind, "time": entry.time,
                                 "body": body})

    def _fold_ledger(self, entry: _Entry) -> None:
        from pbem.store import chance  # it reads the log's entries: imported when first used

        ledger = chance.Ledger.from_data(self.ledger) if self.ledger else chance.Ledger()
        ledger.add(entry)  # type: ignore[arg-type]  # an Entry, or a fold's stand-in of one
        self.ledger = ledger.to_data()

    def chance_ledger(self) -> Ledger:
        """The fair-chance ledger at this entry (pbem.store.chance.Ledger)."""
        from pbem.store import chance

        return chance.Ledger.from_data(self.ledger) if self.ledger else chance.Ledger()

    def chance_contributions(self) -> Contributions:
        """Who contributed to which drawing step so far (pbem.chance.contributions)."""
        from pbem.chance.contributions import Contributions

        return Contributions.from_data(self.contributions)

    def noted(self, this_turn: bool = True) -> list[Noted]:
        """The game-master and key entries since the last resolution (``this_turn``), or those
        of the turn the last resolution ended."""
        return [Noted(**n) for n in (self.notices if this_turn else self.turn_notices)]

    def turn_files(self, turn: object) -> list[FileRow] | None:
        """``[seq, power, sha256, bytes]`` of every orders entry of ``turn``, or None when the
        summary cannot tell (an older turn than the latest with orders: scan the log). Orders
        are accepted only for the game's current turn, which never goes back, so every entry
        of the latest turn is in the list and no entry of a later turn exists."""
        if not self.turn_orders:
            return []
        latest = self.turn_orders[0]
        if turn == latest:
            return [list(f) for f in self.turn_orders[1]]
        try:
            return [] if turn > latest else None
        except TypeError:
            return None

    def press_counts(self, turn: object) -> dict[str, int]:
        """Press messages per power in ``turn`` when it is the latest turn with press (press
        is only accepted for the current turn, so earlier turns have none after it)."""
        return dict(self.press[1]) if self.press and self.press[0] == turn else {}

    def clock(self) -> Clock:
        return Clock(self.deadline, self.paused, self.last_resolution)

    def standing_orders(self) -> dict[str, LogBody]:
        """The accepted submission that stands for each power in the coming resolution: of the
        ``orders`` entries since the last resolution, the one ``orderdoc.replaces`` keeps (the
        highest seq; of equal seqs the first)."""
        return dict(self.standing)

    def standing_file(self, power: str) -> LogBody | None:
        """The body of ``power``'s latest standing file (the highest seq), or None."""
        return self.standing_files.get(power)

    def missed_turns(self) -> dict[str, dict[str, int]]:
        """Per power: resolutions it sent no orders for, in all and in a row up to now (only
        where it was due: a listened power's file, say one with only his chance value, is no
        turn played; and only where silence was not an answer: a step marked ``"silence":
        "default"`` counts a file sent as a turn played and silence as nothing)."""
        return copy.deepcopy(self.missed)

    def on_autopilot(self) -> dict[str, int]:
        """The seats on autopilot: power -> log seq of the gm entry that put it there (until
        its player's next accepted orders, a new player, or a concession)."""
        return dict(self.autopilot)

    def to_data(self) -> LogBody:
        """The summary as JSON data, sharing nothing with it (folding on changes no copy)."""
        return copy.deepcopy(self.as_data())

    def as_data(self) -> LogBody:
        """The summary as JSON data that shares its parts with the summary: to be encoded at
        once (the trusted point written after every visit), never kept or changed."""
        return {
            "seq": self.seq, "deadline": self.deadline, "paused": self.paused,
            "last_resolution": self.last_resolution,
            "last_resolution_time": self.last_resolution_time,
            "standing": self.standing, "missed": self.missed, "keys": self.keys,
            "last_state_change": self.last_state_change, "state_head": self.state_head,
            "last_seq": self.last_seq, "ledger": self.ledger, "notices": self.notices,
            "turn_notices": self.turn_notices, "press": self.press,
            "turn_orders": self.turn_orders, "drew": self.drew,
            "secret": self.secret, "contributions": self.contributions,
            "standing_files": self.standing_files, "autopilot": self.autopilot,
        }

    @classmethod
    def from_data(cls, data: object, *, owned: bool = False) -> Summary:
        """The summary stored by :meth:`to_data` (raises KeyError/TypeError/ValueError if not).
        ``owned``: ``data`` is the caller's to hand over (just parsed, never used again), so
        the summary takes it without a copy."""
        if not isinstance(data, dict) or data.keys() != _FIELDS:
            raise ValueError("not a log summary")
        out = cls(**(data if owned else copy.deepcopy(data)))
        if not isinstance(out.seq, int) or not isinstance(out.standing, dict) or not isinstance(
                out.missed, dict) or not isinstance(out.keys, dict):
            raise ValueError("not a log summary")
        if not (isinstance(out.state_head, list) and isinstance(out.last_seq, dict)
                and isinstance(out.ledger, dict) and isinstance(out.notices, list)
                and isinstance(out.turn_notices, list) and isinstance(out.press, list)
                and isinstance(out.turn_orders, list)):
            raise ValueError("not a log summary")
        return out


_FIELDS = frozenset(Summary().as_data())  # the keys to_data writes


def silence_answers(body: BodyIn) -> bool:
    """Whether the resolve entry ``body`` is of a step whose silence is an answer
    (pbem.game.plugin.Window ``silence: "default"``): a due power that sent nothing there got
    the game's default answer and missed no turn."""
    return isinstance(body, dict) and body.get("silence") == "default"


def fold_missed(missed: dict[str, dict[str, int]], body: BodyIn) -> None:
    """Take the resolve entry ``body`` into the missed-turn counts (power -> total, in a row):
    a due power that sent nothing missed a turn, unless the step's silence is an answer; a
    listened power that is not due plays or misses nothing (the summary and the audit)."""
    due = body.get("due")
    answers = silence_answers(body)
    for power, sha in (body.get("used") or {}).items():  # a bare resolve: none
        if isinstance(due, list) and power not in due:
            continue  # listened to, not due: no turn played or missed
        if sha is None and answers:
            continue  # Window.silence "default": silence answered, no turn missed
        rec = missed.setdefault(power, {"total": 0, "in_a_row": 0})
        if sha is None:
            rec["total"] += 1
            rec["in_a_row"] += 1
        else:
            rec["in_a_row"] = 0


def summarize(entries: Iterable[_Entry]) -> Summary:
    """The summary of a whole sequence of entries, genesis first."""
    out = Summary()
    for entry in entries:
        out.fold(entry)
    return out


def stand(standing: dict[str, LogBody], body: LogBody) -> None:
    """Take the ``orders`` entry ``body`` into ``standing`` (power -> the body that stands since
    the last resolution) where ``orderdoc.replaces`` says it replaces the one standing: the
    summary's fold and the replay (pbem.store.replay) both take orders with this step."""
    power = str(body["power"])
    current = standing.get(power)
    if replaces(int(body["seq"]), None if current is None else int(current["seq"])):
        standing[power] = body


def is_standing(body: BodyIn) -> bool:
    """Whether an ``orders`` entry's body holds a standing file (logged as turn 0,
    pbem.protocol.envelope.STANDING_TURN): it stands across resolutions until replaced."""
    return body.get("turn") == STANDING_TURN


def order_file_row(seq: int, body: BodyIn) -> FileRow:
    """``[seq, power, sha256, bytes]`` of the ``orders`` entry ``seq`` with ``body``: what
    :meth:`Summary.turn_files` lists for each order file of a turn."""
    return [seq, body.get("power"), body.get("sha256"),
            len(str(body.get("text", "")).encode("utf-8"))]
