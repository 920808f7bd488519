"""The Jinja environment every mail is rendered in: where templates are looked up (the game
directory's ``templates/``, the game package's, pbem's bundled ``templates/<game>/``, then
``templates/common/``), the filters (``para`` wraps to 79 columns), times for readers
(``format_when``), signed text kept whole (``keepsake``), the game's declared presenter, and the
rendered mail (subject, text, HTML, attachments). pbem.render.mails builds each mail's context
on top of it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import lazy
from pbem.errors import PbemError
from pbem.game import registry
from pbem.game.plugin import GamePlugin
from pbem.game.presentation import Presenter
from pbem.render.cache import RenderCache
from pbem.resources import templates_root
from pbem.store.checkpoint import Checkpoint, CheckpointError

if TYPE_CHECKING:
    import textwrap
    import zoneinfo

    import jinja2
    from markupsafe import Markup

    from pbem.game.shapes import GameView, Keepsake, StateIn, ViewIn, When
else:
    zoneinfo = lazy.module("zoneinfo")  # (a game with a local time zone only)
    textwrap = lazy.module("textwrap")  # (only for text _fill_plain leaves to it)

Attachment = tuple[str, str, bytes]  # (filename, mime type, content)
TEXT_WIDTH = 80
PARTS_KEPT = 8  # contexts of one partial that Renderer.once keeps (readers of one resolution)


class RenderError(PbemError):
    """A template is missing or failed (StrictUndefined: a missing value fails loudly)."""


@dataclass(frozen=True, slots=True)
class RenderedMail:
    subject: str
    text: str
    html: str
    attachments: list[Attachment] = field(default_factory=list)


# -- text helpers used as Jinja filters ----------------------------------------------------------
def para(text: str, indent: int | str = 0, first: str | None = None,
         width: int = TEXT_WIDTH - 1) -> str:
    """Wrap ``text`` to ``width`` columns; later lines indented by ``indent`` (spaces or text),
    the first by ``first`` (default: the same). Long unbreakable words are broken."""
    pad = " " * indent if isinstance(indent, int) else indent
    return _wrapped(str(text), width, pad if first is None else first, pad)


@functools.lru_cache(maxsize=512)
def _wrapped(text: str, width: int, first: str, pad: str) -> str:
    """``para``'s lines, once per text and layout while they are recent: the reports of one
    resolution wrap many of the same sentences (the events, the deadline, the threats)."""
    lines = _fill_plain(text, width, first, pad)
    if lines is not None:
        return lines
    return textwrap.fill(text, width=width, initial_indent=first, subsequent_indent=pad,
                         break_on_hyphens=False)


def _fill_plain(text: str, width: int, first: str, pad: str) -> str | None:
    """``textwrap.fill`` (``break_on_hyphens=False``) of words between single spaces, each word
    fitting on any line; None for any other text (whitespace runs, other whitespace, control
    characters, leading or trailing spaces, a word too long), which textwrap itself wraps.
    textwrap splits into word and space chunks and fills greedily, dropping the spaces at line
    ends: for such text that is exactly a greedy fill of the words, at a fraction of the cost
    (the templates wrap every sentence; tests/engine/render/test_render_para.py compares the
    two)."""
    # isprintable: no tab, newline or other whitespace but the space (textwrap turns some into
    # spaces and drops the words str.strip() empties at line ends), no control character.
    if (not text or text[0] == " " or text[-1] == " " or "  " in text
            or not text.isprintable()):
        return None
    words = text.split(" ")
    if max(map(len, words)) > width - max(len(first), len(pad)):
        return None
    lines = []
    line: list[str] = []
    indent, room = first, width - len(first)
    used = -1  # the length of the line so far, counting the space before its next word
    for word in words:
        if line and used + 1 + len(word) > room:
            lines.append(indent + " ".join(line))
            line, indent, room, used = [], pad, width - len(pad), -1
        line.append(word)
        used += 1 + len(word)
    lines.append(indent + " ".join(line))
    return "\n".join(lines)


def power_name(power: str, view: ViewIn | None = None) -> str:
    """A power as players read it: its title in the view where the game gives one
    (``view["powers"][power]["title"]``: "Earth Alliance"), else its name's words capitalised
    ("earth-alliance" -> "Earth Alliance", "pavo" -> "Pavo")."""
    powers = (view or {}).get("powers")
    if isinstance(powers, Mapping):
        info = powers.get(power)
        if isinstance(info, Mapping) and isinstance(info.get("title"), str) and info["title"]:
            return str(info["title"])
    return " ".join(w.capitalize() for w in str(power).replace("_", "-").split("-") if w)


def format_when(iso: str | None, tz: str | None = None) -> When | None:
    """A UTC ISO deadline as "Wed 2 Dec 2026 18:00 UTC" and, if ``tz`` is set, in that zone."""
    if not iso:
        return None
    return _when(iso, tz).copy()  # each caller its own (it goes into a mail's context)


@functools.lru_cache(maxsize=64)
def _when(iso: str, tz: str | None) -> When:
    """``format_when``, once per deadline and zone while they are recent: every report of a
    resolution gives the same deadline, each in its reader's zone."""
    when = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(UTC)
    out: When = {"iso": iso, "utc": when.strftime("%a %-d %b %Y %H:%M UTC"), "local": "", "tz": ""}
    if tz:
        try:
            zone = zoneinfo.ZoneInfo(tz)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return out
        local = when.astimezone(zone)
        same_day = local.date() == when.date()
        out["local"] = local.strftime("%H:%M" if same_day else "%a %-d %b %H:%M") + f" {tz}"
        out["tz"] = tz
    return out


