"""One step of each bundled game, resolved, rendered and composed in process: what the cron
job's render and compose cost per game, beside each other and beside the game-turn floor.

Each game is played on standing orders (``default_orders``) with the practice chance to step
``PBEM_BENCH_STEP`` (default 14), then that step is timed: resolve, every power's report and
the game master's summary rendered and composed into wire bytes, with a fresh renderer each
time (as one cron visit has). No disk: the durable writes are bench_turnjob's run lines. CPU
time (``time.process_time``), the games taken in turn (a, b, c, a, ...), medians: a shared
machine's load then reaches every game alike.
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pbem.game import registry
from pbem.game.plugin import GamePlugin
from pbem.game.practice import PracticeChance
from pbem.mail.compose import Attachment, compose_wire
from pbem.render import mails

NOW = datetime(2026, 12, 1, tzinfo=UTC)
GAMES = {"4000ad": "independents-4", "b5cgs": "basic-4", "ashes": "rounds-4", "ti4": "small-4"}


@dataclass
class Step:
    plugin: GamePlugin
    before: dict[str, Any]
    orders: dict[str, Any]
    index: int


def reach(game: str, variant: str, steps: int) -> Step:
    """The game on standing orders up to step ``steps`` (or its last step before the end)."""
    plugin = registry.load(game)
    state = plugin.setup(variant, {"game_id": f"bench-{game}"})
    step = Step(plugin, state, {}, 0)
    for i in range(steps):
        orders = {p: plugin.default_orders(state, p) for p in plugin.powers_due(state)}
        step = Step(plugin, state, orders, i)
        after = plugin.resolve(json.loads(json.dumps(state)), orders,
                               PracticeChance(game, f"bench-{game}", i)).state
        if plugin.is_over(after):
            break
        state = after
    return step


_RUNS = itertools.count()


def once(step: Step) -> int:
    """Resolve the step, render and compose its mails; the bytes of mail it made. Each call
    resolves it as another game (its own ``game_id``), so nothing a presenter caches by what
    it drew from (B5's shared part) is found from an earlier call: every call draws what one
    resolution of a cron run draws."""
    plugin = step.plugin
    before = {**json.loads(json.dumps(step.before)), "game_id": f"bench-{next(_RUNS)}"}
    result = plugin.resolve(before, step.orders,
                            PracticeChance(plugin.id, f"bench-{plugin.id}", step.index))
    renderer = mails.Renderer(plugin.id)
    game_id = f"bench-{plugin.id}"
    game: dict[str, Any] = {"game_id": game_id, "title": "Bench", "deadline": None,
            "checkpoint": None, "missed": {}, "instance": "0" * 32}
    made = []
    for power in renderer.view(plugin, result.state, None)["powers"]:
        made.append(mails.turn_report(renderer, plugin, before, result.state,
                                      result.events, [power],
                                      {"name": power, "email": f"{power}@example.org"}, game))
    made.append(mails.gm_summary(renderer, plugin, before, result.state, result.events,
                                 game))
    size = 0
    for mail in made:
        size += len(compose_wire(
            sender="referee@example.org", to="player@example.org", subject=mail.subject,
            text=mail.text, html=mail.html, date=NOW, domain="example.org",
            auto_submitted="auto-generated", game=game_id,
            attachments=[Attachment(n, d, *t.split("/", 1)) for n, t, d in mail.attachments],
        ).raw)
    return size


def measure(repeat: int | None = None) -> dict[str, dict[str, float]]:
    """Per game: the median CPU ms of one step (``ms``) and its bytes of mail (``bytes``)."""
    repeat = repeat or int(os.environ.get("PBEM_BENCH_STEP_REPEAT", "9"))
    count = int(os.environ.get("PBEM_BENCH_STEP", "14"))
    steps = {g: reach(g, v, count) for g, v in GAMES.items()}
    sizes = {g: once(s) for g, s in steps.items()}  # and warms the templates
    times: dict[str, list[float]] = {g: [] for g in steps}
    for _ in range(repeat):
        for g, s in steps.items():
            times[g].append(_cpu(lambda s=s: once(s)))  # type: ignore[misc]
    return {g: {"ms": statistics.median(t) * 1e3, "bytes": float(sizes[g]),
                "step": float(steps[g].index + 1)} for g, t in times.items()}


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start
