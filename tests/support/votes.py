"""Players' votes by mail for tests: sign a vote as a power of a :class:`Host` game and pipe the
mail to ``pbem ingest --stdin``: a real process, under the hostile-mail memory cap, as an MTA runs
it; or, with ``process=False``, the same command line in the test process (tests.support.run:
``pbem_here``, a tenth of the cost) for a test that proves the process path once and then merely
plays through its votes."""

from __future__ import annotations

import itertools

from pbem.protocol.keys import PrivateKey
from pbem.protocol.votedoc import sign_vote, vote_text
from pbem.store import replay
from tests.support.ingest_helpers import order_mail, registered
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem, pbem_here

_mails = itertools.count(1)


def mail_vote(host: Host, power: str, kind: str, seq: int, *, withdraw: bool = False,
              key: PrivateKey | None = None, hours: float = 1, process: bool = True) -> str:
    """Sign a vote as ``power`` (or with ``key``) and mail it; ``pbem ingest``'s output."""
    block = sign_vote(vote_text(host.game_id, power, seq, kind, withdraw),
                      key or host.keys[power])
    return mail_block(host, power, block, hours=hours, process=process)


def mail_block(host: Host, power: str, block: str, *, hours: float = 1,
               process: bool = True) -> str:
    raw = order_mail(block, msgid=f"<vote-{next(_mails)}@example.org>", sender=registered(power),
                     subject="my vote")
    run = pbem if process else pbem_here
    done = run("ingest", host.root, "--stdin", "--now", iso(at(hours)), stdin=raw)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.decode()


def gm_ops(host: Host) -> list[str]:
    return [str(e.body.get("op")) for e in host.entries(replay.GM)]
