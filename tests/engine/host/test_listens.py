"""Standing answers from powers that are not due (``Window.listens``), end to end: in a
sequential Babylon 5 CGS game a player may change his contested-space answer (D3.42, ruling R12)
while another player's turn is open. His order file is mailed, accepted with a receipt, used by
the open turn's resolution (``used`` names it), applied before that turn's builds, and held by the
audit to the same rule as a due power's file: a referee who drops it is named. A file with
anything but a ``contested:`` answer is refused out of turn; a listened power that sent nothing
is given no standing orders and never misses a turn."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pbem.audit import AuditFailure, audit_bytes, audit_path
from pbem.audit.export import lines_of
from pbem.store import log as glog
from pbem.store.log import Entry
from pbem.store.referee import referee_key
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem


class Player(MailPlayer):
    def mail(self, body: dict[str, Any], hour: float) -> bytes:
        """His orders from the newest view.json mailed to him, with ``body`` put in; the
        tool's refusal when it will not sign them (it runs the referee's check first)."""
        self.newest_view()
        signed = self.sign(body=body)
        if signed.returncode != 0:
            return signed.stderr
        self.deliver(signed.stdout.decode(), hour)
        return b""


class Played:
    def __init__(self, host: Host, answerer: str, current: str, answer_seq: int) -> None:
        self.host, self.answerer, self.current, self.answer_seq = (host, answerer, current,
                                                                   answer_seq)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    tmp = tmp_path_factory.mktemp("listens")
    host = Host(tmp, "modular-3", game="b5cgs", game_id="lis")  # contested space: modular (E4)
    players = {p: Player(host, p, tmp / "players") for p in host.powers}
    host.run(at(0.1))  # welcome mails with the set-up step's view
    for power in host.plugin.powers_due(host.state()):
        players[power].mail({}, 1)
    assert host.run(at(2))[0].status == "resolved"  # set-up: every player commits his chance
    for power in host.plugin.powers_due(host.state()):
        players[power].mail({}, 2.5)
    assert host.run(at(2.7))[0].status == "resolved"  # the deal: order of play, the map
    state = host.state()
    current = host.plugin.powers_due(state)[0]
    answerer = next(p for p in state["order"] if p != current)
    assert state["powers"][answerer]["contested"]["default"] == "allow"  # D3.42, ruling E4
    # out of turn, anything but a contested answer is refused, naming why: by the player's
    # tool and by the referee (the same check on the same view)
    move = {"move": [{"unit": "t1", "to": "0,1"}]}
    assert b"orders.move: it is not your turn" in players[answerer].mail(move, 3)
    _, problems = host.plugin.normalize_orders(move, host.plugin.view(state, answerer))
    assert [p.path for p in problems] == ["move"] and "not your turn" in problems[0].message
    # a contested answer is accepted while it is another player's turn
    players[answerer].mail({"contested": {"default": "deny"}}, 3.5)
    answer_seq = host.entries("orders")[-1].seq
    assert host.entries("orders")[-1].body["power"] == answerer
    players[current].mail({}, 4)
    assert host.run(at(5))[0].status == "resolved"
    # the game ends, so the referee's chance secret is revealed and every step can be replayed
    done = pbem("gm", "end", str(host.path), "--reason", "the test is over", "--now",
                iso(at(6)))
    assert done.returncode == 0, done.stderr
    host.run(at(7))
    return Played(host, answerer, current, answer_seq)


def test_the_open_turn_uses_the_listened_answer_and_records_it(game: Played) -> None:
    resolution = game.host.entries("resolve")[-1]
    answer = next(e for e in game.host.entries("orders") if e.seq == game.answer_seq)
    assert resolution.body["due"] == [game.current]
    assert resolution.body["used"][game.answerer] == answer.body["sha256"]
    third = next(p for p in game.host.powers if p not in (game.current, game.answerer))
    assert third not in resolution.body["used"]  # sent nothing: no standing orders, no NMR
    assert game.host.state()["powers"][game.answerer]["contested"]["default"] == "deny"
    events = [e for e in resolution.body["events"] if e["type"] == "contested_answer"]
    assert events and events[0]["power"] == game.answerer and events[0]["_visible_to"] == [
        game.answerer]
    missed = game.host.game().log.summary.missed_turns()
    assert all(missed.get(p, {"total": 0})["total"] == 0 for p in (game.answerer, third))


def test_the_answer_stays_private(game: Played) -> None:
    plugin, state = game.host.plugin, game.host.state()
    assert plugin.view(state, game.answerer)["you"]["contested"]["default"] == "deny"
    for other in [p for p in game.host.powers if p != game.answerer] + [None]:
        assert '"default": "deny"' not in json.dumps(plugin.view(state, other))
        events = plugin.view_events(game.host.entries("resolve")[-1].body["events"], other)
        assert not [e for e in events if e["type"] == "contested_answer"
                    and e["power"] == game.answerer]


def _relinked(entries: list[Entry], seq: int, change: Any) -> list[Entry]:
    chain: list[Entry] = []
    for e in entries:
        body = copy.deepcopy(e.body)
        if e.seq == seq:
            change(body)
        chain.append(glog.make_entry(chain[-1] if chain else None, e.kind, e.time, body))
    return chain


def test_the_audit_passes_and_names_a_dropped_answer(game: Played) -> None:
    report = audit_path(game.host.path)
    assert report.tally.unreplayed_resolutions == 0 and report.tally.used_checked >= 2
    entries = game.host.game().log.entries
    seq = next(e.seq for e in game.host.entries("resolve")
               if game.answerer in e.body["used"] and game.answerer not in e.body["due"])
    chain = _relinked(entries, seq, lambda b: b["used"].pop(game.answerer))
    key, _ = referee_key(game.host.root)
    for public in (False, True):
        data = b"".join(lines_of(chain, game.host.plugin, "lis", key, public))
        with pytest.raises(AuditFailure) as info:
            audit_bytes(data, "lis.export")
        assert f"used.{game.answerer}" in str(info.value), str(info.value)
        assert "dropped order" in str(info.value)
