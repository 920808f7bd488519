"""What one ingest batch computes once and reuses (issue 17, batch ingest throughput) gives the
same answers as computing it again: the inbox's pending list from what ``store`` returned, the
power's view shared by judging a file and its receipt, and the ACCEPTED pointer of a directory
the batch has just made."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pbem.game import registry
from pbem.mail.inbox import Inbox
from pbem.protocol.commitment import commit
from pbem.protocol.keys import PrivateKey
from pbem.render import mails
from pbem.store.gameconfig import GameConfig
from pbem.store.gamedir import GameDir
from pbem.store.submissions import MARKER, SubmissionStore

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def message(n: int, body: str = "body") -> bytes:
    return (f"From: vega@players.example\r\nTo: referee@pbem.example\r\nSubject: orders {n}\r\n"
            f"Message-ID: <m{n}@players.example>\r\n\r\n{body}\r\n").encode()


def facts(stored: list) -> list[tuple[str, str | None, str | None, object]]:
    return [(s.sha256, s.message_id, s.day, s.handled) for s in stored]


def test_pending_from_what_store_returned_equals_a_fresh_read(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    stored = [inbox.store(message(n), arrived=T0, sync_dir=False) for n in range(3)]
    again = inbox.store(message(1), arrived=T0, sync_dir=False)  # a duplicate: no key kept
    inbox.sync_stored()
    assert again.key is None and all(s.key is not None for s in stored)
    known = {s.sha256: s for s in [*stored, again]}
    fresh = Inbox(tmp_path).pending(archive=True)
    assert facts(inbox.pending(archive=True, known=known)) == facts(fresh)
    assert sorted(s.sha256 for s in fresh) == sorted(s.sha256 for s in stored)


def test_pending_from_what_store_returned_still_reads_the_done_records(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    first, second = (inbox.store(message(n), arrived=T0) for n in (1, 2))
    inbox.done(first, "accepted")
    known = {s.sha256: s for s in (first, second)}
    assert [s.sha256 for s in inbox.pending(archive=True, known=known)] == [second.sha256]
    assert inbox.outcome(first.sha256, first.day) == {
        "sha256": first.sha256, "message_id": "<m1@players.example>", "outcome": "accepted"}


def test_a_receipt_from_the_shared_view_is_the_receipt_from_a_fresh_one(tmp_path: Path) -> None:
    plugin = registry.load("4000ad")
    powers = ("pavo", "antares", "regulus", "algol")
    config = GameConfig.from_data({
        "game_id": "reuse", "game": "4000ad", "variant": "independents-4",
        "gm": "gm@example.org", "from": "Referee <referee@example.org>",
        "powers": {p: {"email": f"{p}@example.org"} for p in powers},
        "schedule": {"period": "48h"}})
    game = GameDir.create(tmp_path, config, {p: PrivateKey.generate().public for p in powers},
                          plugin, T0)
    state = game.initial_state(plugin)
    warm = mails.Renderer("4000ad", game.path)
    view = warm.view(plugin, state, "algol")  # as judging the file computes it
    orders, problems = plugin.normalize_orders(
        {"depart": {"warp": 1, "from": "Algol", "ships": 3,
                    "commitment": commit("reuse", "algol", 1, 1, "Hamal", bytes(32))}}, view)
    assert not problems
    player = {"email": "algol@example.org", "tz": None, "name": "Algol"}
    info = {"game_id": "reuse", "title": "reuse", "deadline": None}

    def receipt(renderer: mails.Renderer) -> mails.RenderedMail:
        return mails.receipt(renderer, plugin, state, "algol", orders, player, info, seq=2,
                             signature="sig", received="2026-12-01T01:00:00Z")

    shared, fresh = receipt(warm), receipt(mails.Renderer("4000ad", game.path))
    assert "3 ships" in fresh.text, fresh.text
    assert (shared.subject, shared.text, shared.html) == (fresh.subject, fresh.text, fresh.html)
    assert view == plugin.view(dict(state), "algol")  # judging and rendering left it as it was


def test_the_first_record_of_a_new_directory_is_its_pointer(tmp_path: Path) -> None:
    batch = SubmissionStore(tmp_path)
    first = batch.record(turn=2, power="vega", data=b"orders 1\n", received=T0, seq=3,
                         verdict="accepted", sync_dir=False)
    batch.sync()
    marker = first.path.parent / MARKER
    assert marker.read_text().strip() == first.name + ".txt"
    later = SubmissionStore(tmp_path)  # the next batch: the directory exists, seq 2 is lower
    later.record(turn=2, power="vega", data=b"orders 2\n", received=T0, seq=2,
                 verdict="accepted", sync_dir=False)
    rejected = later.record(turn=2, power="sirius", data=b"orders 3\n", received=T0, seq=1,
                            verdict="rejected", problems=["bad"], sync_dir=False)
    accepted = later.record(turn=2, power="sirius", data=b"orders 4\n", received=T0, seq=1,
                            verdict="accepted", sync_dir=False)
    later.sync()
    assert marker.read_text().strip() == first.name + ".txt"
    assert (accepted.path.parent / MARKER).read_text().strip() == accepted.name + ".txt"
    assert SubmissionStore(tmp_path).accepted(2) == {"vega": first, "sirius": accepted}
    assert not rejected.accepted
