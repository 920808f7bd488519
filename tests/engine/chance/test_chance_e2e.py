"""Fair chance end to end (docs/protocol.md, "Fair chance"), on High Card's ``lucky-2`` variant:
``pbem new`` records the referee's commitments, each player's tool commits a chain tip in the
set-up step and reveals a value in every later file (``pbem orders new|check|sign`` with a
vault, mailed through ``pbem ingest --stdin`` under a memory cap), ``pbem run`` resolves with a
``StepChance`` (nothing drawn at set-up; a secret shuffle and salt in the first round, from
every player's value; a public die each round), reports attach
``chance-step-T.json``, the game's end reveals K, and ``pbem export`` + ``pbem audit`` prove
every draw. A lying referee who alters a die, a shuffle, a player's value or K is named by the
audit; a player who withholds changes only his own contribution."""

from __future__ import annotations

import json
import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes
from pbem.chance.player import player_reveal
from pbem.chance.step import StepChance
from pbem.game import registry
from pbem.store import chance, replay
from pbem.store.gamedir import GameDir
from pbem.store.referee import referee_key
from pbem.store.summary import summarize
from tests.support.lying import lying_referee
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at, attachment, instance_of
from tests.support.run import pbem, pbem_here

HC = registry.load("highcard")


class Player(MailPlayer):
    def mail_orders(self, card: str | None, seq: int, when: float) -> str:  # type: ignore[override]
        return super().mail_orders(when, ("play", "--card", card) if card else (), seq=seq)


class Played:
    def __init__(self, host: Host, players: dict[str, Player], export: bytes,
                 signed: dict[tuple[str, int], str], tmp: Path) -> None:
        self.host, self.players, self.export, self.signed, self.tmp = (
            host, players, export, signed, tmp)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    tmp = tmp_path_factory.mktemp("lucky")
    host = Host(tmp, "lucky-2", game="highcard", game_id="lucky-1")
    players = {p: Player(host, p, tmp / "players") for p in host.powers}
    host.run(at(0.1))  # the welcome mails, with the set-up step's view
    signed: dict[tuple[str, int], str] = {}
    hour = 1.0
    for power, player in players.items():  # set-up: commit the tips
        assert player.newest_view()["chance"] == {"step": 1, "tip": None, "contribute": "tip"}
        signed[(power, 0)] = player.mail_orders(None, 0, hour)
    hour += 1
    assert host.run(at(hour))[0].status == "resolved"
    plays = [{"north": "ember-9", "south": "frost-2"},
             {"north": "ember-2", "south": "frost-9"},
             {"north": "ember-7"},  # south withholds: standing orders, no chance value
             {"north": "ember-5", "south": "frost-7"}]
    for seq, cards in enumerate(plays, 1):
        hour += 1
        for power, card in cards.items():
            players[power].newest_view()
            signed[(power, seq)] = players[power].mail_orders(card, seq, hour)
        hour += 49  # past the deadline: the round resolves with whatever came in
        assert host.run(at(hour))[0].status in ("resolved", "over")
    host.run(at(hour + 1))  # over: the referee's secret K is revealed
    out = tmp / "lucky-1.export"
    done = pbem_here("export", str(host.path), "-o", str(out))  # (plays through: in process)
    assert done.returncode == 0, done.stderr
    return Played(host, players, out.read_bytes(), signed, tmp)


def test_genesis_commits_and_every_drawing_step_records_its_inputs(game: Played) -> None:
    genesis = game.host.game().genesis
    assert set(genesis["random"]) == {"nonce", "referee_tip", "secret_commit"}
    resolves = game.host.entries("resolve")
    assert len(resolves) == 5 and all("random" in r.body for r in resolves[1:])
    assert "random" not in resolves[0].body  # the set-up step draws nothing: tips only
    assert None not in resolves[1].body["random"]["players"].values()  # the first draw: all
    third = resolves[3].body["random"]["players"]
    assert third["south"] is None and third["north"] is not None
    assert HC.is_over(game.host.state())
    secret = [e for e in game.host.entries("gm") if e.body["op"] == chance.SECRET_OP]
    assert len(secret) == 1
    rc = chance.referee_chance(genesis, referee_key(game.host.root)[0])
    assert rc is not None and secret[0].body["k"] == rc.k.hex()