def keepsake(text: str | None, filename: str) -> Keepsake | None:
    """Signed text the player should keep (checkpoint, receipt signature): shown in the text part
    if every line fits, otherwise attached as ``filename`` (its tokens must not be broken)."""
    if not text:
        return None
    lines = text.rstrip("\n").splitlines()
    fits = all(len(line) <= TEXT_WIDTH - 2 for line in lines)
    return {"text": text.rstrip("\n"), "lines": lines if fits else [], "attached": not fits,
            "filename": filename, "summary": _summary(text)}


@functools.lru_cache(maxsize=16)
def _summary(text: str) -> str:
    """A checkpoint's length and head in words ("" for other text), once per text while it is
    recent: every mail of a resolution carries the same checkpoint."""
    if "pbem-checkpoint" not in text:
        return ""
    try:
        cp = Checkpoint.parse(text)
    except CheckpointError:
        return ""
    return f"log {cp.length} entries, head {cp.head[:4]}…{cp.head[-2:]}"


# -- the renderer ---------------------------------------------------------------------------------
#: (template name, game, the search path) -> whether pbem.render.plain writes it, for search
#: paths of the templates installed with pbem and the games only: a process reads those once,
#: as its Jinja environment does (auto_reload off: pbem.render.jinjaenv), so their digests are
#: taken once per process, not once per renderer (~250 us a game-turn).
_BUNDLED_FITS: dict[tuple[str, tuple[str, ...]], bool] = {}


