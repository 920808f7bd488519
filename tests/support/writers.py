"""What the tests of a game's writers (docs/plugins.md, "Writers") share: a renderer that
renders every template through Jinja, the check that the writers fit the bundled templates,
whole mails of played games rendered both ways, a renderer that keeps the contexts it
renders (for the branches), and the notes and deadlines the templates branch on."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.game.plugin import GamePlugin
from pbem.render import mails, plain
from pbem.render.environment import RenderedMail, Renderer, format_when

Resolution = tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]


def jinja_renderer(game: str, writers: Mapping[str, Any]) -> Renderer:
    """A renderer of ``game`` that renders every template through Jinja."""
    renderer = Renderer(game)
    renderer._plain = dict.fromkeys(writers, False)
    return renderer


def assert_writers_fit(game: str, writers: Mapping[str, Any], module: str) -> None:
    """Each writer's sources, as a renderer of ``game`` loads them, have its digest."""
    renderer = Renderer(game)
    for name, (_, sources, digest) in writers.items():
        assert plain.sources_digest(sources, renderer.search_path) == digest, (
            f"{name} or a template it uses changed: make {module} write it as the templates "
            "do, then put the new sources_digest in WRITERS")
        assert plain.fits(name, renderer.search_path, writers)


def same_both_ways(plugin: GamePlugin, resolutions: Sequence[Resolution],
                   facts: Callable[[int, str], tuple[dict[str, Any], dict[str, Any]]]) -> int:
    """Every reader's report (one power, two, all in reverse) and the game master's summary of
    each resolution, rendered with the writers and through Jinja, compared whole; ``facts``
    gives the game's facts and the player of each resolution's index. Returns the mails
    compared."""
    writers = plugin.presenter.writers  # type: ignore[attr-defined]
    count = 0
    for index, (before, after, events) in enumerate(resolutions):
        powers = list(after["powers"])
        game = facts(index, powers[0])[0]
        made: list[list[RenderedMail]] = []
        for renderer in (Renderer(plugin.id), jinja_renderer(plugin.id, writers)):
            out = [mails.turn_report(renderer, plugin, before, after, events, readers,
                                     facts(index, readers[0])[1], game)
                   for readers in [[p] for p in powers] + [powers[:2], powers[::-1]]]
            out.append(mails.gm_summary(renderer, plugin, before, after, events, game))
            made.append(out)
        assert made[0] == made[1]
        count += len(made[0])
    return count


class Keeping(Renderer):
    """A renderer that keeps the context of each turn report (``kept``), game master's
    summary (``gms``) and map (``maps``) it renders."""

    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.kept: list[dict[str, Any]] = []
        self.gms: list[dict[str, Any]] = []
        self.maps: list[dict[str, Any]] = []

    def render(self, name: str, context: Any) -> str:
        if name == "map.svg":
            self.maps.append(dict(context))
        return super().render(name, context)

    def mail(self, name: str, context: Any, attachments: Any = ()) -> RenderedMail:
        if name == "turn_report":
            self.kept.append(dict(context))
        if name == "gm_summary":
            self.gms.append(dict(context))
        return super().mail(name, context, attachments)


def varied_notes(notes: Mapping[str, Any], i: int) -> dict[str, Any]:
    """The turn notes with the keys of ``notes`` that bits of ``i`` choose, the rest empty."""
    keys = [k for bit, k in enumerate(notes) if i >> bit & 1]
    return {"gm": [], "missed": [], "order": [], "chance": {}, "earlier": [], "standing": [],
            **{k: notes[k] for k in keys}}


def varied_deadline(i: int) -> Any:
    """No deadline, one with a reader's local time, or one in UTC alone, by ``i``."""
    return [None, format_when("2026-12-02T18:00:00Z", "Asia/Tokyo"),
            format_when("2026-12-02T18:00:00Z")][i % 3]


def overridden(game: str, writers: Mapping[str, Any], folder: Path, source: str) -> Renderer:
    """A renderer of the game directory ``folder`` whose ``templates/`` holds its own copy of
    ``source`` (the bundled one with a line "Our own words." added): the writers written from
    that source no longer fit, every other one still does."""
    bundled = Renderer(game)
    original = next(Path(p) / source for p in bundled.search_path if (Path(p) / source).is_file())
    (folder / "templates").mkdir()
    shutil.copy(original, folder / "templates" / source)
    with (folder / "templates" / source).open("a", encoding="utf-8") as f:
        f.write("Our own words.\n")
    renderer = Renderer(game, folder)
    changed = [n for n, (_, sources, _d) in writers.items() if source in sources]
    assert changed
    for name in writers:
        assert plain.fits(name, renderer.search_path, writers) is (name not in changed)
    return renderer


def same_branches(writers: Mapping[str, Any], jinja: Renderer,
                  contexts: Sequence[dict[str, Any]], varied: Callable[[dict[str, Any], int],
                                                                       dict[str, Any]],
                  choices: Callable[[int], Iterable[int]], mail: str = "turn_report") -> int:
    """Each context, varied by each of ``choices(n)``, written by the writers and rendered by
    Jinja: the subject, the text and the HTML of ``mail`` (a turn report, or ``gm_summary``)
    the same. Returns the renderings compared."""
    checked = 0
    for n, ctx in enumerate(contexts):
        for i in choices(n):
            ctx_i = varied(ctx, i)
            subject = plain.render(f"{mail}.subject.txt", ctx_i, writers)
            assert subject == jinja.render(f"{mail}.subject.txt", ctx_i)
            ctx_i["subject"] = " ".join(subject.split())
            for name in (f"{mail}.txt", f"{mail}.html"):
                assert plain.render(name, ctx_i, writers) == jinja.render(name, ctx_i), (name, i)
                checked += 1
    return checked
