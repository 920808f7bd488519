"""The conformance suite's machinery, used by tests/engine/game/test_conformance.py and
tests/engine/game/test_leak_mutation.py: scripted and real chance from fixed inputs, a game played
on standing orders, and the structural leak check."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pbem import canonical
from pbem.chance.chain import sha256
from pbem.chance.step import StepChance
from pbem.game.plugin import GamePlugin, Resolution
from pbem.render import mails

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


def _mail(renderer: mails.Renderer, plugin: GamePlugin, before: dict[str, Any],
          after: dict[str, Any], events: list[dict[str, Any]], power: str) -> bytes:
    mail = mails.turn_report(renderer, plugin, before, after, events, [power], {}, GAME)
    return canonical.encode([mail.subject, mail.text, mail.html,
                             [[n, t, b.decode()] for n, t, b in mail.attachments]])


def structural_leaks(plugin: GamePlugin, variant: str, states: int = 4) -> int:
    """Assert that every variation of one power's hidden data (``plugin.variations``) leaves
    every other power's view, its events, its digest lines (pbem.render.notes.digest_lines)
    and its turn report byte-identical, and changes a knower's view (so the data varied is
    real). Returns how many variations were checked."""
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
            step = {"turn": before.get("turn"), "events": result.events}
            assert mails.digest_lines(plugin, [{**step, "events": changed}], me) == (
                mails.digest_lines(plugin, [step], me)), (
                f"{me}'s digest changed with events it may not see")
    return checked


def nothing_hidden_at_rest(plugin: GamePlugin, variant: str, states: int = 4) -> int:
    """Assert that a game declaring no hidden state at rest keeps none: after every step each
    power's view is the public view but for ``viewer``, and the game names no secret, referee
    secret or variation. Returns how many states were checked."""
    powers = list(plugin.variants()[variant].powers)
    checked = 0
    for _, result in play(plugin, variant, states):
        state = result.state
        public = {**plugin.view(state, None), "viewer": None}
        for power in powers:
            assert {**plugin.view(state, power), "viewer": None} == public, (
                f"{power}'s view shows what the public view does not")
            assert plugin.secrets(state, power) == [] and plugin.variations(state, power) == []
        assert plugin.hidden(state) == []
        checked += 1
    return checked
