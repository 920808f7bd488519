"""Mails from Jinja templates: the turn report and every other mail a game sends.

Generic: nothing here knows a game's rules. Templates come from, in order, the game directory's
``templates/`` (per-game overrides), the game package's ``templates/``, pbem's bundled
``templates/<game>/`` and ``templates/common/``; the game's declared presenter
(``PLUGIN.presenter``, pbem.game.presentation.Presenter) turns a power's view and visible
events into the template context. The map is the game's: attached as ``map.svg`` only if the
presenter draws one. Everything about a power comes only from ``plugin.view(state, power)`` and
``plugin.view_events(events, power)``; the game master's summary is the one mail made from the
whole state.

Each mail is three templates: ``NAME.subject.txt``, ``NAME.txt`` (plain text, at most 80 columns)
and ``NAME.html`` (XHTML-compatible markup, inline styles only). See docs/reports.md.

The environment, the presenter and the rendered mail are in pbem.render.environment (re-exported
here); the report's notices in sentences in pbem.render.notes.

Size: one builder per mail kind, each short; the shared pieces live in environment and notes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from pbem import canonical
from pbem.errors import Problem
from pbem.game.partials import READERS_CSS
from pbem.game.plugin import GamePlugin
from pbem.game.presentation import Presenter
from pbem.render.environment import (
    TEXT_WIDTH,
    Attachment,
    RenderedMail,
    Renderer,
    RenderError,
    format_when,
    keepsake,
    para,
    power_name,
    presenter,
)
from pbem.render.notes import (
    digest_lines,
    gm_missed_lines,
    nmr_lines,
    notice_line,
    turn_notes,
    when,
)

if TYPE_CHECKING:
    from pbem.game.shapes import (
        Context,
        EventIn,
        GameHeader,
        GmNotice,
        Keepsake,
        MailFacts,
        PlayerHeader,
        PlayerInfo,
        StateIn,
        StepFacts,
        ViewExtra,
        ViewIn,
    )

__all__ = ["TEXT_WIDTH", "Attachment", "RenderError", "RenderedMail", "Renderer", "digest_lines",
           "format_when", "keepsake", "nmr_lines", "notice_line", "para", "power_name",
           "presenter", "turn_notes", "when"]


# -- contexts shared by every mail ----------------------------------------------------------------
def _game(game: MailFacts, player: PlayerInfo | None,
          plugin: GamePlugin | None = None) -> GameHeader:
    tz = (player or {}).get("tz")
    return {
        "id": game["game_id"],
        "title": game.get("title") or game["game_id"],
        "game_title": plugin.title if plugin is not None else game.get("game_title", ""),
        "deadline": format_when(game.get("deadline"), tz),
        "checkpoint": _checkpoint(game.get("checkpoint")),
        "referee": game.get("referee", ""),
        "schedule": game.get("schedule", ""),
    }


def _checkpoint(text: str | None) -> Keepsake | None:
    """``keepsake(text, "checkpoint.txt")``: each mail of a resolution shows the same signed
    checkpoint, parsed once (~12 us a mail); each mail gets its own copy."""
    made = _checkpoint_once(text)
    if made is None:
        return None
    out = made.copy()
    out["lines"] = list(made["lines"])
    return out


@functools.lru_cache(maxsize=16)
def _checkpoint_once(text: str | None) -> Keepsake | None:
    return keepsake(text, "checkpoint.txt")


def _player(player: PlayerInfo | None) -> PlayerHeader:
    player = player or {}
    return {"name": player.get("name") or "", "email": player.get("email") or "",
            "tz": player.get("tz") or ""}


def _json(value: object) -> bytes:
    return canonical.encode(value) + b"\n"


def _view_attachments(renderer: Renderer, views: Mapping[str, ViewIn],
                      last_seq: Mapping[str, int] | None = None,
                      extra: Mapping[str, ViewExtra] | None = None) -> list[Attachment]:
    """Each view as JSON; with ``last_seq`` (the host's record of each power's last accepted
    seq) the view carries ``last_seq`` too, so `pbem orders new --view` picks the next seq
    offline (the same rule as the report's order form). ``extra`` adds the host's fields per
    power (the game ``instance`` and the fair-chance step, for `pbem orders new|sign`)."""
    def doc(p: str, v: ViewIn) -> ViewIn:
        if not (last_seq and p in last_seq or extra and p in extra):
            return v
        out = {**v, "last_seq": last_seq[p]} if last_seq and p in last_seq else {**v}
        if extra and p in extra:
            out.update(extra[p])
        return out

    if len(views) == 1:
        ((power, view),) = views.items()
        return [("view.json", "application/json",
                 renderer.cache.json(doc(power, view)) + b"\n")]
    return [(f"view-{p}.json", "application/json", renderer.cache.json(doc(p, v)) + b"\n")
            for p, v in views.items()]


def _form_view(view: ViewIn, game: MailFacts) -> dict[str, Any]:
    """The view a presenter writes the pre-filled order form from: the power's view with the
    game ``instance`` (``game["instance"]``, required), as view.json carries it: every order
    file names the instance it is for (docs/protocol.md, "The envelope")."""
    return {**view, "instance": game["instance"]}


def _next_seq(game: MailFacts, power: str) -> int:
    """The seq of ``power``'s pre-filled order form: ``game["seq"]`` per power (the host's
    next seq after the last accepted), or one number for all (1 if not given)."""
    seq = game.get("seq", 1)
    if isinstance(seq, Mapping):
        return int(seq.get(power, 0))
    return int(seq)



def _extras(ctx: Mapping[str, Any]) -> list[Attachment]:
    out = []
    for item in (ctx["game"]["checkpoint"], ctx.get("signature")):
        if item and item["attached"]:
            out.append((item["filename"], "text/plain", (item["text"] + "\n").encode()))
    return out


#: a power id that is a CSS class name as it stands (a letter, then letters, digits, "_" or
#: "-": every id pbem.store.gameconfig accepts); others get no rule rather than an escape
_CSS_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")


def _svg(renderer: Renderer, pres: Presenter, view: ViewIn,
         readers: Sequence[str], title: str,
         shared: Mapping[str, Any] | None = None) -> list[Attachment]:
    """The game's map as the ``map.svg`` attachment, if it has one (``_map``)."""
    return _attached(_map(renderer, pres, view, readers, title, shared))


