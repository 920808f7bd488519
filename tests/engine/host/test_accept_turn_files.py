"""Judging a file looks at its own turn's ``orders`` entries only (the log's running summary
for the current turn), never the whole history: a game at turn 300 pays per mail what a game
at turn 2 pays. The summary's answer must be the scan's, for the current turn and an old one;
and an old file sent again after its turn resolved is still recognised as logged."""

from __future__ import annotations

from pathlib import Path

from pbem.host import accept
from pbem.store import replay
from tests.support.pbem_host import Host, at


def scanned(host: Host, turn: int) -> list[list[object]]:
    return [[e.seq, e.body["power"], e.body["sha256"], len(e.body["text"].encode("utf-8"))]
            for e in host.game().log.entries
            if e.kind == replay.ORDERS and e.body["turn"] == turn]


def test_the_current_turns_files_come_from_the_summary_as_a_scan_finds_them(
        tmp_path: Path) -> None:
    host = Host(tmp_path)
    first = {}
    for power in host.powers:
        first[power] = host.orders_text(power, {})
        assert accept.handle_block(host.root, first[power], received=at(1),
                                   message_id=f"<{power}.1@example.org>").verdict == "accepted"
    host.submit(host.powers[0], when=at(2))  # a second file of one power
    game = host.game()
    assert game.log.summary.turn_files(1) is not None
    assert accept._turn_files(game, 1) == scanned(host, 1) and len(scanned(host, 1)) == 5
    assert {r.status for r in host.run(at(50))} == {"resolved"}
    for power in host.powers:
        host.submit(power, when=at(51))
    game = host.game()
    now = host.plugin.orders_turn(host.state())
    assert now > 1 and accept._turn_files(game, now) == scanned(host, now)
    assert len(scanned(host, now)) == 4
    assert game.log.summary.turn_files(1) is None  # an older turn: the scan answers
    assert accept._turn_files(game, 1) == scanned(host, 1)
    # The same message again after its turn resolved (a redelivery): found logged in its own
    # turn's entries, answered with its receipt as before; in another message it is a replay.
    again = accept.handle_block(host.root, first[host.powers[1]], received=at(1),
                                message_id=f"<{host.powers[1]}.1@example.org>")
    assert again.verdict == "duplicate", again.line()
    replayed = accept.handle_block(host.root, first[host.powers[1]], received=at(52),
                                   message_id="<replay@example.org>")
    assert replayed.verdict == "rejected" and "turn" in replayed.line()
