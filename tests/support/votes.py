"""Players' votes by mail for tests: sign a vote as a power of a :class:`Host` game and pipe the
mail to ``pbem ingest --stdin`` (a real process, under the hostile-mail memory cap)."""

from __future__ import annotations

import itertools

from pbem.protocol.keys import PrivateKey
from pbem.protocol.votedoc import sign_vote, vote_text
from pbem.store import replay
from tests.support.ingest_helpers import order_mail, registered
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem

_mails = itertools.count(1)


def mail_vote(host: Host, power: str, kind: str, seq: int, *, withdraw: bool = False,
              key: PrivateKey | None = None, hours: float = 1) -> str:
    """Sign a vote as ``power`` (or with ``key``) and mail it; ``pbem ingest``'s output."""
    block = sign_vote(vote_text(host.game_id, power, seq, kind, withdraw),
                      key or host.keys[power])
    return mail_block(host, power, block, hours=hours)


def mail_block(host: Host, power: str, block: str, *, hours: float = 1) -> str:
    raw = order_mail(block, msgid=f"<vote-{next(_mails)}@example.org>", sender=registered(power),
                     subject="my vote")
    done = pbem("ingest", host.root, "--stdin", "--now", iso(at(hours)), stdin=raw)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.decode()


def gm_ops(host: Host) -> list[str]:
    return [str(e.body.get("op")) for e in host.entries(replay.GM)]