def _attached(svg: str | None) -> list[Attachment]:
    return [] if svg is None else [("map.svg", "image/svg+xml", svg.encode())]


def _map_into(ctx: Context, renderer: Renderer, pres: Presenter,
              view: ViewIn, readers: Sequence[str], title: str,
              shared: Mapping[str, Any] | None = None) -> list[Attachment]:
    """The game's map for one mail: inline in its HTML part (``ctx["map_svg"]``) and as the
    ``map.svg`` attachment it returns."""
    svg = _map(renderer, pres, view, readers, title, shared)
    ctx["map_svg"] = _inline(svg)
    return _attached(svg)


def _map(renderer: Renderer, pres: Presenter, view: ViewIn,
         readers: Sequence[str], title: str,
         shared: Mapping[str, Any] | None = None) -> str | None:
    """The game's map as SVG for these readers, or None; ``shared``: a report context that
    may hold this view's drawing already.

    Only a CSS rule marks the reader's own pieces, so a drawing is rendered once per
    renderer (one resolution) and drawing, and each reader gets it with its own rule put in.
    The key is the drawing's content by identity: the objects the presenter's
    ``map_context`` returns (a game that draws the common part of the map once per
    resolution hands every reader the same objects: B5's hex map; one that draws per reader
    hands new ones), the title and the turn. The cache holds the drawing, so the identities
    are not reused while it lives, and contexts are never changed once made."""
    drawing = pres.map_context(dict(view), readers, shared)
    if drawing is None:
        return None
    title_turn = (title, view["turn"])
    key = (tuple((k, id(v)) for k, v in drawing.items()), *title_turn)
    hit = renderer.cache.svg.get(key)
    if hit is not None:
        svg = hit[1]
    else:
        ctx = {**drawing, "title": title, "turn": view["turn"], "readers_css": READERS_CSS}
        svg = renderer.render("map.svg", ctx)
        renderer.cache.svg[key] = (drawing, svg)
    css = "".join(f".p-{p}.dot{{stroke-width:2}}.p-{p}.name{{font-weight:bold}}"
                  for p in sorted(readers) if _CSS_NAME.match(p))
    return svg.replace(READERS_CSS, css)