class Renderer:
    """A Jinja environment for one game: per-game-directory overrides, then the game's templates,
    then the common ones. Autoescape for .html/.xml/.svg only; StrictUndefined.

    The environment (``env``, pbem.render.jinjaenv) is made when a template is first rendered
    from it: a template pbem.render.plain writes without Jinja (the receipt), or the game's
    presenter does (its ``writers``: 4000 A.D.'s turn report), renders without it while its
    sources are the ones the writer was written from. ``on_env`` (set by the caller)
    is called with the environment when it is made (pbem.host.opengames gives it the root's
    cache of compiled templates)."""

    def __init__(self, game_id: str, game_dir: Path | None = None) -> None:
        self.game_id = game_id
        root = templates_root()
        try:
            own = registry.template_dirs(game_id)
        except registry.UnknownGame:
            own = [root / game_id]
        paths = [*own, root / "common"]
        # Only the templates installed with pbem and the games (no game directory's own):
        # whether plain writes a template is then known once per process (_BUNDLED_FITS).
        self._bundled: tuple[str, ...] | None = (game_id, *map(str, paths))
        if game_dir is not None and (Path(game_dir) / "templates").is_dir():
            paths.insert(0, Path(game_dir) / "templates")
            self._bundled = None
        self.search_path = paths
        self.cache = RenderCache()  # the one cache of this renderer's life (pbem.render.cache)
        self.on_env: Callable[[jinja2.Environment], None] | None = None
        self._plain: dict[str, bool] = {}
        self._writers: Mapping[str, Any] | None = None

    @cached_property
    def env(self) -> jinja2.Environment:
        from pbem.render.jinjaenv import environment

        env = environment(tuple(str(p) for p in self.search_path))
        if self.on_env is not None:
            self.on_env(env)
        return env

    def has_template(self, name: str) -> bool:
        import jinja2

        try:
            self.env.get_template(name)
        except jinja2.TemplateNotFound:
            return False
        return True

    def view(self, plugin: GamePlugin, state: StateIn,
             power: str | None) -> GameView:
        """``plugin.view(state, power)``, computed once per state object and power while this
        renderer lives (one game's visit): a resolution's reports, the game master's summary
        and the order check all ask for the same few views (pbem.render.cache)."""
        return self.cache.view(plugin, state, power)

    def _plain_fits(self, name: str) -> bool:
        """Whether pbem.render.plain, or a writer of the game's presenter, writes ``name``
        exactly as its templates here would."""
        from pbem.render import plain  # (it writes with this module's filters)

        fits = self._plain.get(name)
        if fits is None:
            writers = self._writers_of(name)
            known = None if self._bundled is None else (name, self._bundled)
            fits = None if known is None else _BUNDLED_FITS.get(known)
            if fits is None:
                fits = plain.fits(name, self.search_path, writers)
                if known is not None:
                    _BUNDLED_FITS[known] = fits
            self._plain[name] = fits
        return fits

    def _writers_of(self, name: str) -> Mapping[str, Any]:
        """The writers that may write ``name``: pbem's own (the receipt's), else the game's
        (whose presenter is loaded only for a name pbem does not write)."""
        from pbem.render import plain

        return plain.WRITERS if name in plain.WRITERS else self.game_writers()

    def game_writers(self) -> Mapping[str, Any]:
        """The game's presenter's ``writers`` (pbem.game.partials.Writer by template name; none
        for a game that declares none or an unknown game), asked once per renderer."""
        if self._writers is None:
            try:
                pres = getattr(registry.load(self.game_id), "presenter", None)
            except registry.UnknownGame:
                pres = None
            self._writers = dict(getattr(pres, "writers", None) or {})
        return self._writers

    def render(self, name: str, context: Mapping[str, object]) -> str:
        """The template ``name`` rendered with ``context``; templates may call ``once``
        (``Renderer.once``)."""
        if self._plain_fits(name):
            from pbem.render import plain

            return plain.render(name, context, self._writers_of(name))
        import jinja2

        try:
            return self.env.get_template(name).render({"once": self.once, **context})
        except jinja2.TemplateNotFound as exc:
            where = ", ".join(str(p) for p in self.search_path)
            raise RenderError(f"no template {exc.name!r} (looked in {where})") from None
        except jinja2.UndefinedError as exc:
            raise RenderError(f"template {name}: {exc.message}") from None

    def once(self, name: str, **context: Any) -> Markup:
        """The partial ``name`` rendered from ``context`` alone, once per renderer (one
        resolution) and context: a later call with equal values (compared by identity first,
        then ``==``) gets the same text. For a part that is the same for every reader but for
        its marks (pbem.game.marks): ``{{ once("_part.html", x=...) | for_readers(readers)
        }}``. The cache holds the context, so identities are not reused while it lives."""
        kept = self.cache.parts.setdefault(name, [])
        for seen, text in kept:
            if seen.keys() == context.keys() and all(
                    v is context[k] or v == context[k] for k, v in seen.items()):
                return text
        from markupsafe import Markup  # (as jinja2: only where a template is rendered)

        text = Markup(self.render(name, context))  # noqa: S704 - our template, autoescaped
        if len(kept) >= PARTS_KEPT:
            del kept[0]
        kept.append((context, text))
        return text

    def mail(self, name: str, context: Mapping[str, object],
             attachments: Sequence[Attachment] = ()) -> RenderedMail:
        subject = " ".join(self.render(f"{name}.subject.txt", context).split())
        context = {**context, "subject": subject}
        text = self.render(f"{name}.txt", context)
        text = "\n".join(line if line == "-- " else line.rstrip()
                         for line in text.splitlines()).strip("\n") + "\n"
        html = self.render(f"{name}.html", context)
        return RenderedMail(subject, text, html, list(attachments))


def presenter(plugin: GamePlugin) -> Presenter:
    """The game's declared presenter (checked when the game was loaded)."""
    pres: Presenter | None = getattr(plugin, "presenter", None)
    if pres is None:
        raise RenderError(f"game {plugin.id!r} declares no presenter: it cannot render reports")
    return pres


