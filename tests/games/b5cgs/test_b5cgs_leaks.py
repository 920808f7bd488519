"""The leak sweep of Babylon 5 CGS over a whole game played by email (four players, the 19-piece
map): no view, visible event, mail to a player (text, HTML and every attachment: view.json,
map.svg, the chance block) or export of the running game names a map piece that was still face
down when it was made (``plugin.hidden``: nobody but the referee knows them, C1.42), by its
``piece:`` name, its id or its title; nor another power's secret (``plugin.secrets``). The
sweep itself is shown to catch a leak (a doctored mail)."""

from __future__ import annotations

import email
import re
from email import policy
from email.header import decode_header, make_header
from email.message import EmailMessage
from typing import Any

import pytest

from pbem import canonical
from tests.support.b5cgs_mail import Played, play

TURNS = 8  # two rounds of four players
EXPORT_AT = 5


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    # played through pbem's command lines in this process: the end-to-end test's game proves
    # the path through the processes
    return play(tmp_path_factory.mktemp("b5leak"), "basic-4", "b5-leak", TURNS,
                export_at=EXPORT_AT, processes=False)


def forms(secret: str, pieces: dict[str, Any]) -> list[str]:
    """How a leak of ``secret`` would read: a piece as ``piece:ID``, its id and its title;
    anything else as itself."""
    pid = secret[len("piece:"):] if secret.startswith("piece:") else secret
    if pid not in pieces:
        return [secret]
    return [f"piece:{pid}", pid, str(pieces[pid].get("title") or pid)]


def leaks(text: str, secrets: list[str], pieces: dict[str, Any]) -> list[str]:
    found = []
    for s in secrets:
        for form in forms(s, pieces):
            # the substring test first: the same answer, without the pattern's slow scan
            if form in text and re.search(rf"(?<![\\w-]){re.escape(form)}(?![\\w-])", text):
                found.append(form)
    return found


def mail_text(raw: bytes) -> str:
    """Every part of a mail, decoded: the subject, text, HTML and attachments. The subject is
    unfolded and decoded (RFC 2047) as ``policy.default`` gives it, with the lenient parser
    (``compat32``) that parses no other header: the same text, for a third of the time."""
    msg = email.message_from_bytes(raw)
    subject = re.sub(r"\r?\n(?=[ \t])", "", str(msg["Subject"]))
    out = [str(make_header(decode_header(subject)))]
    for part in msg.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            out.append(payload.decode("utf-8", "replace"))
    return "\n".join(out)


def _pieces(game: Played) -> dict[str, Any]:
    return dict(game.steps[0].state["pack"]["pieces"])


def test_no_mail_to_a_player_names_a_piece_still_face_down(game: Played) -> None:
    pieces = _pieces(game)
    checked = 0
    for k, step in enumerate(game.steps[:-1]):  # the last: after the end, all revealed
        assert step.hidden or k <= 1, "no face-down piece left to leak"  # 0, 1: before the deal
        for raw in step.mails:
            assert leaks(mail_text(raw), step.hidden, pieces) == []
            checked += 1
    assert checked > TURNS


def test_no_view_or_visible_event_names_a_hidden_piece_or_another_power_s_secret(
        game: Played) -> None:
    plugin = game.host.plugin
    pieces = _pieces(game)
    resolutions = game.host.entries("resolve")
    for k, step in enumerate(game.steps[1:-1], start=1):
        state, events = step.state, resolutions[k - 1].body["events"]
        for power in state["seats"]:
            shown = canonical.dumps(plugin.view(state, power)) + canonical.dumps(
                plugin.view_events(events, power))
            others = [s for q in state["seats"] if q != power for s in plugin.secrets(state, q)]
            assert leaks(shown, step.hidden + others, pieces) == [], (k, power)
        public = canonical.dumps(plugin.view(state, None)) + canonical.dumps(
            plugin.view_events(events, None))
        assert leaks(public, step.hidden, pieces) == []


def test_no_export_of_the_running_game_names_a_hidden_piece(game: Played) -> None:
    assert len(game.exports) == 2
    for hidden, data in game.exports:
        assert hidden
        assert leaks(data.decode(), hidden, _pieces(game)) == []


def test_the_sweep_catches_a_doctored_mail(game: Played) -> None:
    """A report whose attached view.json (base64 in the mail) names a face-down piece's title,
    another whose text names its id: both are caught."""
    step = game.steps[2]  # after the deal (0: the set-up step, 1: the deal's own mails)
    pid = next(s.removeprefix("piece:") for s in step.hidden
               if s.removeprefix("piece:") in _pieces(game))
    title = _pieces(game)[pid]["title"]
    msg = email.message_from_bytes(step.mails[0], policy=policy.default)
    assert leaks(mail_text(bytes(msg)), step.hidden, _pieces(game)) == []
    doctored = EmailMessage()
    doctored["Subject"] = str(msg["Subject"])
    doctored.set_content("a report")
    doctored.add_attachment(canonical.encode({"slot": title}), maintype="application",
                            subtype="json", filename="view.json")
    assert title in leaks(mail_text(bytes(doctored)), step.hidden, _pieces(game))
    plain = EmailMessage()
    plain.set_content(f"the piece {pid} lies there")
    assert pid in leaks(mail_text(bytes(plain)), step.hidden, _pieces(game))


def test_the_end_reveals_every_piece(game: Played) -> None:
    """Once the game is over nothing is hidden, and the last mail names the pieces."""
    last = game.steps[-1]
    assert last.hidden == []
    ends = [t for t in map(mail_text, last.mails) if "the game is over" in t.split("\n")[0]]
    assert ends and "FACE-DOWN PIECES, REVEALED" in ends[0]
