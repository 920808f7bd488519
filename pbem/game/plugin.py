"""The game-plugin contract: everything the engine knows about a game, declared in one place.

A game is a directory under a games root (``games/<package>/``) holding ``game.yaml`` (its
manifest: ``id``, ``title``), its data files, its templates and a Python package whose
``__init__.py`` exports ``PLUGIN``. The engine, the store, the turn job, the reports and the
audit talk to a game only through ``PLUGIN``, so nothing in pbem/ assumes any game. The contract
has three parts, each checked when the game is loaded (pbem.game.registry: a game missing a part
fails at load with one sentence naming it, not at turn 7):

* **rules** (``GamePlugin`` below): set-up, steps (``window``), order checking, resolution,
  views and events, the ending, and the strings a leak test looks for (``secrets``,
  ``hidden``);
* **presentation** (``PLUGIN.presenter``, pbem.game.presentation.Presenter): the context of
  every mail that shows the game; the map is optional;
* **the player's tool** (``PLUGIN.tool``, pbem.game.tool.Tool, or None): the game's own
  subcommands of ``pbem orders`` and top-level commands.

Rules, for every game:

* States, orders, events and views are plain JSON data (dicts, lists, str, int, bool, None). A
  state is never mutated after it is returned; ``resolve`` returns a new one.
* Every method is pure and deterministic: no clock, no randomness, no I/O. The same arguments give
  byte-identical canonical JSON results. Dice and shuffles come only from the ``chance`` argument
  of ``resolve`` (pbem.game.chance; fair chance is pbem.chance).
* ``view`` is the only way hidden information leaves a state. Whatever is sent to a power (report,
  receipt, order check) is computed from ``view(state, power)``. A view carries ``game`` (the
  game's id), ``game_id`` (this game's name), ``viewer`` and ``turn``: the player's tool reads
  which game it is from there.
* ``check_orders`` sees only that view, so the referee and a player's offline checker run the same
  validation on the same information.
* Commitments and escrow (pbem.protocol.commitment, .escrow) are generic sealed values a game may
  use: a power commits to a value in a numbered *slot* and opens it later; an escrow seals the
  opening to the referee, who opens it (``nmr_orders``'s ``open_sealed``) only for a power that
  missed a step needing it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from pbem.errors import Problem
from pbem.game.shapes import EventData, EventIn, GameState, GameView, OrderBody, OrdersIn
from pbem.record import Record

if TYPE_CHECKING:
    from pbem.game.chance import Chance
    from pbem.game.presentation import Presenter
    from pbem.game.tool import Tool

State = GameState
Orders = OrderBody
Event = EventData
View = GameView


class Resolution(Record):
    """What one resolution step produced: the new state and what happened, in order."""

    __slots__ = ("state", "events")
    state: State
    events: list[Event]

    def __init__(self, state: State, events: list[Event] | None = None) -> None:
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "events", [] if events is None else events)


SealedOpener = Callable[[str, str, int], tuple[str, str] | None]
"""``open_sealed(slot, escrow blob, turn committed)`` -> (value, nonce) or None: the referee's
opening of an escrow (pbem.protocol.escrow) for the power ``nmr_orders`` is asked about."""


class Window(Record):
    """The next step of play: what it is and who must send orders for it.

    ``kind`` is the game's own name for the step ("turn", "setup", "reaction", ...); ``label``
    says it in words for mails; ``due`` are the powers whose orders the step uses; ``deadline``
    names a deadline class the game's schedule maps to a duration ("main" today: every step has
    the game's one deadline).

    ``listens`` are powers that are not due but whose standing answers the step uses when they
    sent any (a sequential game's "allow a build in my space?" set by a player at any time): the
    latest order file each of them had accepted since the previous resolution is checked and
    passed to ``resolve`` beside the due powers' orders; a listened power that sent nothing is
    passed nothing (no standing orders, never a missed turn). The log records each one's file
    in ``used`` (or null) and the audit holds it to the same rule as a due power's.

    Fair chance (pbem.store.chance, docs/protocol.md): a game with chance opens with a step of
    kind ``setup`` in which every due power commits his chain's tip and which draws nothing.
    ``draws`` says a step may draw (dice, shuffles): every due power's file must then carry
    his value for the step, and the seed takes the value of every due and listened power (a
    listened power that sent none: an empty field). A step that draws without declaring it
    fails; the set-up step and the game's first drawing step wait for every due power's
    contribution, whatever the deadline.

    Policies (docs/plugins.md, "Window policies"):

    * ``silence``: what a due power's silence means. ``"missed"`` (the default): a missed
      turn, counted in the running summary, reported and alerted on after ``nmr_alert``.
      ``"default"``: silence is an answer; the power gets the game's default answer
      (``nmr_orders``, as for a missed turn) with no missed-turn count, no "Missed turn"
      section and no game-master alert. The log still records that the power sent nothing (``used``:
      null) and marks the step ``"silence": "default"``.
    * ``notify``: who gets a full report once the step is resolved. ``"all"`` (the default):
      every player. ``"due"``: the players of the powers due at the next step. ``"touched"``:
      those, and the players of powers an event of the step names (pbem.game.events:
      ``visible_to``, or a ``power`` field). A player not mailed gets a digest at the pace he
      chose (the game config's ``digest``: every-step, daily, when-due); the game master's
      summary always goes.
    * ``closes_when_answered``: the step resolves as soon as every due power has an answer
      (today: an accepted order file marked ready), whatever the game's ``schedule.early``
      says; otherwise the schedule's ``early`` decides (docs/operations.md)."""

    __slots__ = ("kind", "label", "due", "deadline", "listens", "draws", "silence", "notify",
                 "closes_when_answered")
    kind: str
    label: str
    due: tuple[str, ...]
    deadline: str
    listens: tuple[str, ...]
    draws: bool
    silence: str
    notify: str
    closes_when_answered: bool

    def __init__(self,
                 kind: str, label: str, due: tuple[str, ...], deadline: str = "main",
                 listens: tuple[str, ...] = (), draws: bool = False, silence: str = "missed",
                 notify: str = "all", closes_when_answered: bool = False) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "due", due)
        object.__setattr__(self, "deadline", deadline)
        object.__setattr__(self, "listens", listens)
        object.__setattr__(self, "draws", draws)
        object.__setattr__(self, "silence", silence)
        object.__setattr__(self, "notify", notify)
        object.__setattr__(self, "closes_when_answered", closes_when_answered)
        self.__post_init__()

    def __post_init__(self) -> None:
        if self.silence not in SILENCE:
            raise ValueError(f"Window.silence must be one of {SILENCE}, not {self.silence!r}")
        if self.notify not in NOTIFY:
            raise ValueError(f"Window.notify must be one of {NOTIFY}, not {self.notify!r}")


#: What a due power's silence may mean (``Window.silence``).
SILENCE = ("missed", "default")
#: Who gets a full report after a step (``Window.notify``).
NOTIFY = ("all", "due", "touched")


class Variation(Record):
    """A state that differs from another only in hidden data, and the powers allowed to see
    the difference (the owner and whoever shares the secret): ``variations``."""

    __slots__ = ("state", "knowers")
    state: State
    knowers: tuple[str, ...]

    def __init__(self, state: State, knowers: tuple[str, ...]) -> None:
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "knowers", knowers)


