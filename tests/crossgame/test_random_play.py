"""Conformance that plays: every game, every variant, played to its end by random legal orders
through the real order path, as OpenSpiel's random simulation test plays all its games.

For each game the registry finds (the toy game too: tests/conftest.py adds its root) and each
of its variants, one seeded game:

* made as ``pbem new`` makes it (tests/pbem_host.Host: real keys, a real game directory);
* every step, each due power's orders come from the game's ``sample_orders(view, rng)`` hook
  (docs/plugins.md) on the ``view.json`` of the newest mail it was sent (saved from the mail
  and read by ``orderfile.load_view``), written as the order file of pbem.protocol.orderfile,
  given the player's chance contribution as ``pbem orders sign`` adds it (pbem.cli.entropy,
  with the mail saved whole for its signed checkpoint, and the player's own vault), signed
  with his key and judged by the host's real acceptance (``accept.handle_block``), which must
  accept it;
* the real turn job (``turnjob.run_root``) resolves the step with fair chance and mails the
  receipts, reports and GM summary, every one rendered by pbem.render from the game's
  templates; after the adapter's number of steps (tests/crossgame/adapters.py) the game
  master ends a game that has not ended itself (``pbem gm end``) and the game_end mails go;
* after every step: every new mail has a subject and a non-empty text part (and HTML part,
  where it has one) with no template syntax or Jinja ``Undefined`` left in it; each power has
  a mail, each that sent orders its receipt (templates/common/receipt), the game master his
  summary; the state equals the replay of the log (carried on from the last step's replay,
  tests/support/replaying.py: the log only grows); the game's invariants hold
  (adapters.INVARIANTS);
* at the end the state equals the replay of the whole log from genesis (``replay.replay``) and
  the carried one, and ``pbem audit`` (pbem.audit.audit_path) passes on the finished game.

A game without the hook, or whose hook never offers an order, fails with a sentence saying so.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import audit_path
from pbem.cli import entropy
from pbem.cli.main import main as pbem_main
from pbem.game import registry
from pbem.host import accept
from pbem.protocol import orderfile
from pbem.protocol.orderdoc import sign_orders
from pbem.protocol.vault import Vault
from pbem.store.gamedir import GameDir
from tests.crossgame.adapters import invariants, random_play_steps
from tests.support.mailread import read_mail
from tests.support.pbem_host import Host, at, iso
from tests.support.replaying import Replay, from_genesis

GAMES = registry.available()  # every installed game and, in the tests, the toy game
#: Seeds per variant: one keeps the file near a minute on one core; PBEM_RANDOM_PLAY_SEEDS=N
#: plays N of each (a longer hunt for a rule that breaks).
SEEDS = range(int(os.environ.get("PBEM_RANDOM_PLAY_SEEDS", "1")))
CASES = [(g, v, seed) for g in GAMES for v in registry.load(g).variants() for seed in SEEDS]
TOY = Path(__file__).resolve().parents[1] / "toygame" / "highcard"
LEFTOVERS = ("{{", "{%", "{#", "Undefined")  # a closing brace may be the order form's YAML
GM = "gm@example.org"


def lacks_hook(game: str) -> str:
    return (f"game {game!r} lacks the sample_orders hook: conformance plays every game to its "
            "end with random legal orders; add sample_orders(view, rng) -> body | None to its "
            "plugin (docs/plugins.md, 'Random legal play')")


class Table:
    """One game played by random legal orders (see the module docstring)."""

    def __init__(self, tmp: Path, game: str, variant: str, seed: int) -> None:
        self.game, self.variant = game, variant
        self.sample = sampler(registry.load(game), game)
        self.host = Host(tmp, variant, game=game, game_id="rp-1")
        self.plugin = self.host.plugin
        self.rng = random.Random(f"random-play/{game}/{variant}/{seed}")
        self.hour = 0.0
        self.seen: set[str] = set()
        # power -> (key, the view.json attachment, the mail)
        self.newest: dict[str, tuple[tuple[int, int], bytes, bytes]] = {}
        self.offered = 0
        self.steps = 0
        self.mails = 0
        self.ended_to: set[str] = set()
        self.sent: set[str] = set()  # the powers whose orders this step took
        self.replay = Replay(self.plugin, self.host.game())  # the log's replay, step by step

    # -- mail ---------------------------------------------------------------------------------
    def new_mails(self) -> list[EmailMessage]:
        folder = self.host.root / "sent-mail"
        fresh = sorted(p for p in folder.glob("*.eml") if p.name not in self.seen) \
            if folder.exists() else []
        out = []
        for path in fresh:
            self.seen.add(path.name)
            raw = path.read_bytes()
            msg = read_mail(raw)  # as policy.default reads it, each header parsed once
            self.check_mail(msg)
            self.keep_view(msg, raw)
            out.append(msg)
        self.mails += len(out)
        return out

    def check_mail(self, msg: EmailMessage) -> None:
        where = f"{self.game}/{self.variant} step {self.steps}: mail {msg['Subject']!r} to " \
                f"{msg['To']}"
        assert str(msg["Subject"] or "").strip(), f"{where}: no subject"
        assert msg.get_body(("plain",)) is not None, f"{where}: no text part"
        for kind in ("plain", "html"):  # an engine alert to the GM may be text alone
            part = msg.get_body((kind,))
            if part is None:
                continue
            text = str(part.get_content())
            assert text.strip(), f"{where}: an empty {kind} part"
            for left in LEFTOVERS:
                assert left not in text, f"{where}: {left!r} left in the {kind} part"

    def keep_view(self, msg: EmailMessage, raw: bytes) -> None:
        """The newest view.json each power got, with the mail (its signed checkpoint lets the
        player's tool reveal a chance value after steps he sent nothing for)."""
        for part in msg.iter_attachments():
            if part.get_filename() == "view.json":
                data = part.get_payload(decode=True)
                assert isinstance(data, bytes), f"{self.game}: view.json is not a payload"
                view = json.loads(data)
                key = (int(view["turn"]), int((view.get("chance") or {}).get("step", 0)))
                old = self.newest.get(view["viewer"])
                if old is None or key >= old[0]:
                    self.newest[view["viewer"]] = (key, data, raw)

    # -- the players --------------------------------------------------------------------------
    def view_of(self, power: str) -> tuple[dict[str, Any], Path]:
        """The power's view as his tool reads it (orderfile.load_view of the view.json saved
        from his newest mail), and that mail saved whole (its signed checkpoint)."""
        assert power in self.newest, f"{self.game}: {power} got no mail with a view.json"
        _, data, raw = self.newest[power]
        view_file = self.host.tmp / f"{power}-view.json"
        saved = self.host.tmp / f"{power}-newest.eml"
        view_file.write_bytes(data)
        saved.write_bytes(raw)
        return orderfile.load_view(view_file), saved

    def send(self, power: str) -> None:
        view, saved = self.view_of(power)
        body = self.sample(view, self.rng)
        if body is None:
            return  # the game offers nothing: standing orders
        self.offered += 1
        self.sent.add(power)
        _, problems = self.plugin.normalize_orders(body, view)
        assert not problems, (f"{self.game}/{self.variant}: sample_orders gave {power} a body "
                              f"its own check refuses: {[str(p) for p in problems]}: {body}")
        self.host.seq[power] = self.host.seq.get(power, 0) + 1
        doc = {"pbem": 1, "game": view["game_id"], "power": power, "turn": view["turn"],
               "seq": self.host.seq[power], "instance": view["instance"], "orders": body}
        text = orderfile.render(doc, [f"# random play, step {self.steps}"])
        asked = entropy.asked_by_view(view, saved)
        if asked is not None:
            vault = Vault.load(self.host.tmp / f"{power}-vault.json")
            text = entropy.with_entropy(text, asked, vault)
            vault.save()
        signed = sign_orders(text, self.host.keys[power])
        verdict = accept.handle_block(self.host.root, signed, received=at(self.hour),
                                      message_id=f"<{power}.{self.steps}@example.org>")
        assert verdict.verdict == "accepted", (
            f"{self.game}/{self.variant}: {power}'s orders were {verdict.verdict}: "
            f"{[str(p) for p in verdict.problems]}: {body}")

    # -- the referee and the game master -------------------------------------------------------
    def resolved_since(self, length: int) -> bool:
        """Whether the log holds a ``resolve`` entry past its first ``length`` entries."""
        entries = self.host.game().log.entries
        return any(entries[i].kind == "resolve" for i in range(length, len(entries)))

    def run(self, hours: float = 1.0) -> None:
        self.hour += hours
        runs = self.host.run(at(self.hour))
        assert runs and runs[0].status != "error", (self.game, runs[0].line())

    def step(self) -> None:
        due = self.plugin.powers_due(self.host.state())
        self.hour += 1
        self.sent = set()
        for power in due:
            self.send(power)
        before = len(self.host.game().log)
        for wait in (1, 49, 49, 49):  # past the deadline (and any grace) if one sent nothing
            self.run(wait)
            if self.resolved_since(before):
                break
        assert self.resolved_since(before), f"{self.game}/{self.variant}: the step never resolved"
        self.steps += 1
        self.check_step()

    def check_step(self) -> None:
        mails = self.new_mails()
        got = {str(m["To"]) for m in mails}
        for power in self.host.powers:
            assert f"{power}@example.org" in got, \
                f"{self.game}/{self.variant} step {self.steps}: no mail to {power}"
        assert GM in got, f"{self.game}/{self.variant} step {self.steps}: no GM summary"
        receipts = {str(m["To"]) for m in mails if "Orders received" in str(m["Subject"])}
        for power in self.sent:
            assert f"{power}@example.org" in receipts, \
                f"{self.game}/{self.variant} step {self.steps}: no receipt to {power}"
        state = self.host.state()
        again = self.replay.to(GameDir.open(self.host.path))  # the last step's, continued
        assert canonical.encode(again) == canonical.encode(state), \
            f"{self.game}/{self.variant} step {self.steps}: the state is not the log's replay"
        check = invariants(self.game)
        if check is not None:
            check(state)
        if self.plugin.is_over(state):
            self.ended_to |= got  # the game ended itself: its end mails went with this step

    def end(self) -> None:
        if not self.plugin.is_over(self.host.state()):
            self.hour += 1
            assert pbem_main(["gm", "end", str(self.host.path), "--reason",
                              "random play is over", "--now", iso(at(self.hour))]) == 0
        self.run()  # the game_end mails
        self.run()  # and the referee's chance secret, once over
        self.ended_to |= {str(m["To"]) for m in self.new_mails()}
        for power in self.host.powers:
            assert f"{power}@example.org" in self.ended_to, \
                f"{self.game}/{self.variant}: no end-of-game mail to {power}"
        state, game = canonical.encode(self.host.state()), GameDir.open(self.host.path)
        for how, again in (("carried step by step", self.replay.to(game)),
                           ("from genesis", from_genesis(self.plugin, game))):
            assert canonical.encode(again) == state, \
                f"{self.game}/{self.variant} at its end: the state is not the log's replay ({how})"


def sampler(plugin: Any, game: str) -> Callable[[dict[str, Any], random.Random], Any]:
    """The game's ``sample_orders``; a game without one fails with the sentence saying so."""
    hook = getattr(plugin, "sample_orders", None)
    if not callable(hook):
        raise AssertionError(lacks_hook(game))
    return hook  # type: ignore[no-any-return]


def random_play(tmp: Path, game: str, variant: str, seed: int) -> Table:
    """One whole game (see the module docstring); its table once the audit has passed."""
    table = Table(tmp, game, variant, seed)
    table.run(0.1)  # the welcome mails
    welcomed = {str(m["To"]) for m in table.new_mails()}
    assert all(f"{p}@example.org" in welcomed for p in table.host.powers), welcomed
    while table.steps < random_play_steps(game) and \
            not table.plugin.is_over(table.host.state()):
        table.step()
    table.end()
    if not table.offered:
        raise AssertionError(f"{lacks_hook(game)} (its sample_orders returned None for every "
                             "power at every step: the default offers nothing to play)")
    assert table.plugin.is_over(table.host.state())
    report = audit_path(table.host.path)
    assert report.tally.over, f"{game}/{variant}: the audit does not see the game over"
    return table


def test_random_play_covers_every_game() -> None:
    assert {"4000ad", "ashes", "b5cgs", "highcard"} <= set(GAMES)


@pytest.mark.parametrize(("game", "variant", "seed"), CASES)
def test_random_legal_play_to_the_end(tmp_path: Path, game: str, variant: str,
                                      seed: int) -> None:
    random_play(tmp_path, game, variant, seed)


@pytest.mark.parametrize(("name", "hook", "why"), [
    ("nohookcard", None, "lacks the sample_orders hook"),
    ("nonecard", "staticmethod(lambda view, rng: None)", "returned None for every power"),
])
def test_a_game_without_random_play_fails_with_a_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, hook: str | None,
        why: str) -> None:
    """A copy of the toy game without the hook, or with one that never offers an order (the
    contract's default), fails the suite with the sentence, never a silent skip."""
    copy = tmp_path / "games" / name
    shutil.copytree(TOY, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "game.yaml").write_text((copy / "game.yaml").read_text()
                                    .replace("id: highcard", f"id: {name}"))
    for module in copy.glob("*.py"):
        module.write_text(module.read_text().replace('"highcard"', f'"{name}"'))
    plugin = copy / "plugin.py"
    line = "    sample_orders = staticmethod(sample.sample_orders)"
    text = plugin.read_text()
    assert line in text, "the toy game no longer wires sample_orders in one line"
    plugin.write_text(text.replace(line, "" if hook is None else f"    sample_orders = {hook}"))
    # In place of the toy game (both add `pbem orders play`).
    roots = [str(r) for r in registry.roots() if r != TOY.parent]
    monkeypatch.setenv("PBEM_GAMES_DIR", os.pathsep.join([*roots, str(copy.parent)]))
    registry._manifests.cache_clear()  # the games roots changed for this test
    (tmp_path / "play").mkdir()
    try:
        with pytest.raises(AssertionError) as failed:
            random_play(tmp_path / "play", name, "duel-2", 0)
    finally:
        registry._manifests.cache_clear()
    assert str(failed.value).startswith(f"game {name!r} lacks the sample_orders hook"), \
        failed.value
    assert why in str(failed.value)
