"""A registered player whose mail holds no signed orders (unsigned YAML, a zip) is told so;
a stranger gets nothing; the message is kept in quarantine with the reason either way."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

from pbem.host import ingest
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.mail.sources import MaildirSource
from tests.support.pbem_host import Host, at


def deliver(tmp_path, sender: str, *, zip_attachment: bool) -> MaildirSource:
    md = tmp_path / "md"
    for sub in ("new", "cur", "tmp"):
        (md / sub).mkdir(parents=True, exist_ok=True)
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.org"
    msg["Subject"] = "my orders"
    msg["Message-ID"] = f"<m-{len(list((md / 'new').iterdir()))}@example.org>"
    msg.set_content("pbem: 1\ngame: g1\npower: algol\nturn: 1\nseq: 1\norders: {}\n")
    if zip_attachment:
        msg.add_attachment(b"PK\x03\x04zipped", maintype="application", subtype="zip",
                           filename="orders.zip")
    (md / "new" / f"{msg['Message-ID'][1:-1]}.eml").write_bytes(bytes(msg))
    return MaildirSource(md)


def queued_to(host: Host) -> list[EmailMessage]:
    outbox = Outbox(host.path / "outbox")
    return [email.message_from_bytes(outbox.raw(e.id), policy=policy.default)
            for e in outbox.pending()]


def test_registered_player_without_signed_orders_is_told(tmp_path):
    host = Host(tmp_path)
    before = len(queued_to(host))
    report = ingest.ingest(host.root, deliver(tmp_path, "algol@example.org",
                                              zip_attachment=True), at(1))
    assert report.quarantined == 1
    replies = queued_to(host)[before:]
    assert len(replies) == 1 and str(replies[0]["To"]) == "algol@example.org"
    text = replies[0].get_body(("plain",)).get_content()
    assert "no signed order block" in text and "zip" in text.lower()
    assert str(replies[0]["Auto-Submitted"]) == "auto-replied"
    assert Inbox(host.root).quarantined()[0][1].startswith("no signed order block found")


def test_stranger_without_signed_orders_gets_nothing(tmp_path):
    host = Host(tmp_path)
    before = len(queued_to(host))
    ingest.ingest(host.root, deliver(tmp_path, "stranger@example.net", zip_attachment=False),
                  at(1))
    assert len(queued_to(host)) == before
    assert len(Inbox(host.root).quarantined()) == 1
