"""Fixtures of the cross-game promise suite: the games it checks (every installed game and the
toy game), a real SMTP server on 127.0.0.1 for the referee's mail, and one played game per kind
for the whole session, shared by every promise test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.crossgame.support import Played, play
from tests.support.mailservers import SMTPServer, SMTPServers


@pytest.fixture(scope="session")
def smtp(tls_files) -> Iterator[SMTPServer]:
    """aiosmtpd on 127.0.0.1, recording every message the referees send."""
    servers = SMTPServers(tls_files)
    try:
        yield servers.start("none")
    finally:
        servers.stop_all()


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory, smtp: SMTPServer):
    """``played(game)``: the session's one played game of that kind (played on first use)."""
    games: dict[str, Played | BaseException] = {}

    def get(game: str) -> Played:
        """A game that could not be played fails every test of it with the same error, once
        played (not played again for each test)."""
        if game not in games:
            try:
                games[game] = play(game, tmp_path_factory.mktemp(f"crossgame-{game}"), smtp)
            except Exception as exc:  # noqa: BLE001 (kept and raised again for each test)
                games[game] = exc
        found = games[game]
        if isinstance(found, BaseException):
            raise found
        return found

    return get
