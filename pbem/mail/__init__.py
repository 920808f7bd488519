"""The mail layer: raw messages in, order texts out; composed messages queued and delivered.

Modules, in the order a message travels:

- :mod:`~pbem.mail.sources`, :mod:`~pbem.mail.imap` — where incoming mail comes from (stdin,
  Maildir, mbox, IMAP), each message acknowledged only after it was stored.
- :mod:`~pbem.mail.inbox` — the durable inbox/quarantine store, named by SHA-256, with duplicate
  detection and a done record per message.
- :mod:`~pbem.mail.message` — parsing with size caps and finding the texts that hold signed orders.
- :mod:`~pbem.mail.loops` — whether a message may be answered at all (RFC 3834).
- :mod:`~pbem.mail.triage` — the three above in one call, for ingest.
- :mod:`~pbem.mail.compose` — building receipts and reports (threading, Auto-Submitted, List-Id).
- :mod:`~pbem.mail.outbox`, :mod:`~pbem.mail.transports` — the transactional outbox and the file and
  SMTP transports that deliver from it.
- :mod:`~pbem.mail.security` — TLS modes and credentials (never from the command line).

Nothing here decides what an order means; the armor and signatures belong to
:mod:`pbem.protocol.orderdoc`.
"""
