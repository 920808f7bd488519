"""The mail layer: triage of incoming order mail, durable inbox store, outbox to a file transport.

Floors (bench/README.md, "One machine's floor", 2-core VM). It measures no mail parsing, so the
floors are derived from what they do measure:

- triage (parse, find order texts, loop check) of one order mail: the mail layer should cost no
  more than parsing the order it carries, a 1.9 KB 20-order YAML with ``CSafeLoader``: 0.465 ms,
  i.e. 2,150 messages per second.
- ingest at the transport layer (store durably, triage, record the outcome): two durable writes
  (the raw message before acting, the done record after; temp + fsync + rename + directory
  fsync: 0.411 ms each) plus that triage floor: 1.287 ms, 777 messages per second.
- outbox queue: two durable writes (state, then bytes): 0.822 ms per message.
- outbox deliver to the file transport: two durable writes (the transport's .eml, the sent
  record) plus one durable rename (a directory fsync, 0.411 − 0.365 = 0.046 ms): 0.868 ms.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

from bench.report import line, median_seconds, runs
from pbem.mail import _files
from pbem.mail.compose import Attachment, compose
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.mail.transports import FileTransport
from pbem.mail.triage import triage

ORDER_PARSE_MS = 0.465
WRITE_DURABLE_MS = 0.411
DIR_FSYNC_MS = 0.411 - 0.365
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def signed_order(n: int) -> str:
    """A stand-in armored document the size of a 20-order file (~1.9 KB)."""
    orders = "".join(
        f"  - depart: {{from: Star-{i:02d}, ships: {i + 3}, commitment: {'ab' * 16}}}\n"
        for i in range(20)
    )
    return (
        "-----BEGIN PBEM SIGNED ORDERS-----\n"
        f"game: demo-1\npower: Vega\nturn: {n}\norders:\n{orders}"
        "-----BEGIN PBEM SIGNATURE-----\n"
        + "QUJD" * 22
        + "\n-----END PBEM SIGNED ORDERS-----\n"
    )


SHAPES = ("plain", "alternative", "attachment", "quoted")


def order_mails(count: int = 4) -> list[bytes]:
    """Distinct mails (own Message-ID, Date, Subject, boundaries) in the four shapes players send:
    plain body, text + HTML, attachment, a quoted reply. Distinct, so that the header cache of
    pbem.mail.message gets no help across messages that real mail would not give it."""
    mails = []
    for n in range(count):
        shape = SHAPES[n % len(SHAPES)]
        order = signed_order(n)
        msg = EmailMessage()
        msg["From"] = f"Vega {n} <vega{n}@players.example>"
        msg["To"] = "referee@pbem.example"
        msg["Subject"] = f"orders turn {n}"
        msg["Message-ID"] = f"<bench-{n}@players.example>"
        msg["Date"] = f"Tue, 01 Dec 2026 10:{n // 60 % 60:02d}:{n % 60:02d} +0000"
        if shape == "plain":
            msg.set_content(f"My orders:\n\n{order}\n-- \nVega\n")
        elif shape == "alternative":
            msg.set_content(f"My orders:\n\n{order}")
            msg.add_alternative(f"<p>My orders</p><pre>{order}</pre>", subtype="html")
        elif shape == "attachment":
            msg.set_content("Orders attached.")
            msg.add_attachment(order.encode(), maintype="text", subtype="plain", filename="o.yaml")
        else:
            quoted = "".join(f"> {ln}\n" for ln in ("Turn 3 report", *order.splitlines()))
            msg.set_content(f"Signed, in your form.\n\n{quoted}")
        mails.append(msg.as_bytes())
    return mails


def report_mail(n: int) -> EmailMessage:
    return compose(
        sender="referee@pbem.example",
        to="vega@players.example",
        subject=f"Turn {n} report — Vega",
        text="Turn report\n" + "A line of the report.\n" * 100,
        html="<h1>Turn report</h1>" + "<p>A line of the report.</p>" * 100,
        attachments=[Attachment("view.json", b'{"turn": 3}' * 100, "application", "json")],
        date=NOW,
        domain="pbem.example",
        auto_submitted="auto-generated",
        game="demo-1",
    )


def run() -> None:
    mails = order_mails(int(os.environ.get("PBEM_BENCH_TRIAGE_MAILS", "400")))
    own = ["referee@pbem.example"]
    for raw in mails[:4]:
        assert len(triage(raw, own_addresses=own).texts) == 1

    per_mail = median_seconds(lambda: [triage(r, own_addresses=own) for r in mails], repeat=5)
    line(
        "mail triage of a signed order mail (parse, order texts, loop check)",
        len(mails) / per_mail,
        "msg/s",
        1000 / ORDER_PARSE_MS,
        rate=True,
    )

    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-mail-"))
    try:
        counter = iter(range(10**9))

        def ingest_one() -> None:
            raw = mails[0].replace(b"bench-0@", f"bench-{next(counter)}@".encode())
            inbox = Inbox(tmp / "root")
            stored = inbox.store(raw)
            result = triage(inbox.read(stored), own_addresses=own)
            inbox.done(stored, result.outcome)

        per_ingest = median_seconds(ingest_one, number=20)
        line(
            "mail ingest, store durably + triage + done record",
            1 / per_ingest,
            "msg/s",
            1000 / (2 * WRITE_DURABLE_MS + ORDER_PARSE_MS),
            rate=True,
        )

        outbox = Outbox(tmp / "outbox")
        batches = runs(7)  # one batch of 20 per run of median_seconds's 7
        reports = [report_mail(n) for n in range(20 * batches)]
        batch = iter([reports[i : i + 20] for i in range(0, 20 * batches, 20)])

        def queue_batch() -> None:
            for msg in next(batch):
                outbox.queue(msg)

        per_queue = median_seconds(queue_batch, number=1) / 20
        line("outbox queue, per message", per_queue * 1000, "ms", 2 * WRITE_DURABLE_MS)

        transport = FileTransport(tmp / "sent-mail")
        pending_before = len(outbox.pending())
        per_deliver_run = median_seconds(lambda: _deliver_some(outbox, transport, 20), number=1)
        assert pending_before == 20 * batches and not outbox.pending()
        line(
            "outbox deliver to the file transport, per message",
            per_deliver_run / 20 * 1000,
            "ms",
            2 * WRITE_DURABLE_MS + DIR_FSYNC_MS,
        )
        # fsync cost on a shared VM drifts far from the note's figure: the same durable write of a
        # 3 KB file, measured now, shows what is our code and what is the disk today.
        data = mails[0]
        names = iter(range(10**9))
        reference = median_seconds(
            lambda: _files.write_durably(tmp / f"ref-{next(names)}", data), number=20
        )
        line(
            "durable 3 KB write without the mail layer, measured now (reference)",
            reference * 1000,
            "ms",
            WRITE_DURABLE_MS,
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _deliver_some(outbox: Outbox, transport: FileTransport, n: int) -> None:
    report = outbox.deliver(transport, NOW, limit=n)
    assert len(report.sent) == n, report


if __name__ == "__main__":
    run()
