"""The conformance test every game plugin must pass, through the GamePlugin interface only
(nothing here knows a game): set-up of every variant, steps from ``window``, standing orders
round after round, determinism to the byte, JSON round trips, views that never carry another
power's secrets or the referee's, an ending by agreement, order checking that rejects nonsense
with paths, and the structural leak test: changing another power's hidden data leaves my view,
my events and my mails byte-identical, held to what the game's manifest declares of its
information (pbem.game.registry.INFORMATION): a game with hidden state at rest must vary
something; one without (``simultaneous``, ``perfect``) must show every power the public view.
Every game mail renders, with the game's templates or the generic ones. It runs for every game
under the games roots: the bundled games, the toy game tests/toygame/highcard and the fourth
game tests/games/rps (tests/conftest.py adds their roots).

``structural_leaks`` is also run by tests/engine/game/test_leak_mutation.py against a copy of 4000
A.D. whose view lost a filter: there it must fail."""

from __future__ import annotations

import json

import pytest

from pbem import canonical
from pbem.game import ViewFacts, registry
from pbem.game.events import event_problems
from pbem.game.plugin import GamePlugin
from pbem.render import mails
from tests.support.conformance import (
    GAME,
    make_chance,
    nothing_hidden_at_rest,
    play,
    real_chance,
    structural_leaks,
)

CASES = [(gid, variant) for gid in registry.available()
         for variant in registry.load(gid).variants()]


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
            for key in sorted(ViewFacts.__required_keys__):
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


@pytest.mark.parametrize("game_id,variant", CASES)
def test_another_powers_hidden_data_never_changes_my_view_events_or_mails(
        game_id: str, variant: str) -> None:
    plugin = registry.load(game_id)
    if registry.information(game_id) == "hidden":
        assert structural_leaks(plugin, variant) > 0, "a game with hidden state varies something"
    else:
        assert nothing_hidden_at_rest(plugin, variant) > 0


@pytest.mark.parametrize("game_id,variant", CASES)
def test_every_game_mail_renders_at_every_step(game_id: str, variant: str) -> None:
    """The welcome, each step's turn report and game master's summary, and the last mail after
    an ending by agreement render for every power, from the game's templates or the generic
    ones of templates/common/ (a game needs no template of its own)."""
    plugin = registry.load(game_id)
    renderer = mails.Renderer(plugin.id)
    powers = list(plugin.variants()[variant].powers)
    state = plugin.setup(variant, {"game_id": "conformance"})
    for power in powers:
        assert mails.welcome(renderer, plugin, state, [power], {}, GAME).text
    for before, result in play(plugin, variant, 2):
        state = result.state
        for power in powers:
            mail = mails.turn_report(renderer, plugin, before, state, result.events, [power], {},
                                     GAME)
            assert mail.subject and mail.text and mail.html
        assert mails.gm_summary(renderer, plugin, before, state, result.events, GAME).text
    ended = plugin.end_game(state, "conformance")
    for power in powers:
        mail = mails.game_end(renderer, plugin, ended.state, ended.events, [power], {}, GAME, [])
        assert mail.subject and mail.text and mail.html
