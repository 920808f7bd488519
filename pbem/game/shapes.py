"""The shapes at the boundary between pbem and a game, declared once (docs/plugins.md, "Types a
game can import").

**Open-ended game data.** What a game keeps is its own: pbem passes it through, digests it and
reads only a few keys of it. These aliases say which data it is, not what it holds:

- ``GameState``: a game's whole state (``state.json``; ``setup``, ``resolve``): a JSON object
  the game defines. pbem reads ``turn``, ``powers`` and ``result`` (``GameResult``).
- ``GameView``: what ``view(state, power)`` returns, the only hidden information that leaves
  the system; pbem reads the keys of ``ViewFacts``.
- ``OrderBody``: an order file's ``orders:`` mapping, and what ``normalize_orders`` makes of it.
- ``EventData``: one event of a resolution; pbem reads the keys of ``EventKeys``.
- ``Context``: a template context a presenter returns (the engine adds its facts to it).

``StateIn``, ``ViewIn``, ``OrdersIn`` and ``EventIn`` are the same, read-only (``Mapping``).

**What the engine reads** is a ``TypedDict`` each: ``Manifest`` (``game.yaml``, with
``Information``, a StrEnum of its ``information:`` words), ``ViewFacts`` (a view; its required
keys are what conformance checks), ``EventKeys`` (an event), ``GameResult``
(``state["result"]``, pbem.game.results), and the mail facts pbem
builds itself (``PlayerInfo``, ``MailFacts`` with ``GmNotice``, ``MissedTurn``, ``ViewExtra``,
``ChanceAsk``, ``ChanceFacts``: what the host hands the mail builders) and puts
in every template's context (``MailCommon`` with ``GameHeader``, ``PlayerHeader``, ``When``,
``Keepsake``; per mail ``WelcomeContext``, ``ReportContext``, ``GmSummaryContext``,
``GameEndContext``, with ``PowerFacts`` and ``ReportFacts`` per power). The mail contexts are
declarations: a context holds the presenter's keys too, so the builders (pbem.render.mails) fill
a plain ``Context``, and tests/engine/render/test_context_shapes.py renders a template made of
every declared key to hold the engine to them.
"""

# No ``from __future__ import annotations`` here (issue 30, "Fast start"): a TypedDict's string
# annotations are each compiled (typing.ForwardRef) as the class is made, ~123 compiles in a
# process that loads a game; evaluated annotations cost none.

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypedDict

from pbem.game.results import GameResult

GameState = dict[str, Any]
GameView = dict[str, Any]
OrderBody = dict[str, Any]
EventData = dict[str, Any]
Context = dict[str, Any]
#: The read-only forms, for a parameter that only reads the game's data.
StateIn = Mapping[str, Any]
ViewIn = Mapping[str, Any]
OrdersIn = Mapping[str, Any]
EventIn = Mapping[str, Any]


class Information(StrEnum):
    """What a game's manifest declares of its information (``information:``, docs/plugins.md
    section 1); conformance adapts to it."""

    HIDDEN = "hidden"  # the default: hidden state at rest (a hand, a face-down card)
    SIMULTANEOUS = "simultaneous"  # orders secret only until the step that resolves them
    PERFECT = "perfect"  # nothing is ever hidden


class _ManifestRequired(TypedDict):
    id: str


class Manifest(_ManifestRequired, total=False):
    """A game's ``game.yaml`` as pbem reads it (docs/plugins.md section 1; pbem.game.registry):
    ``id`` required, the rest optional (each checked where it is read)."""

    title: str
    information: str  # Information's words; absent: hidden
    orders: dict[str, str]  # `pbem orders` commands the tool adds: name -> help line
    commands: dict[str, str]  # top-level commands the tool adds
    modes: list[str]  # turn modes, the first the default


class _ViewRequired(TypedDict):
    game: str
    game_id: str
    viewer: str | None
    turn: int
    powers: dict[str, Any]


class ViewFacts(_ViewRequired, total=False):
    """The keys pbem reads from every view; the required ones (``__required_keys__``: game,
    game_id, viewer, turn, powers) are what conformance holds every view to
    (tests/engine/game/test_conformance.py reads them from here)."""

    due: list[str]  # the powers due now; absent: every power gets an order form
    result: GameResult | None


class EventKeys(TypedDict, total=False):
    """The keys pbem reads from an event: ``type`` (every event), ``turn``, and the engine's
    addressing (``_visible_to``, set by pbem.game.events.private; absent: a public event)."""

    type: str
    turn: int
    _visible_to: list[str]


class When(TypedDict, total=False):
    """A time as mails show it (pbem.render.environment.format_when): ``local`` and ``tz`` are
    "" without the player's time zone."""

    iso: str
    utc: str
    local: str
    tz: str


class Keepsake(TypedDict):
    """A signed text a mail shows and may attach (pbem.render.environment.keepsake)."""

    text: str
    lines: list[str]  # the text's lines if every one fits the plain-text part, else []
    attached: bool  # too wide: attached as ``filename`` instead
    filename: str
    summary: str


class PlayerInfo(TypedDict, total=False):
    """A player as the mails address him (the game's config: pbem.host.notify)."""

    name: str
    email: str
    tz: str | None
    powers: list[str]
    settings: dict[str, object]  # the welcome mail's "Your settings" (pbem.render.settings)


class PlayerHeader(TypedDict):
    """``player`` in every mail's context."""

    name: str
    email: str
    tz: str