def _inline(svg: str | None) -> Markup | None:
    """The map as an element for the HTML part (the XML declaration dropped): the HTML
    templates show it inline, in a box that scrolls sideways on a narrow screen; the same
    drawing is attached as ``map.svg`` for mail programs that do not show inline SVG."""
    if svg is None:
        return None
    start = _text_after(svg, 0)  # (an index, not a copy: the drawing is copied once)
    if svg.startswith("<?xml", start):
        start = _text_after(svg, svg.index("?>", start) + 2)
    return Markup(svg[start:] if start else svg)  # noqa: S704 - our own template, autoescaped


def _text_after(text: str, start: int) -> int:
    """The index of the first character of ``text`` from ``start`` on that is not white
    space (as ``str.lstrip`` strips it), or its length."""
    while start < len(text) and text[start].isspace():
        start += 1
    return start


def _step_facts(renderer: Renderer, plugin: GamePlugin, state: StateIn, powers: Sequence[str],
                views: Mapping[str, ViewIn]) -> StepFacts:
    """The engine's facts of the step now due, in every game mail's context whatever the
    presenter returns (docs/plugins.md, "Template contexts"): ``turn`` (the turn the next order
    file carries), ``step`` (the next step in the game's words, "" once over), ``over``, and
    ``names`` (the reader's powers, as the mail names them)."""
    turn, step, over = renderer.cache.step(plugin, state)
    return {"turn": turn, "step": step, "over": over,
            "names": [power_name(p, views.get(p)) for p in powers]}


def _power_facts(power: str, view: ViewIn, seq: int, given: Context,
                 **facts: int) -> Context:
    """One power's part of a mail: what the presenter returned, over the engine's defaults
    (``power``, ``name``, ``turn``, ``seq``, ``due``), under the engine's own ``facts`` (a
    report's ``resolved_turn`` and ``missed``), which a presenter cannot contradict."""
    due = view.get("due")
    return {"power": power, "name": power_name(power, view), "turn": view.get("turn"),
            "seq": seq, "due": power in due if isinstance(due, list) else True,
            **given, **facts}


class _ViewLater(Mapping[str, Any]):
    """``renderer.view(plugin, state, power)``, made when first read: the view before a
    resolution that a presenter's ``report`` is handed, which most presenters never read (a
    whole view per reader per resolution for nothing)."""

    def __init__(self, renderer: Renderer, plugin: GamePlugin, state: Mapping[str, Any],
                 power: str) -> None:
        self._args = (renderer, plugin, state, power)
        self._made: Mapping[str, Any] | None = None

    def _view(self) -> Mapping[str, Any]:
        if self._made is None:
            renderer, plugin, state, power = self._args
            self._made = renderer.view(plugin, state, power)
        return self._made

    def __getitem__(self, key: str) -> Any:
        return self._view()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._view())

    def __len__(self) -> int:
        return len(self._view())


# -- the mails ------------------------------------------------------------------------------------
def turn_report(
    renderer: Renderer,
    plugin: GamePlugin,
    state_before: StateIn,
    state_after: StateIn,
    events: Sequence[EventIn],
    powers: Sequence[str],
    player: PlayerInfo,
    game: MailFacts,
) -> RenderedMail:
    """One player's report after a resolution, covering each of ``powers`` (the powers the
    player commands). ``game``: game_id, title, instance (the game instance the pre-filled
    form names), deadline (UTC ISO or None), checkpoint (signed text or None), missed ({power:
    turns missed}), optional seq (of the pre-filled form)."""
    pres = presenter(plugin)
    views = {p: renderer.view(plugin, state_after, p) for p in powers}
    visible = {p: plugin.view_events(list(events), p) for p in powers}
    union = [e for e in events if any(e in visible[p] for p in powers)]
    reports = []
    resolved = plugin.orders_turn(dict(state_before))
    for p in powers:
        before = _ViewLater(renderer, plugin, state_before, p)
        missed = int((game.get("missed") or {}).get(p, 0))
        seq = _next_seq(game, p)
        reports.append(_power_facts(p, views[p], seq, pres.report(
            before, _form_view(views[p], game), readers=list(powers), missed=missed, seq=seq),
            resolved_turn=resolved, missed=missed))
    ctx: Context = {
           **_step_facts(renderer, plugin, state_after, powers, views),
           "game": _game(game, player, plugin), "player": _player(player), "reports": reports,
           "first": reports[0], "resolved_turn": resolved, "readers": list(powers),
           "shared": pres.shared(list(views.values()), union, list(powers)),
           "notes": turn_notes(game, powers, (player or {}).get("tz"))}
    ctx["notes"]["standing"] = _standing_lines(renderer, plugin, state_before, powers, game)
    first = views[powers[0]]
    attachments = _view_attachments(renderer, views, game.get("last_seq"),
                                    game.get("view_extra"))
    # shared() drew the map from the first view for these readers: the SVG reuses it.
    # The map shows the board after the turn the report is for (not the turn now due).
    attachments += _map_into(ctx, renderer, pres, first, powers,
                             f"{ctx['game']['title']} — after turn {resolved}", ctx["shared"])
    attachments += _extras(ctx)
    return renderer.mail("turn_report", ctx, attachments)