class VariantInfo(Record):
    __slots__ = ("name", "title", "powers", "description")
    name: str
    title: str
    powers: tuple[str, ...]
    description: str

    def __init__(self,
                 name: str, title: str, powers: tuple[str, ...], description: str = "") -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "powers", powers)
        object.__setattr__(self, "description", description)


class GamePlugin(Protocol):
    """What a game provides to the engine (the parts are listed in ``REQUIRED``).

    pbem.game.base.Game gives every part with a generic answer, and forwards the rest to the
    modules a game declares as holding them (``rules``, ``orders``, ``views``), so a game
    writes only what is its own (docs/plugins.md, section 3)."""

    id: str
    title: str
    presenter: Presenter
    tool: Tool | None

    def variants(self) -> Mapping[str, VariantInfo]:
        """The variants this game can be played in, by name."""
        ...

    def setup(self, variant: str, options: Mapping[str, object]) -> State:
        """The initial state of a new game (raises PbemError for an unknown variant/option)."""
        ...

    def window(self, state: State) -> Window | None:
        """The next step of play (None once the game is over)."""
        ...

    def powers_due(self, state: State) -> list[str]:
        """Powers whose orders the next ``resolve`` uses (empty once the game is over): the
        window's ``due`` (pbem.game.base.Game derives it from ``window``)."""
        ...

    def orders_turn(self, state: State) -> int:
        """The turn number that order files for the next ``resolve`` must carry."""
        ...

    def normalize_orders(self, body: OrdersIn, view: View) -> tuple[Orders, list[Problem]]:
        """Check an order body (already parsed from YAML, envelope removed) against the power's
        view. Returns the normalised orders and every problem found (the file is rejected whole
        if the list is not empty)."""
        ...

    def default_orders(self, state: State, power: str) -> Orders:
        """Standing orders used when a power sent none (no-move-received)."""
        ...

    def nmr_orders(
        self, state: State, power: str, open_sealed: SealedOpener | None
    ) -> tuple[Orders, dict[str, dict[str, object]]]:
        """Orders for a power that sent none: the standing orders, plus whatever the game does
        with values the power sealed to the referee (``open_sealed``, None: none can be opened).
        Returns (orders, what was opened: ``{slot: {value, nonce, ...}}``, for the log's
        ``escrow`` field; docs/protocol.md, "The log")."""
        ...

    def concede(self, state: State, power: str) -> Resolution:
        """``power`` concedes now (a game-master operation on the player's request)."""
        ...

    def resolve(self, state: State, orders: Mapping[str, Orders], chance: Chance) -> Resolution:
        """Resolve the next step with the given orders (per power), drawing any dice or
        shuffles from ``chance`` (a game without randomness ignores it)."""
        ...

    def view(self, state: State, power: str | None) -> View:
        """What ``power`` may see of ``state``; ``None`` is the public view."""
        ...

    def view_events(self, events: Sequence[EventIn], power: str | None) -> list[Event]:
        """The events ``power`` may see (``None``: the public ones)."""
        ...

    def end_game(self, state: State, reason: str) -> Resolution:
        """End the game now by agreement (a game-master operation)."""
        ...

    def secrets(self, state: State, power: str) -> list[str]:
        """Strings that belong to ``power`` (and whoever shares them) at this point, exactly as
        they would appear in a view or event that leaked them (leak tests look for them)."""
        ...

    def hidden(self, state: State) -> list[str]:
        """Strings only the referee may know (a deck's order, a face-down card), as they would
        appear in a leaked view; ``[]`` for a game whose referee holds no secret."""
        ...

    def variations(self, state: State, power: str) -> list[Variation]:
        """States that differ from ``state`` only in ``power``'s hidden data (a hand, a secret
        alliance, ...), each with the powers allowed to see the difference. The conformance
        suite checks that every other power's view, events and mails stay byte-identical, and
        that the knowers' views do change (so the variation is of data that is shown)."""
        ...

    def counts(self, events: Sequence[EventIn]) -> dict[str, int]:
        """What the audit reports about a resolution's events, in the game's words
        (4000 A.D.: ``{"battles": 2}``); summed over the game."""
        ...

    def is_over(self, state: State) -> bool:
        ...

    def check_components(self, data: object) -> list[Problem]:
        """Every problem of a component pack (cards, tokens, map pieces; for 4000 A.D. the
        board), each with its path; [] if a game can be played with it. A game taking no pack
        returns a problem saying so. Rules versions and the default pack: pbem.game.versions."""
        ...


