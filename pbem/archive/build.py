"""Writing the archive of one export: the summary page, a page per step, and the export itself.

The site holds only what the export holds. The export is audited first (a failing export
makes no archive), then replayed (pbem.archive.steps) and each step shown through its public
view and public events; the export's own bytes are embedded in the summary page so the browser
can re-check the chain. A full export of a game still running holds every order file (secret
destinations, nonces, escrow), so it is refused: a running game's archive is built --public.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from pbem import __version__, atomic
from pbem.archive.chart import line_chart
from pbem.archive.hooks import Hooks, Numbers, hooks_for
from pbem.archive.steps import Step, replay_steps
from pbem.audit import audit_bytes, verified_records
from pbem.audit.verify import components_beside
from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.game.shapes import GameState

ASSETS = Path(__file__).resolve().parent / "assets"
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:; base-uri 'none'; form-action 'none'")
"""Every page's Content-Security-Policy: inline style and script only, so the browser itself
refuses any request (to the network or to another file) the page might make."""


class ArchiveError(PbemError):
    """The archive cannot be written from this export."""


@dataclass(frozen=True)
class ArchiveSummary:
    index: Path
    steps: int
    public: bool


def page_name(index: int) -> str:
    return f"step-{index:03d}.html"


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(ASSETS)), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True)


def build_archive(data: bytes, source: str, out: Path | str, *,
                  public_only: bool = False) -> ArchiveSummary:
    """Write the archive of the export ``data`` (named ``source`` in messages) into ``out``;
    ``public_only``: refuse a full export."""
    out = Path(out)
    records, exp = verified_records(data, source)
    if exp.header is None:
        raise ArchiveError(f"{source} is a bare log, not an export: run pbem export first, so "
                           "the archive carries the referee's signed header")
    report = audit_bytes(data, source)
    tally = report.tally
    public = exp.header.public
    if public_only and not public:
        raise ArchiveError(f"{source} is a full export, not a public one (make one with pbem "
                           "export --public)")
    if not public and not tally.over:
        raise ArchiveError(f"{source} is a full export of a game still running: its archive "
                           "would publish every order file (destinations, nonces, escrow); "
                           "build it with --public, or from a public export")
    plugin, steps = replay_steps(records, components_beside(source))
    hooks = hooks_for(plugin.id)
    first_view = steps[0].view
    colours = hooks.colours(first_view, tally.powers)
    numbers = [hooks.summary(s.view, s.events) if s.view is not None else None for s in steps]
    result = next((line[len("result: "):] for line in report.lines()
                   if line.startswith("result: ")), None)
    if result is None:
        result = ("not in a public export: the state after the first resolution is withheld "
                  "(the public events of each step are shown)")
    turns = sorted({s.turn for s in steps if s.turn is not None})
    length = (f"{len(turns)} turns ({turns[0]}–{turns[-1]}), {len(steps)} steps, "
              f"{len(records)} log entries" if turns else f"{len(steps)} steps")
    common: dict[str, Any] = {
        "csp": CSP, "css": _asset("site.css"), "steps_js": _asset("steps.js"),
        "game": tally.game, "plugin_id": plugin.id, "plugin_title": plugin.title,
        "variant": tally.variant, "variant_title": tally.variant_title, "powers": tally.powers,
        "public": public, "steps": steps, "page": page_name, "version": __version__,
        "entries": len(records), "colours": colours,
    }
    env = _env()
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("step-*.html"):
        old.unlink()
    before = None
    for step, nums in zip(steps, numbers, strict=True):
        atomic.write_bytes(out / page_name(step.index),
                           _step_page(env, common, hooks, step, nums, before).encode())
        before = step.view if step.view is not None else before
    index = env.get_template("index.html.j2").render(
        **common, here=-1, page_title="Summary", result=result, length=length,
        charts=_charts(steps, numbers, colours),
        last_numbers=next((n for n in reversed(numbers) if n), None),
        verdict=report.lines(), checkpoint=exp.header.checkpoint.text().strip(),
        verify_js=_asset("verify.js"), export_b64=base64.b64encode(data).decode())
    atomic.write_bytes(out / "export.jsonl", data)
    atomic.write_bytes(out / "index.html", index.encode())
    return ArchiveSummary(out / "index.html", len(steps), public)


def _step_page(env: jinja2.Environment, common: dict[str, Any], hooks: Hooks, step: Step,
               nums: Numbers | None, before: GameState | None) -> str:
    svg = hooks.map(before, step.view, step.events) if step.view is not None else None
    caption = (f"The map after {step.title}, drawn by the game from the public view only; "
               "each item's description shows when pointed at.")
    return str(env.get_template("step.html.j2").render(
        **common, here=step.index, page_title=step.title, map=svg, map_caption=caption,
        sentences=[hooks.event(e, step.view) for e in step.events], numbers=nums))


def _charts(steps: list[Step], numbers: list[Numbers | None],
            colours: dict[str, str]) -> list[dict[str, str]]:
    keys: list[str] = []
    for nums in numbers:
        for row in (nums or {}).values():
            keys += [k for k in row if k not in keys]
    powers = [p for p in colours]
    labels = ["start" if s.turn is None and s.index == 0 else
              (f"T{s.turn}" if s.turn is not None else "gm") for s in steps]
    charts = []
    for key in keys[:2]:
        series = {p: [(n.get(p) or {}).get(key) if n else None for n in numbers] for p in powers}
        title = f"{key.replace('_', ' ').capitalize()} of each power at each step"
        charts.append({"svg": line_chart(title, series, colours, labels),
                       "caption": f"{title} (from the public view; the table below gives the "
                                  "last numbers)."})
    return charts


def _asset(name: str) -> str:
    text = (ASSETS / name).read_text(encoding="utf-8")
    if "</script" in text.lower() or "</style" in text.lower():
        raise ArchiveError(f"asset {name} must not close its own element")
    return text