def welcome(
    renderer: Renderer,
    plugin: GamePlugin,
    state: StateIn,
    powers: Sequence[str],
    player: PlayerInfo,
    game: MailFacts,
) -> RenderedMail:
    """The first mail: the game, the player's powers, how to submit orders, the deadline
    (``game`` as for ``turn_report``, with its ``instance``)."""
    pres = presenter(plugin)
    views = {p: plugin.view(dict(state), p) for p in powers}
    ctx: Context = {
           **_step_facts(renderer, plugin, state, powers, views),
           "game": _game(game, player, plugin), "player": _player(player),
           "readers": list(powers),
           "powers": [_power_facts(p, v, 0, pres.welcome(_form_view(v, game),
                                                         readers=list(powers)))
                      for p, v in views.items()],
           "variant_title": pres.title(views[powers[0]]),
           "roster": [{**r, "you": r["power"] in powers} for r in game.get("roster") or []],
           "fair_chance": game.get("fair_chance"), "settings": player.get("settings")}
    first = views[powers[0]]
    attachments = _view_attachments(renderer, views, None, game.get("view_extra"))
    attachments += _map_into(ctx, renderer, pres, first, powers,
                             f"{ctx['game']['title']} — start")
    return renderer.mail("welcome", ctx, attachments + _extras(ctx))


def _standing_lines(renderer: Renderer, plugin: GamePlugin, state_before: StateIn,
                    powers: Sequence[str], game: MailFacts) -> list[str]:
    """For each of ``powers`` that played on its standing file (``game["standing"]``,
    pbem.host.notify.turn_facts): which file, and its answers in the game's receipt words."""
    pres = presenter(plugin)
    out = []
    for power, used in (game.get("standing") or {}).items():
        if power not in powers:
            continue
        view = renderer.view(plugin, state_before, power)
        normalized, _ = plugin.normalize_orders(used["orders"], view)
        answers = " ".join(pres.receipt_lines(normalized, view))
        out.append(f"{power_name(power, view)} sent no orders for turn {used['turn']}: the "
                   f"standing file (seq {used['seq']}) was used. Your standing answers: "
                   f"{answers}")
    return out


def receipt(
    renderer: Renderer,
    plugin: GamePlugin,
    state: StateIn,
    power: str,
    orders: Mapping[str, object],
    player: PlayerInfo,
    game: MailFacts,
    *,
    seq: int,
    signature: str | None = None,
    ready: bool = True,
    early: bool = True,
    late: Mapping[str, str] | None = None,
    received: str | None = None,
    chance: str | None = None,
    standing: bool = False,
    seat: str | None = None,
) -> RenderedMail:
    """Accepted orders restated in plain words (from the normalised ``orders`` and the power's
    view), with the referee's signed receipt text ``signature``. It says which promise holds:
    ``ready`` orders let the turn resolve as soon as all are ready (``early``), not-ready ones
    can still be replaced; ``late`` ({deadline, grace_end}) orders came after the deadline
    and are used because the game takes late orders until the run. The power's view is the
    renderer's (Renderer.view: ingest judged the file against the same one). ``chance``: the
    sentence for a file accepted without the power's chance value, if any. ``standing``: a
    standing file (``turn: standing``): the receipt names the standing answers. ``seat``: the
    sentence for a file that took a seat back from autopilot (pbem.host.seats)."""
    pres = presenter(plugin)
    view = renderer.view(plugin, state, power)
    tz = (player or {}).get("tz")
    ctx = {"game": _game(game, player, plugin), "player": _player(player),
           "power": power, "name": power_name(power, view), "turn": view["turn"], "seq": seq,
           "next_seq": seq + 1, "ready": ready, "early": early,
           "late": {"deadline": format_when(late["deadline"], tz),
                    "received": format_when(received, tz)} if late else None,
           "lines": pres.receipt_lines(orders, view), "chance": chance, "standing": standing,
           "seat": seat,
           "signature": keepsake(signature, "receipt.txt")}
    return renderer.mail("receipt", ctx, _extras(ctx))


