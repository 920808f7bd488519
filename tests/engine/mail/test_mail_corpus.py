"""The bad-mail corpus: every message gets its documented transport outcome and nothing crashes."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from pbem.mail.inbox import Inbox
from pbem.mail.sources import MaildirSource
from pbem.mail.triage import triage
from tests.support.mail_corpus import REFEREE, Case, build, table
from tests.support.mail_corpus.__main__ import HEADER


@functools.cache
def corpus() -> tuple[Case, ...]:
    return tuple(build())


def test_corpus_has_at_least_thirty_cases_with_unique_names() -> None:
    names = [c.name for c in corpus()]
    assert len(names) >= 30
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("case", corpus(), ids=lambda c: c.name)
def test_transport_outcome(case: Case) -> None:
    result = triage(case.raw, own_addresses=[REFEREE])
    expect = case.expect
    assert (result.too_big.code if result.too_big else None) == expect.too_big
    if expect.too_big:
        assert result.message is None and result.texts == ()
        return
    assert (result.no_reply.code if result.no_reply else None) == expect.no_reply
    assert len(result.texts) == expect.orders
    assert result.html_only == expect.html_only
    assert expect.notes <= {n.code for n in result.notes}
    if expect.names is not None:
        assert tuple(t.name for t in result.texts) == expect.names
    for signed in case.signed:
        assert any(signed in t.text for t in result.texts), "armored text not found verbatim"
    for text in result.texts:
        assert "\r" not in text.text
        assert "/" not in text.name and "\\" not in text.name and not text.name.startswith(".")
        assert all(ch.isprintable() for ch in text.name)
    for note in result.notes:  # every note is a plain sentence a player can be sent
        assert str(note) and "\n" not in str(note)


def test_outcome_table_in_readme_is_current() -> None:
    readme = Path(__file__).resolve().parents[2] / "support" / "mail_corpus" / "README.md"
    assert readme.read_text(encoding="utf-8") == HEADER + table(list(corpus())), (
        "regenerate: .venv/bin/python -m tests.support.mail_corpus --write"
    )


def test_whole_corpus_through_maildir_and_inbox_nothing_vanishes(tmp_path: Path) -> None:
    """Deliver every case into a Maildir, ingest it the way `pbem ingest` will, then again."""
    maildir = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    for i, case in enumerate(corpus()):
        (maildir / "new" / f"{1000 + i}.{case.name}.host").write_bytes(case.raw)
    inbox = Inbox(tmp_path / "root")

    def ingest() -> int:
        handled = 0
        with MaildirSource(maildir) as source:
            for incoming in source.messages():
                stored = inbox.store(incoming.raw)
                if stored.handled is None:
                    result = triage(inbox.read(stored), own_addresses=[REFEREE])
                    if result.too_big is not None:
                        inbox.quarantine(stored, str(result.too_big))
                    else:
                        inbox.done(stored, result.outcome)
                    handled += 1
                source.ack(incoming.id)
        return handled

    assert ingest() == len(corpus())
    assert ingest() == 0  # everything acked: nothing is handed out again
    assert sorted(p.name.split(":")[0] for p in (maildir / "cur").iterdir()) == sorted(
        f"{1000 + i}.{c.name}.host" for i, c in enumerate(corpus())
    )
    assert list((maildir / "new").iterdir()) == []
    quarantined = {sha for sha, _ in inbox.quarantined()}
    too_big = [c for c in corpus() if c.expect.too_big]
    assert len(quarantined) == len(too_big)
    # Handled mail left the live inbox for the dated archive: none in inbox/, all kept.
    assert not list((tmp_path / "root" / "inbox").glob("*.eml"))
    archived = {p.stem for p in (tmp_path / "root" / "inbox" / "handled").glob("*/*.eml")}
    assert len(archived | quarantined) == len(corpus())
    assert {sha for sha, _ in inbox.records()} == archived | quarantined
    assert inbox.pending() == []