def powers_listened(plugin: GamePlugin, state: State) -> list[str]:
    """The powers whose standing answers the next step uses though they are not due
    (``Window.listens``; none for a game whose windows do not name any)."""
    step = plugin.window(state)
    if step is None:
        return []
    due = set(step.due)
    return [p for p in step.listens if p not in due]


#: The parts every PLUGIN must have (methods and attributes), checked at load.
REQUIRED = (
    "id", "title", "presenter", "tool", "variants", "setup", "window", "powers_due",
    "orders_turn", "normalize_orders", "default_orders", "nmr_orders", "concede", "resolve",
    "view", "view_events", "end_game", "secrets", "hidden", "variations", "counts", "is_over",
)
PRESENTER_REQUIRED = (
    "map_kind", "title", "welcome", "report", "shared", "receipt_lines", "gm",
    "game_end", "reveal", "map_context",
)
TOOL_REQUIRED = ("register_orders", "register_commands", "new_orders", "footer",
                 "check_warnings")
#: The functions ``PLUGIN.archive`` may define (pbem.archive.hooks: what each one does, and the
#: default for one a game leaves out); checked at load: each one given must be callable.
ARCHIVE_HOOKS = ("archive_summary", "archive_map", "archive_event", "archive_colours")
#: The optional members a game may declare, read by the engine where it needs them
#: (docs/plugins.md, "Optional parts"): pbem.game.versions reads the first four, ``pbem new``
#: ``modes``, the archive ``archive``, random play ``sample_orders``, acceptance, the replay
#: and the audit ``standing_sections`` (standing files).
OPTIONAL = ("rules_version", "rules_versions_supported", "default_components",
            "check_components", "data_files", "modes", "archive", "sample_orders",
            "standing_sections")