def rejection(
    renderer: Renderer,
    problems: Sequence[Problem | str],
    player: PlayerInfo,
    game: MailFacts,
    *,
    power: str | None = None,
    turn: int | None = None,
    seq: int | None = None,
) -> RenderedMail:
    """Orders rejected whole: every problem, one per line, with its field path (give the full
    path, e.g. ``orders.depart.ships``)."""
    rows = []
    for p in problems:
        if isinstance(p, Problem):
            rows.append({"path": p.path, "message": p.message, "code": p.code})
        else:
            rows.append({"path": "", "message": str(p), "code": ""})
    ctx = {"game": _game(game, player), "player": _player(player), "problems": rows,
           "power": power or "", "name": power_name(power or ""), "turn": turn, "seq": seq}
    return renderer.mail("rejection", ctx)


def reminder(
    renderer: Renderer,
    plugin: GamePlugin,
    state: StateIn,
    powers: Sequence[str],
    player: PlayerInfo,
    game: MailFacts,
    *,
    late: Mapping[str, Any] | None = None,
) -> RenderedMail:
    """Orders not yet received for ``powers`` before the deadline; with ``late`` ({deadline,
    until, until_run}) the deadline has passed and this is the last call, naming when the
    grace period ends (the passed deadline is never given as the time orders are due)."""
    views = {p: plugin.view(dict(state), p) for p in powers}
    tz = (player or {}).get("tz")
    step = plugin.window(dict(state))  # the step the orders are for, in the game's words
    ctx = {"game": _game(game, player, plugin), "player": _player(player),
           "step": step.label if step is not None else "",
           "powers": [{"power": p, "name": power_name(p, v), "turn": v["turn"],
                       "missed": int((game.get("missed") or {}).get(p, 0))}
                      for p, v in views.items()],
           "late": {"deadline": format_when(late["deadline"], tz),
                    "until": format_when(late["until"], tz),
                    "until_run": bool(late.get("until_run"))} if late else None}
    return renderer.mail("reminder", ctx)


def late_notice(
    renderer: Renderer,
    power: str,
    player: PlayerInfo,
    game: MailFacts,
    *,
    turn: int,
    received: str,
    late: Mapping[str, str] | None = None,
) -> RenderedMail:
    """Orders for ``turn`` arrived (UTC ISO ``received``) after that turn was resolved, or
    (``late``: {deadline, grace_end}) after its deadline plus grace: they were not used;
    standing orders were (or will be)."""
    tz = (player or {}).get("tz")
    ctx = {"game": _game(game, player), "player": _player(player), "power": power,
           "name": power_name(power), "turn": turn,
           "received": format_when(received, tz),
           "late": {"deadline": format_when(late["deadline"], tz),
                    "grace_end": format_when(late["grace_end"], tz),
                    "grace": late["grace_end"] != late["deadline"]} if late else None}
    return renderer.mail("late_notice", ctx)


def superseded(
    renderer: Renderer,
    power: str,
    player: PlayerInfo,
    game: MailFacts,
    *,
    turn: int,
    seq: int,
    newer: int,
    used: bool,
    received: str,
) -> RenderedMail:
    """Orders ``seq`` for ``turn`` arrived (UTC ISO ``received``) after the power's ``newer``
    seq had replaced them (``used``: and their turn has been resolved since): they change nothing,
    and the player did nothing wrong (mail overtakes mail)."""
    tz = (player or {}).get("tz")
    ctx = {"game": _game(game, player), "player": _player(player), "power": power,
           "name": power.capitalize(), "turn": turn, "seq": seq, "newer": newer,
           "used": used, "received": format_when(received, tz)}
    return renderer.mail("superseded", ctx)