def test_each_value_is_the_one_the_players_tool_derived_from_his_vault(game: Played) -> None:
    resolves = game.host.entries("resolve")
    for power, player in game.players.items():
        seeds = json.loads(player.vault.read_text())["games"]
        (entry,) = [v for k, v in seeds.items() if k.startswith("lucky-1#")]
        seed = bytes.fromhex(entry[power]["chance"][0]["seed"])
        for step, r in enumerate(resolves, 1):
            value = r.body.get("random", {}).get("players", {}).get(power)
            if value is not None:
                assert value == player_reveal(seed, step).hex()
                assert f"entropy: {value}" in game.signed[(power, step - 1)]


def test_a_withholding_player_changes_only_his_own_contribution(game: Played) -> None:
    """South sent nothing for round 3: the referee's value and north's are what they would
    have been; only south's field is empty (so the seed differs only through it)."""
    genesis = game.host.game().genesis
    rc = chance.referee_chance(genesis, referee_key(game.host.root)[0])
    assert rc is not None
    r = game.host.entries("resolve")[3].body["random"]
    assert r["referee"] == rc.reveal(4).hex()
    seeds = json.loads(game.players["north"].vault.read_text())["games"]
    (entry,) = [v for k, v in seeds.items() if k.startswith("lucky-1#")]
    north_seed = bytes.fromhex(entry["north"]["chance"][0]["seed"])
    assert r["players"]["north"] == player_reveal(north_seed, 4).hex()
    with_south = StepChance("lucky-1", 4, rc.reveal(4), {
        "north": bytes.fromhex(r["players"]["north"]), "south": b"\x01" * 32})
    without = StepChance("lucky-1", 4, rc.reveal(4), {
        "north": bytes.fromhex(r["players"]["north"]), "south": None})
    assert with_south.public_seed != without.public_seed
    assert without.inputs() == r


def test_the_same_game_replayed_gives_byte_identical_draws(game: Played) -> None:
    g = GameDir.open(game.host.path)
    k = replay.chance_key(g)
    first = replay.replay(HC, g.log.entries, g.initial_state(HC), k)
    again = replay.replay(HC, g.log.entries, g.initial_state(HC), k)
    assert canonical.encode(first) == canonical.encode(again) == canonical.encode(
        game.host.state())
    recorded = [e for r in game.host.entries("resolve") for e in r.body["events"]
                if e["type"] == chance.EVENT]
    assert len(recorded) == 4  # one public die per round
    standing: dict[str, Any] = {}
    state = g.initial_state(HC)
    draws = []
    for step, entry in enumerate((e for e in g.log.entries if e.kind == "resolve"), 1):
        standing = summarize(g.log.entries[:entry.seq]).standing_orders()
        result = replay.replay_resolution(HC, state, standing, entry, game_id="lucky-1",
                                          step=step, k=k)
        draws += [e for e in result.events if e["type"] == chance.EVENT]
        state = result.state
    assert canonical.encode(draws) == canonical.encode(recorded)


def _round_report(game: Played) -> EmailMessage:
    for msg in game.host.sent("north@example.org"):
        if any(p.get_filename() == "chance-step-2.json" for p in msg.iter_attachments()):
            return msg
    raise AssertionError("no report with chance-step-2.json")


