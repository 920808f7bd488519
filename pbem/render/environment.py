"""The Jinja environment every mail is rendered in: where templates are looked up (the game
directory's ``templates/``, the game package's, pbem's bundled ``templates/<game>/``, then
``templates/common/``), the filters (``para`` wraps to 79 columns), times for readers
(``format_when``), signed text kept whole (``keepsake``), the game's declared presenter, and the
rendered mail (subject, text, HTML, attachments). pbem.render.mails builds each mail's context
on top of it."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from pbem import lazy
from pbem.errors import PbemError
from pbem.game import registry
from pbem.game.plugin import GamePlugin
from pbem.game.presentation import Presenter
from pbem.render.cache import RenderCache
from pbem.render.marks import for_readers, mark
from pbem.resources import templates_root
from pbem.store.checkpoint import Checkpoint, CheckpointError

if TYPE_CHECKING:
    import zoneinfo

    from pbem.game.shapes import GameView, Keepsake, StateIn, ViewIn, When
else:
    zoneinfo = lazy.module("zoneinfo")  # (a game with a local time zone only)

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
    text = str(text)
    first = pad if first is None else first
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
    summary = ""
    if "pbem-checkpoint" in text:
        try:
            cp = Checkpoint.parse(text)
            summary = f"log {cp.length} entries, head {cp.head[:4]}…{cp.head[-2:]}"
        except CheckpointError:
            summary = ""
    return {"text": text.rstrip("\n"), "lines": lines if fits else [], "attached": not fits,
            "filename": filename, "summary": summary}


_DICT_ATTRIBUTES = frozenset(dir(dict))


class DictFirstEnvironment(jinja2.Environment):
    """Jinja's ``x.y`` looks the key up first when ``x`` is a plain dict (what every presenter
    hands the templates) and ``y`` is not an attribute of dicts.

    Stock Jinja tries ``getattr`` first: on a dict that fails with an ``AttributeError`` on
    every lookup before the subscript is tried, which doubled the cost of the HTML templates
    (thousands of lookups per game-turn). The result is the same as stock Jinja's: a name a
    dict has as an attribute (``items``, ``get``, ...) takes the stock path (attribute
    first), and for any other name ``getattr`` would fail anyway, so the key is what stock
    Jinja returns too; a missing key falls back to the stock lookup (and its Undefined)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain dict (the environment's, overlaid by the
        template's own), not Jinja's ``ChainMap`` of the two: every render copies them into
        its context and takes their keys, and each ``{% import %}`` compares keys with them,
        which through a ``ChainMap`` cost more than the small receipt templates themselves.
        The environment's globals are never changed after it is made (``_environment``), so
        the copy sees the same names; a change to a template's globals stays in that
        template, as with the ``ChainMap``."""
        return {**self.globals, **(d or {})}


@functools.lru_cache(maxsize=64)
def _environment(paths: tuple[str, ...]) -> jinja2.Environment:
    """One Jinja environment per search path, shared by every game that uses it, so each
    template is compiled once per process rather than once per mail (a cron job renders
    thousands of mails)."""
    env = DictFirstEnvironment(
        loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(p) for p in paths]),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html", "xml", "svg"), disabled_extensions=("txt",),
            default_for_string=False, default=False,
        ),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # A template is read once per process: every cron run and ingest is a new process,
        # and re-checking each template file's mtime on every lookup (each include of
        # every mail) cost a stat per lookup, ~90 per game-turn.
        auto_reload=False,
    )
    env.filters["para"] = para
    env.filters["for_readers"] = for_readers
    env.globals["mark"] = mark
    env.filters["short"] = lambda s, n=8: f"{s[:n]}…" if s else ""
    return env


# -- the renderer ---------------------------------------------------------------------------------
class Renderer:
    """A Jinja environment for one game: per-game-directory overrides, then the game's templates,
    then the common ones. Autoescape for .html/.xml/.svg only; StrictUndefined."""

    def __init__(self, game_id: str, game_dir: Path | None = None) -> None:
        self.game_id = game_id
        root = templates_root()
        try:
            own = registry.template_dirs(game_id)
        except registry.UnknownGame:
            own = [root / game_id]
        paths = [*own, root / "common"]
        if game_dir is not None and (Path(game_dir) / "templates").is_dir():
            paths.insert(0, Path(game_dir) / "templates")
        self.search_path = paths
        self.env = _environment(tuple(str(p) for p in paths))
        self.cache = RenderCache()  # the one cache of this renderer's life (pbem.render.cache)

    def has_template(self, name: str) -> bool:
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

    def render(self, name: str, context: Mapping[str, object]) -> str:
        """The template ``name`` rendered with ``context``; templates may call ``once``
        (``Renderer.once``)."""
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
        its marks (pbem.render.marks): ``{{ once("_part.html", x=...) | for_readers(readers)
        }}``. The cache holds the context, so identities are not reused while it lives."""
        kept = self.cache.parts.setdefault(name, [])
        for seen, text in kept:
            if seen.keys() == context.keys() and all(
                    v is context[k] or v == context[k] for k, v in seen.items()):
                return text
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


