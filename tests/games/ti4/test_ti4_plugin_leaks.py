"""The leak sweep of TI4 over a game played by email (three players, set-up through round 1's
status phase, an export of the running game): no mail to a player (text, HTML and every
attachment), no view, visible event or export names what is hidden when it was made: the
decks' order or the salt (``plugin.hidden``), another power's standing answers
(``plugin.secrets``); no mail's words, view or visible event name another power's unscored
secret objectives (ids of the pack, so held structurally: the view.json carries none of the
others' secrets and the decks only as counts). The sweep is shown to catch a doctored mail."""

from __future__ import annotations

import email
import functools
import json
import re
from email import policy
from email.message import EmailMessage
from typing import Any

import pytest

from pbem import canonical
from tests.support.ti4_mail import Played, small_3


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The game the end-to-end tests read too (tests/support/ti4_mail.py), with red silent in
    every secondary step: his mails at the deadline are swept as well."""
    return small_3(tmp_path_factory)[0]


def leaks(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)]


@functools.cache
def _parsed(raw: bytes) -> EmailMessage:
    """A mail, parsed once for all the tests (the parse with ``policy.default`` is slow)."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def parts(raw: bytes) -> tuple[str, list[dict[str, Any]]]:
    """A mail's words (headers, text and HTML parts) and its view.json attachments."""
    msg = _parsed(raw)
    words, views = [str(msg["Subject"])], []
    for part in msg.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        if part.get_filename() == "view.json":
            views.append(json.loads(payload))
        else:
            words.append(payload.decode("utf-8", "replace"))
    return "\n".join(words), views


def _reader(raw: bytes) -> str:
    msg = _parsed(raw)
    return str(msg["To"]).split("@")[0].strip("<> ").split()[-1].lstrip("<")


def unscored(state: dict[str, Any], power: str) -> list[str]:
    """The secret objectives ``power`` holds unscored (none before the deal), and those he
    drew at the deal until he has kept some (which one he keeps is his alone)."""
    return list(((state.get("table") or {}).get("players") or {}).get(power, {})
                .get("secrets", [])) + list((state.get("drawn") or {}).get(power) or [])


def shown_to(view: dict[str, Any], power: str | None) -> list[str]:
    """Every way ``view`` could show what is not ``power``'s: another player's secrets list, a
    deck as a list."""
    out = []
    table = view.get("table") or {}
    for p, seat in (table.get("players") or {}).items():
        if p != power and "secrets" in seat:
            out.append(f"{p}'s secrets")
    for deck in ("public_deck", "secret_deck", "agenda_deck"):
        if deck in table and not isinstance(table[deck], int):
            out.append(deck)
    return out


def test_no_mail_to_a_player_names_what_he_may_not_know(game: Played) -> None:
    checked = views_seen = 0
    for k, step in enumerate(game.steps[:-1]):
        for raw in step.mails:
            me = _reader(raw)
            assert me in game.host.powers, me
            others = [s for q, ss in step.secrets.items() if q != me for s in ss]
            theirs = [o for q in game.host.powers if q != me for o in unscored(step.state, q)]
            whole = raw.decode("utf-8", "replace")
            words, views = parts(raw)
            assert leaks(whole + words, step.hidden + others) == [], (k, me)
            assert leaks(words, theirs) == [], (k, me)
            for view in views:
                assert shown_to(view, me) == [], (k, me)
                views_seen += bool(view.get("table"))
            checked += 1
    assert checked > len(game.steps) and views_seen > len(game.steps)
    assert any(step.hidden for step in game.steps), "nothing was hidden"
    assert any(any(s for s in step.secrets.values()) for step in game.steps), \
        "nobody had standing answers"


def test_no_view_or_visible_event_shows_another_power_s_secrets(game: Played) -> None:
    plugin = game.host.plugin
    resolutions = game.host.entries("resolve")
    for k, step in enumerate(game.steps[1:-1], start=1):
        state, events = step.state, resolutions[k - 1].body["events"]
        for power in game.host.powers:
            view = plugin.view(state, power)
            assert shown_to(view, power) == []
            assert view["you"]["secrets"] + view["you"].get("drawn", []) \
                == unscored(state, power)
            seen = plugin.view_events(events, power)
            others = [s for q in game.host.powers if q != power
                      for s in plugin.secrets(state, q)]
            theirs = [o for q in game.host.powers if q != power for o in unscored(state, q)]
            assert leaks(canonical.dumps(view) + canonical.dumps(seen), step.hidden + others) \
                == [], (k, power)
            assert leaks(canonical.dumps(seen), theirs) == [], (k, power)
        public = plugin.view(state, None)
        assert shown_to(public, None) == [] and public["you"] == {}
        assert leaks(canonical.dumps(public), step.hidden) == []


def test_no_export_of_the_running_game_names_what_is_hidden(game: Played) -> None:
    assert len(game.exports) == 2
    for hidden, data in game.exports:
        assert hidden
        assert leaks(data.decode(), hidden) == []


def test_the_sweep_catches_a_doctored_mail(game: Played) -> None:
    """A mail whose view.json shows another player's secrets, and one whose words name the
    secret deck's order: both are caught."""
    step = next(s for s in game.steps if s.hidden and len(s.hidden) > 1)
    order = next(h for h in step.hidden if "," in h)
    plain = EmailMessage()
    plain.set_content(f"the deck is {order}")
    words, _ = parts(bytes(plain))
    assert order in leaks(words, step.hidden)
    doctored = EmailMessage()
    doctored.set_content("a report")
    view = {"table": {"players": {"blue": {"secrets": ["s1"]}}, "secret_deck": 3}}
    doctored.add_attachment(canonical.encode(view), maintype="application", subtype="json",
                            filename="view.json")
    _, views = parts(bytes(doctored))
    assert shown_to(views[0], "red") == ["blue's secrets"]