def test_dice_verify_passes_on_a_real_report_and_fails_on_a_tampered_one(game: Played) -> None:
    msg = _round_report(game)
    report = game.tmp / "report.eml"
    report.write_bytes(msg.as_bytes())
    tip = game.host.game().genesis["random"]["referee_tip"]
    done = pbem("dice", "verify", str(report), "--referee-tip", tip)
    assert done.returncode == 0, done.stderr
    assert b"lucky-1 step 2: all 1 public draws match" in done.stdout
    block = json.loads(attachment(msg, "chance-step-2.json") or b"")
    die = block["draws"][0]["result"][0]
    block["draws"][0]["result"] = [die % 6 + 1]
    tampered = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert isinstance(tampered, EmailMessage)
    for part in tampered.iter_attachments():
        if part.get_filename() == "chance-step-2.json":
            part.set_content(json.dumps(block).encode(), maintype="application",
                             subtype="json", filename="chance-step-2.json")
    bad = game.tmp / "tampered.eml"
    bad.write_bytes(tampered.as_bytes())
    done = pbem("dice", "verify", str(bad))
    assert done.returncode == 1
    assert b"draw 1 ('bonus:turn-2', roll) differs" in done.stderr


def test_the_export_passes_the_audit_with_every_draw_proven(game: Played) -> None:
    done = pbem("audit", str(game.tmp / "lucky-1.export"))
    assert done.returncode == 0, done.stderr
    assert b"audit passed:" in done.stdout
    assert b"chance: 4 drawing steps" in done.stdout
    assert b"the public and hidden draws of 4 of them replayed" in done.stdout
    assert b"the referee's secret K revealed and checked against genesis" in done.stdout
    assert b"escrow openings" not in done.stdout  # High Card has none: not its words


def test_before_k_is_revealed_hidden_draws_are_not_yet_provable(game: Played) -> None:
    """The export cut before the last round and the revealing entry (re-signed by the
    referee): a running game passes, and the summary says the hidden draws are not yet
    provable."""
    def drop(items: list[dict[str, Any]]) -> None:
        last = items.index(_resolves(items)[-1])
        items[:] = items[:last]

    report = audit_bytes(lying_referee(game, drop), "running.export", [])
    assert report.tally.hidden_unproven == 1 and not report.tally.chance_secret
    assert "hidden draws are not yet provable" in report.lines()[0]
    assert report.exit_status == 0


def test_a_finished_game_whose_referee_never_reveals_k_fails_with_its_own_status(
        game: Played) -> None:
    """Issue 26: the game is over (its last resolution names no next deadline) and K never
    came: the audit does not pass; it exits 3 (not 0, not 1) and names the hidden draws that
    remain unproven."""
    def drop(items: list[dict[str, Any]]) -> None:
        items[:] = [i for i in items if i["body"].get("op") != chance.SECRET_OP]

    path = game.tmp / "no-k.export"
    path.write_bytes(lying_referee(game, drop))
    done = pbem("audit", str(path))
    assert done.returncode == 3, done.stderr
    first = done.stdout.decode().splitlines()[0]
    assert first.startswith("audit NOT passed:") and "never revealed the secret K" in first
    assert "the hidden draws of step 2 (turn 2)" in first  # the set-up step (1) draws nothing
    assert "hidden draws not proven" in done.stdout.decode()