def gm_notice(
    renderer: Renderer,
    notice: GmNotice,
    powers: Sequence[Mapping[str, object]],
    player: PlayerInfo,
    game: MailFacts,
    views: Mapping[str, ViewIn] | None = None,
) -> RenderedMail:
    """A game-master operation that changes what the players must do (``notice``: op, time,
    deadline, reason, power, turn), with where each of the player's ``powers`` stands (power,
    name, due, seq of the orders in or None, ready). ``views``: attached (the new player of a
    replaced power gets his view, to write orders before his first report)."""
    tz = (player or {}).get("tz")
    ctx = {"game": _game(game, player), "player": _player(player), "notice": dict(notice),
           "line": notice_line(notice, tz), "powers": list(powers),
           "paused": bool(game.get("paused")), "over": bool(game.get("over")),
           "subject_when": (format_when(notice.get("deadline"), None) or {}).get("utc", "")}
    attachments = (_view_attachments(renderer, views, game.get("last_seq"),
                                     game.get("view_extra"))
                   if views else [])
    return renderer.mail("gm_notice", ctx, attachments)


def gm_summary(
    renderer: Renderer,
    plugin: GamePlugin,
    state_before: StateIn,
    state_after: StateIn,
    events: Sequence[EventIn],
    game: MailFacts,
) -> RenderedMail:
    """The referee's summary: the whole state and every event, private ones marked; the state
    and events are attached as JSON. The only mail that contains everything."""
    pres = presenter(plugin)
    state = dict(state_after)
    public = renderer.view(plugin, state_after, None)
    powers = list(public["powers"])
    views = {p: renderer.view(plugin, state_after, p) for p in powers}
    secrets = {p: plugin.secrets(state, p) for p in powers}
    ctx: Context = {
           **_step_facts(renderer, plugin, state_after, powers, views),
           "game": _game(game, None, plugin), "player": _player(None), "readers": [],
           "resolved_turn": plugin.orders_turn(dict(state_before)),
           "missed": {power_name(p, public): n for p, n in (game.get("missed") or {}).items()},
           "press": {power_name(p, public): n for p, n in (game.get("press") or {}).items()},
           "missed_now": gm_missed_lines(game.get("nmr") or {}),
           "gm": pres.gm(public, views, list(events), secrets)}
    attachments: list[Attachment] = [
        ("state.json", "application/json", renderer.cache.state_json(state_after) + b"\n"),
        ("events.json", "application/json", _json(list(events))),
        # the summary's own context may hold the drawing already: the map is drawn once
        *_map_into(ctx, renderer, pres, public, [],
                   f"{ctx['game']['title']} — after turn {ctx['resolved_turn']}", ctx["gm"]),
    ]
    return renderer.mail("gm_summary", ctx, attachments + _extras(ctx))


def game_end(
    renderer: Renderer,
    plugin: GamePlugin,
    state: StateIn,
    events: Sequence[EventIn],
    powers: Sequence[str],
    player: PlayerInfo,
    game: MailFacts,
    reveal: Sequence[Mapping[str, object]],
) -> RenderedMail:
    """The last mail: the result, the last turn's events and the full reveal (``reveal``: the
    rows the presenter's ``reveal`` made from the log)."""
    pres = presenter(plugin)
    views = {p: renderer.view(plugin, state, p) for p in powers}
    first = views[powers[0]]
    seen = {p: plugin.view_events(list(events), p) for p in powers}
    visible = [e for e in events if any(e in seen[p] for p in powers)]
    ctx: Context = {**_step_facts(renderer, plugin, state, powers, views),
                           "game": _game(game, player, plugin), "player": _player(player),
                           "readers": list(powers),
                           **pres.game_end(first, visible, list(powers), reveal)}
    attachments = _view_attachments(renderer, views)
    attachments += _map_into(ctx, renderer, pres, first, powers,
                             f"{ctx['game']['title']} — final")
    attachments.append(("reveal.json", "application/json", _json(list(reveal))))
    return renderer.mail("game_end", ctx, attachments + _extras(ctx))


def html_only_reply(
    renderer: Renderer,
    player: PlayerInfo,
    game: MailFacts,
    *,
    subject: str = "",
) -> RenderedMail:
    """A mail with no plain-text part was not read: ask for the signed block as plain text."""
    ctx = {"game": _game(game, player), "player": _player(player), "original": subject}
    return renderer.mail("html_only_reply", ctx)


def no_orders_reply(
    renderer: Renderer,
    player: PlayerInfo,
    game: MailFacts,
    *,
    subject: str = "",
    notes: Sequence[str] = (),
) -> RenderedMail:
    """A registered player's mail held no signed order block (unsigned orders, a zip, an empty
    message): say so, and what was seen, so the player is never left wondering."""
    ctx = {"game": _game(game, player), "player": _player(player), "original": subject,
           "notes": list(notes)}
    return renderer.mail("no_orders_reply", ctx)

