"""The conformance test every game plugin must pass, through the GamePlugin interface only
(nothing here knows a game): set-up of every variant, steps from ``window``, standing orders
round after round, determinism to the byte, JSON round trips, views that never carry another
power's secrets or the referee's, an ending by agreement, order checking that rejects nonsense
with paths, and the structural leak test: changing another power's hidden data leaves my view,
my events and my mails byte-identical. It runs for every game under the games roots: 4000 A.D.
and the toy game tests/toygame/highcard (tests/conftest.py adds its root).

``structural_leaks`` is also run by tests/engine/game/test_leak_mutation.py against a copy of 4000
A.D.
whose view lost a filter: there it must fail."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from pbem import canonical
from pbem.chance.chain import sha256
from pbem.chance.step import StepChance
from pbem.game import registry
from pbem.game.events import event_problems
from pbem.game.plugin import GamePlugin, Resolution
from pbem.render import mails

CASES = [(gid, variant) for gid in registry.available()
         for variant in registry.load(gid).variants()]
GAME = {"game_id": "conformance", "title": "Conformance", "deadline": None, "checkpoint": None,
        "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}


class ScriptedStream:
    """A stream whose draws are fixed by the test: ``below(n)`` is always n - 1 (the highest
    value, so a die shows its last face) and a shuffle reverses: an edge the real streams
    reach only by luck."""

    def below(self, n: int) -> int:
        return n - 1

    def roll(self, faces: Any, count: int = 1) -> list[int]:
        return [list(faces)[-1]] * count

    def shuffle(self, items: Any) -> list[Any]:
        return list(reversed(list(items)))


class ScriptedChance:
    def public(self, label: str) -> ScriptedStream:
        return ScriptedStream()

    def secret(self, label: str) -> ScriptedStream:
        return ScriptedStream()


def real_chance(step: int, due: list[str], k: bytes = b"k" * 32) -> StepChance:
    """The fair chance the engine passes (pbem.chance), from fixed inputs."""
    return StepChance("conformance", step, sha256(b"referee %d" % step),
                      {p: sha256(f"{p} {step}".encode()) for p in due}, k)


def make_chance(kind: str, step: int, due: list[str], k: bytes = b"k" * 32) -> Any:
    return ScriptedChance() if kind == "scripted" else real_chance(step, due, k)


def play(plugin: GamePlugin, variant: str, rounds: int = 12, kind: str = "real",
         k: bytes = b"k" * 32) -> Iterator[tuple[dict[str, Any], Resolution]]:
    """(state before, resolution) for each step of a game played on standing orders."""
    state = plugin.setup(variant, {"game_id": "conformance"})
    for step in range(1, rounds + 1):
        if plugin.is_over(state):
            return
        due = plugin.powers_due(state)
        orders = {p: plugin.default_orders(state, p) for p in due}
        result = plugin.resolve(state, orders, make_chance(kind, step, due, k))
        yield state, result
        state = result.state


@pytest.mark.parametrize("game_id,variant", CASES)
@pytest.mark.parametrize("kind", ["scripted", "real"])
def test_plugin_conformance(game_id: str, variant: str, kind: str) -> None:
    plugin: GamePlugin = registry.load(game_id)
    options = {"game_id": "conformance"}
    state = plugin.setup(variant, options)
    assert canonical.encode(plugin.setup(variant, options)) == canonical.encode(state)
    assert json.loads(json.dumps(state)) == state
    powers = list(plugin.variants()[variant].powers)
    for number in range(1, 13):
        if plugin.is_over(state):
            break
        step = plugin.window(state)
        assert step is not None and step.kind and step.label
        due = plugin.powers_due(state)
        assert due and set(due) <= set(powers) and list(step.due) == due
        orders = {}
        for power in due:
            view = plugin.view(state, power)
            for key in ("game", "game_id", "viewer", "turn", "powers"):
                assert key in view, f"a view must carry {key!r}"
            assert view["game"] == plugin.id and view["viewer"] == power
            norm, problems = plugin.normalize_orders({}, view)
            assert problems == [], problems
            orders[power] = norm
            standing, _ = plugin.nmr_orders(state, power, None)
            assert canonical.encode(standing) == canonical.encode(plugin.default_orders(state,
                                                                                        power))
        before = canonical.encode(state)
        first = plugin.resolve(state, orders, make_chance(kind, number, due))
        again = plugin.resolve(json.loads(before), json.loads(json.dumps(orders)),
                               make_chance(kind, number, due))
        assert canonical.encode(state) == before, "resolve must not change its input"
        assert canonical.encode(first.state) == canonical.encode(again.state)
        assert canonical.encode(first.events) == canonical.encode(again.events)
        assert all(isinstance(n, int) for n in plugin.counts(first.events).values())
        assert event_problems(first.events, powers) == [], "events must address by the helper"
        referee_only = plugin.hidden(state)
        state = first.state
        for power in powers:
            shown = canonical.dumps(plugin.view(state, power))
            shown += canonical.dumps(plugin.view_events(first.events, power))
            # The referee's secrets of before the step stay secret unless the step ended the game.
            kept = plugin.hidden(state) + ([] if plugin.is_over(state) else referee_only)
            for secret in kept:
                assert secret not in shown, (power, "referee's", secret)
            for other in powers:
                if other != power:
                    for secret in plugin.secrets(state, other):
                        own = plugin.secrets(state, power)
                        assert secret in own or secret not in shown, (power, other, secret)
        public = canonical.dumps(plugin.view(state, None))
        for power in powers:
            for secret in plugin.secrets(state, power):
                assert secret not in public
    ended = plugin.end_game(state, "conformance")
    assert plugin.is_over(ended.state) and plugin.powers_due(ended.state) == []
    assert event_problems(ended.events, powers) == []
    assert plugin.window(ended.state) is None
    _, problems = plugin.normalize_orders({"no such order": 1},
                                          plugin.view(state, plugin.powers_due(state)[0]
                                                      if plugin.powers_due(state) else powers[0]))
    assert problems and all(p.message for p in problems)


@pytest.mark.parametrize("game_id,variant", CASES)
def test_hidden_draws_are_salted_so_public_digests_confirm_no_guess(game_id: str,
                                                                    variant: str) -> None:
    """Once a game has drawn in secret, its state holds a salt from the secret stream: two
    games with every public input equal and another referee secret K differ in every later
    state digest, so a published digest cannot confirm a guessed hidden card (a game that
    never draws in secret has nothing to salt and is skipped by its own draws)."""
    plugin = registry.load(game_id)
    one = list(play(plugin, variant, 12, "real", b"1" * 32))
    two = list(play(plugin, variant, 12, "real", b"2" * 32))
    assert len(one) == len(two)
    drew_secret = False
    for step, ((before, a), (_, b)) in enumerate(zip(one, two, strict=True), 1):
        chance = real_chance(step, plugin.powers_due(before), b"1" * 32)
        plugin.resolve(before, {p: plugin.default_orders(before, p)
                                for p in plugin.powers_due(before)}, chance)
        drew_secret = drew_secret or bool(chance.draws.of("secret"))
        if drew_secret:
            assert canonical.digest(a.state) != canonical.digest(b.state), step
            assert plugin.hidden(a.state), "a state after a hidden draw holds referee secrets"
        else:
            assert canonical.digest(a.state) == canonical.digest(b.state), step


def _mail(renderer: mails.Renderer, plugin: GamePlugin, before: dict[str, Any],
          after: dict[str, Any], events: list[dict[str, Any]], power: str) -> bytes:
    mail = mails.turn_report(renderer, plugin, before, after, events, [power], {}, GAME)
    return canonical.encode([mail.subject, mail.text, mail.html,
                             [[n, t, b.decode()] for n, t, b in mail.attachments]])


def structural_leaks(plugin: GamePlugin, variant: str, states: int = 4) -> int:
    """Assert that every variation of one power's hidden data (``plugin.variations``) leaves
    every other power's view, its events and its turn report byte-identical, and changes a
    knower's view (so the data varied is real). Returns how many variations were checked."""
    renderer = mails.Renderer(plugin.id)
    powers = list(plugin.variants()[variant].powers)
    checked = 0
    for index, (before, result) in enumerate(play(plugin, variant, states)):
        state = result.state
        views = {p: canonical.dumps(plugin.view(state, p)) for p in powers}
        public = canonical.dumps(plugin.view(state, None))
        for owner in powers:
            for variation in plugin.variations(state, owner):
                varied = variation.state
                assert owner in variation.knowers
                assert any(canonical.dumps(plugin.view(varied, p)) != views[p]
                           for p in variation.knowers), (owner, "variation changes no view")
                assert canonical.dumps(plugin.view(varied, None)) == public, (
                    f"the public view changed with {owner}'s hidden data")
                others = [p for p in powers if p not in variation.knowers]
                for me in others:
                    assert canonical.dumps(plugin.view(varied, me)) == views[me], (
                        f"{me}'s view changed with {owner}'s hidden data")
                if others and index == 0:
                    me = others[0]
                    assert _mail(renderer, plugin, before, varied, result.events, me) == _mail(
                        renderer, plugin, before, state, result.events, me), (
                        f"{me}'s turn report changed with {owner}'s hidden data")
                checked += 1
        for me in powers:
            mine = plugin.view_events(result.events, me)
            hidden = [e for e in result.events if e not in mine]
            changed = [({**e, "varied": True} if e in hidden else e) for e in result.events]
            assert canonical.dumps(plugin.view_events(changed, me)) == canonical.dumps(mine), (
                f"{me}'s events changed with events it may not see")
    return checked


@pytest.mark.parametrize("game_id,variant", CASES)
def test_another_powers_hidden_data_never_changes_my_view_events_or_mails(
        game_id: str, variant: str) -> None:
    plugin = registry.load(game_id)
    assert structural_leaks(plugin, variant) > 0, "a hidden-information game varies something"