# -- a lying referee (tests/support/lying.py): rewrites entries, recomputes every hash, re-signs
def fails(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as info:
        audit_bytes(data, "game.export", [])
    return info.value


def _resolves(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [i for i in items if i["kind"] == "resolve"]


def test_an_altered_die_is_named(game: Played) -> None:
    seq: list[int] = []

    def change(items: list[dict[str, Any]]) -> None:
        r = _resolves(items)[2]
        seq.append(items.index(r))
        event = next(e for e in r["body"]["events"] if e["type"] == chance.EVENT)
        event["draws"][0]["result"] = [event["draws"][0]["result"][0] % 6 + 1]

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq[0] and failure.field is not None
    assert failure.field.startswith("events")


def test_a_die_steered_through_the_referees_value_is_named(game: Played) -> None:
    seq: list[int] = []

    def change(items: list[dict[str, Any]]) -> None:
        r = _resolves(items)[2]
        seq.append(items.index(r))
        r["body"]["random"]["referee"] = "ab" * 32

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq[0] and failure.field == "random.referee"
    assert "does not hash to" in str(failure)


def test_an_altered_shuffle_is_named(game: Played) -> None:
    """The referee deals the kitty it likes: the first round's recorded state (its digest)
    is not what the shuffle gives."""
    seq: list[int] = []

    def change(items: list[dict[str, Any]]) -> None:
        r = _resolves(items)[1]
        seq.append(items.index(r))
        g = GameDir.open(game.host.path)
        second = [e for e in g.log.entries if e.kind == "resolve"][1]
        state = replay.replay(HC, g.log.entries[:second.seq + 1], g.initial_state(HC),
                              replay.chance_key(g))
        state["kitty"] = "kitty-1" if state["kitty"] != "kitty-1" else "kitty-2"
        r["body"]["state"] = canonical.digest(state)

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq[0] and failure.field == "state"


def test_an_altered_player_value_is_named(game: Played) -> None:
    seq: list[int] = []

    def change(items: list[dict[str, Any]]) -> None:
        r = _resolves(items)[1]
        seq.append(items.index(r))
        r["body"]["random"]["players"]["north"] = "cd" * 32

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq[0] and failure.field == "random.players.north"


def test_an_altered_end_of_game_secret_is_named(game: Played) -> None:
    seq: list[int] = []

    def change(items: list[dict[str, Any]]) -> None:
        entry = next(i for i in items if i["body"].get("op") == chance.SECRET_OP)
        seq.append(items.index(entry))
        key, _ = referee_key(game.host.root)
        body = {k: v for k, v in entry["body"].items() if k != "signature"}
        entry["body"] = replay.sign_gm(key, {**body, "k": "ef" * 32})

    failure = fails(lying_referee(game, change))
    assert failure.seq == seq[0] and failure.field == "k"


def test_a_wrong_value_in_an_order_file_is_rejected_naming_the_power_and_step(
        game: Played, tmp_path: Path) -> None:
    """A value not on the committed chain (here: the tip's own preimage chain of another
    seed) rejects the file with the check's sentence, and changes nothing."""
    host = Host(tmp_path, "lucky-2", game="highcard", game_id="lucky-2")
    host.run(at(0.1))
    tip_doc = {"tip": "11" * 32}
    before = len(host.entries())
    text = _signed(host, "north", {"entropy": tip_doc}, seq=0)
    from pbem.host import accept

    assert accept.handle_block(host.root, text, received=at(1),
                               message_id="<n0@example.org>").verdict == "accepted"
    south = _signed(host, "south", {"entropy": {"tip": "33" * 32}}, seq=0)
    assert accept.handle_block(host.root, south, received=at(1),
                               message_id="<s0@example.org>").verdict == "accepted"
    host.run(at(50))
    bad = _signed(host, "north", {"entropy": "22" * 32}, seq=1)
    verdict = accept.handle_block(host.root, bad, received=at(51), message_id="<n1@example.org>")
    assert verdict.verdict == "rejected"
    assert any("north: the value for step 2" in p.message and p.path == "entropy"
               for p in verdict.problems), verdict.problems
    assert len(host.entries()) == before + 3  # two files and the set-up resolution only


def test_an_order_file_of_a_re_created_game_is_refused(tmp_path: Path) -> None:
    """A game deleted and made again under the same id and keys gets a new instance: a file
    signed for the old one is refused, naming the instance."""
    host = Host(tmp_path, "duel-2", game="highcard", game_id="again-1")
    old = host.game().genesis["random"]["nonce"]
    text = _signed(host, "north", {"instance": "00" * 16}, seq=0)
    from pbem.host import accept

    verdict = accept.handle_block(host.root, text, received=at(1), message_id="<x@example.org>")
    assert verdict.verdict == "rejected"
    assert any(p.path == "instance" and "another instance" in p.message
               for p in verdict.problems)
    good = _signed(host, "north", {"instance": old}, seq=1)
    assert accept.handle_block(host.root, good, received=at(1),
                               message_id="<y@example.org>").verdict == "accepted"


def _signed(host: Host, power: str, extra: dict[str, Any], seq: int) -> str:
    import yaml

    from pbem.protocol.orderdoc import sign_orders

    doc = {"pbem": 1, "game": host.game_id, "power": power,
           "turn": HC.orders_turn(host.state()), "seq": seq,
           "instance": instance_of(host.path), **extra, "orders": {}}
    return sign_orders(yaml.safe_dump(doc, sort_keys=False), host.keys[power])


# -- every missing contribution is said (issue 26) -----------------------------------------------
def _text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return " ".join(str(body.get_content()).split())


def test_the_report_of_a_step_drawn_without_a_players_value_says_so(game: Played) -> None:
    """South sent nothing for round 3 (step 4): his report of that round says step 4 was drawn
    without his value and how to sign so it is not again; north's says nothing of the kind."""
    south = [_text(m) for m in game.host.sent("south@example.org")]
    (said,) = [t for t in south if "ROUND 4" in t]  # the round of step 4
    assert re.search(r"(Step 4 was|4 were) drawn without your value", said), said
    assert "pbem orders sign FILE --key KEY --view THIS.eml" in said
    assert "pbem dice verify THIS.eml" in said
    (north,) = [t for t in map(_text, game.host.sent("north@example.org")) if "ROUND 4" in t]
    assert "FAIR CHANCE, STEP 4" in north and not re.search(r"4 (was|were) drawn", north)


def test_gm_status_and_the_audit_say_each_missing_contribution(game: Played) -> None:
    status = pbem("gm", "status", str(game.host.path))
    assert status.returncode == 0, status.stderr
    (line,) = [ln for ln in status.stdout.decode().splitlines() if ln.startswith("chance: south")]
    assert "south contributed to 3 of 4 drawing steps" in line  # the set-up step draws nothing
    assert re.search(r"(step 4 was|4 were) drawn without south's value", line), line
    audit = pbem("audit", str(game.tmp / "lucky-1.export")).stdout.decode()
    assert line in audit.splitlines()


def test_a_file_without_a_chance_value_is_handled_as_documented(game: Played,
                                                               tmp_path: Path) -> None:
    """A file that carries no value at a drawing step (the tool never writes one; made by
    hand here) is either refused naming the missing entropy, or accepted with a receipt that
    says the step will be drawn without the power's value: never accepted in silence."""
    from tests.support.pbem_host import Host

    host = Host(tmp_path, "lucky-2", game="highcard", game_id="lucky-2")
    players = {p: Player(host, p, tmp_path / "players") for p in host.powers}
    for player in players.values():  # in this process: the module's game runs north's tool
        player.process = False  # and ingest as processes (the docstring's promise)
    host.run(at(0.1))
    for player in players.values():
        player.newest_view()
        player.mail_orders(None, 0, 1.0)
    host.run(at(2.0))
    north = players["north"]
    north.newest_view()
    done = north.sign(("play", "--card", "ember-9"))
    assert done.returncode == 0, done.stderr
    view = json.loads((north.work / "view.json").read_text())
    plain = (f"pbem: 1\ngame: lucky-2\npower: north\nturn: {view['turn']}\nseq: 1\n"
             f"instance: {view['instance']}\norders: {{play: ember-9}}\n")
    from pbem.protocol.keys import PrivateKey
    from pbem.protocol.orderdoc import sign_orders

    north.deliver(sign_orders(plain, PrivateKey.load(north.key)), 3.0)
    host.run(at(3.1))  # the replies go out (south has sent nothing: the round waits)
    texts = list(map(_text, host.sent("north@example.org")))
    # Refused (docs/protocol.md: a due power's file at a drawing step must carry its value),
    # naming the missing entropy and the command that fills it in.
    (reply,) = [t for t in texts if "turn 2 were NOT accepted" in t]
    assert "carries no entropy" in reply and "--view" in reply, reply