class GameHeader(TypedDict):
    """``game`` in every mail's context (docs/plugins.md, "Template contexts")."""

    id: str
    title: str
    game_title: str
    deadline: When | None
    checkpoint: Keepsake | None
    referee: str
    schedule: str


class StepFacts(TypedDict):
    """The engine's facts of the step now due, in every game mail's context."""

    turn: int
    step: str
    over: bool
    names: list[str]


class PowerFacts(TypedDict):
    """The engine's keys of one power's part of a mail (each of the welcome's ``powers``), over
    whatever the presenter returned for it."""

    power: str
    name: str
    turn: int
    seq: int
    due: bool


class ReportFacts(PowerFacts):
    """Each of the turn report's ``reports``: a presenter cannot change the last two."""

    resolved_turn: int
    missed: int


class MailCommon(StepFacts):
    """What every game mail's context holds whatever the presenter returns."""

    game: GameHeader
    player: PlayerHeader
    map_svg: str | None


class WelcomeContext(MailCommon):
    """The welcome's engine keys (the presenter's ``welcome`` is in each of ``powers``)."""

    powers: list[PowerFacts]
    variant_title: str
    roster: list[dict[str, Any]]
    fair_chance: dict[str, str] | None


class ReportContext(MailCommon):
    """The turn report's engine keys (``shared`` is the presenter's)."""

    reports: list[ReportFacts]
    first: ReportFacts
    resolved_turn: int
    notes: dict[str, Any]
    shared: Context


class GmSummaryContext(MailCommon):
    """The game master's summary's engine keys (``gm`` is the presenter's)."""

    resolved_turn: int
    missed: dict[str, int]
    press: dict[str, int]
    missed_now: list[str]
    gm: Context


class GameEndContext(MailCommon):
    """The last mail: the common keys, then the presenter's ``game_end`` at the top level."""


class StandingUse(TypedDict):
    """A power that played on its standing file (pbem.host.notify.turn_facts)."""

    turn: int
    seq: int
    orders: dict[str, Any]


class _NoticeCore(TypedDict):
    op: str  # pbem.store.kinds.GmOp's words
    seq: int
    time: str
    deadline: str | None
    reason: str
    power: str


class GmNotice(_NoticeCore, total=False):
    """A game-master operation the players are told of (pbem.host.notify.gm_notice; the notice
    mail and the report's section say it with pbem.render.notes.notice_line); ``turn``: the
    turn now due, where the host knows it."""

    turn: int
    missed: int | None  # an autopilot notice: the due steps missed in a row
    auto: bool  # an autopilot notice: put there by the config's abandoned rule


class MissedTurn(TypedDict):
    """What was done for a power that sent no usable orders for the turn just resolved
    (pbem.host.notify.turn_facts; the report and the game master's summary say it)."""

    turn: int
    escrow: list[str]  # slots opened and used
    escrow_unused: list[str]  # slots opened that could not be used
    stale: list[str]  # why its orders no longer fitted ([]: it sent none)
    total: int  # turns missed so far
    in_a_row: int
    alerted: bool  # the game master has been told
    autopilot: bool  # the seat is on autopilot (pbem.host.seats)


class ChanceAsk(TypedDict):
    """What view.json tells ``pbem orders sign`` of the coming step's chance."""

    step: int
    tip: str | None  # the power's committed tip (hex), None before the set-up
    contribute: str | None  # pbem.chance.kinds.Contribution's words, or None: nothing


class ViewExtra(TypedDict, total=False):
    """What view.json carries besides the game's view (pbem.host.notify.Context.view_extra):
    the game ``instance`` every order file names, and ``chance`` for a game with fair chance."""

    instance: str
    chance: ChanceAsk


class ChanceFacts(TypedDict):
    """What a report says of a step that drew (pbem.host.notify.chance_facts)."""

    step: int
    draws: list[dict[str, Any]]  # the step's public draws (pbem.chance.stream's records)
    referee_tip: str | None
    missing: dict[str, list[list[int]]]  # per power, the runs of steps drawn without it


class MailFacts(TypedDict, total=False):
    """What the host tells the mail builders of a game (pbem.host.notify.Context.game_info and
    turn_facts; pbem.render.mails reads them). Every key optional but ``game_id``."""

    game_id: str
    title: str
    game_title: str
    instance: str
    deadline: str | None
    paused: bool
    over: bool
    checkpoint: str | None
    referee: str
    schedule: str
    sender: str
    seq: int | dict[str, int]
    last_seq: dict[str, int]
    log_length: int
    missed: dict[str, int]
    missed_in_a_row: dict[str, int]
    view_extra: dict[str, ViewExtra]
    press: dict[str, int]
    chance: ChanceFacts | None
    standing: dict[str, StandingUse]
    nmr: dict[str, MissedTurn]
    notices: list[GmNotice]
    order: list[str]
    roster: list[dict[str, Any]]
    fair_chance: dict[str, str] | None
    digest: dict[str, list[str]]  # each power's digest lines (pbem.host.notify.digest_lines)


__all__ = ["ChanceAsk", "ChanceFacts", "Context", "EventData", "EventIn", "EventKeys",
           "GameEndContext", "GameHeader", "GameResult", "GameState", "GameView", "GmNotice",
           "GmSummaryContext", "Information", "Keepsake", "MailCommon", "MailFacts", "Manifest",
           "MissedTurn", "OrderBody", "OrdersIn", "PlayerHeader", "PlayerInfo", "PowerFacts",
           "ReportContext", "ReportFacts", "StandingUse", "StateIn", "StepFacts", "ViewExtra",
           "ViewFacts", "ViewIn", "WelcomeContext", "When"]
