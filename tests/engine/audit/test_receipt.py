"""``pbem verify-receipt``: a player who kept the referee's receipt mail proves whether the
resolution of its turn used the order file, on the game directory, the full and the public
export, and that a lying referee dropped it.

The receipts are the real mails the cron job delivered in the game of
tests/engine/audit/test_audit_game.py (saved .eml files, as a player's mail client keeps them); the
lying referee is the one of
tests/engine/audit/test_audit_used.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pbem.audit import verified_records
from pbem.audit.export import lines_of
from pbem.audit.receipts import check
from pbem.host import accept, notify
from pbem.protocol.receipt import Receipt, ReceiptError, read
from pbem.store.referee import referee_key
from tests.support.ad_driver import AD
from tests.support.lying import TURN2, chain_of, items_of, re_resolve_without
from tests.support.played import Played, played
from tests.support.run import pbem_text


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory)


def receipt_mail(game: Played, power: str, turn: int, seq: int) -> Path:
    for path in sorted((game.host.root / "sent-mail").glob("*.eml")):
        data = path.read_bytes()
        if b"pbem-receipt" not in data and b"Orders received" not in data:
            continue
        r = read(data)
        if (r.power, r.turn, r.seq) == (power, turn, seq):
            return path
    raise AssertionError(f"no receipt mail for {power} turn {turn} seq {seq}")


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return pbem_text("verify-receipt", *args, stdin=stdin.decode() if stdin else None)


def write_sources(game: Played, items: list, tmp: Path) -> dict[str, Path]:
    """The lying referee's log as a game directory, a full and a public export."""
    chain = chain_of(items)
    key, _ = referee_key(game.host.root)
    gamedir = tmp / "g1"
    gamedir.mkdir()
    (gamedir / "log.jsonl").write_bytes(b"".join(e.line() for e in chain))
    full, public = tmp / "g1.export", tmp / "g1.public"
    full.write_bytes(b"".join(lines_of(chain, AD, "g1", key, False)))
    public.write_bytes(b"".join(lines_of(chain, AD, "g1", key, True)))
    return {"dir": gamedir, "full": full, "public": public}


def test_the_receipt_is_signed_as_accept_signs_it(game):
    assert (accept.RECEIPT_DOMAIN, accept.RECEIPT_TYPE) == ("pbem-receipt-v1",
                                                            "application/vnd.pbem.receipt+json")
    r = read(receipt_mail(game, "algol", 2, 2).read_bytes())
    key, _ = referee_key(game.host.root)
    r.verify(key.public)
    again = Receipt.sign(key, r.fields())
    assert again == r and notify.signature_text(r.fields(), r.signature.hex()) + "\n" == r.text()
    entry = game.host.entries()[7]
    assert (entry.body["power"], entry.body["seq"], entry.body["sha256"]) == ("algol", 2,
                                                                            r.sha256)


@pytest.mark.parametrize("source", ["dir", "full", "public"])
def test_an_honest_game_shows_the_order_used_or_superseded(game, source, tmp_path):
    paths = write_sources(game, items_of(game), tmp_path)
    used = cli(str(receipt_mail(game, "algol", 2, 2)), "--log", str(paths[source]))
    assert used.returncode == 0, used.stderr
    lines = used.stdout.splitlines()
    assert lines[0].startswith("receipt signed by the referee (key ")
    assert "game g1, power algol, turn 2, seq 2, order file sha256 " in lines[0]
    assert lines[1] == ("used: the resolution of turn 2 (log entry 10) used algol's order file "
                        "seq 2 for turn 2 (log entry 7).")
    assert lines[2].startswith("the log's audit: ")
    older = cli(str(receipt_mail(game, "algol", 3, 3)), "--log", str(paths[source]))
    assert older.returncode == 0, older.stderr
    assert "superseded: the resolution of turn 3 (log entry 16) used your later order file " \
           "seq 4 (log entry 15)" in older.stdout


@pytest.mark.parametrize("source", ["dir", "full", "public"])
def test_a_dropped_order_is_proven_with_the_receipt(game, source, tmp_path):
    items = items_of(game)
    re_resolve_without(items, TURN2, "algol")
    paths = write_sources(game, items, tmp_path)
    done = cli(str(receipt_mail(game, "algol", 2, 2)), "--log", str(paths[source]))
    assert done.returncode == 1
    assert "game g1, power algol, turn 2, seq 2" in done.stdout
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in done.stderr
    assert err[0] == ("pbem verify-receipt: Dropped: the referee logged algol's order file seq "
                      "2 for turn 2 (log entry 7) and signed this receipt, but the resolution "
                      "of turn 2 (log entry 10) used the standing orders instead.")


def test_an_order_never_logged_is_proven_dropped(game, tmp_path):
    items = items_of(game)
    re_resolve_without(items, TURN2, "algol")
    del items[7]  # the lying referee never logged it: the log alone is consistent
    paths = write_sources(game, items, tmp_path)
    for source in ("full", "public"):
        done = cli(str(receipt_mail(game, "algol", 2, 2)), "--log", str(paths[source]))
        assert done.returncode == 1 and "never logged algol's order file seq 2 for turn 2" in \
            done.stderr and "(log entry 9)" in done.stderr, done.stderr


def test_a_swapped_order_names_what_was_used_instead(game, tmp_path):
    items = items_of(game)
    items[TURN2]["body"]["used"]["algol"] = items[4]["body"]["sha256"]  # its turn-1 file
    records, _ = verified_records(b"".join(e.line() for e in chain_of(items)), "log")
    finding = check(read(receipt_mail(game, "algol", 2, 2).read_bytes()), records)
    assert finding.dropped
    assert finding.sentence.endswith("used algol's order file seq 1 for turn 1 (log entry 4) "
                                     "instead")


def test_a_changed_receipt_or_another_referee_is_refused(game, tmp_path):
    mail = receipt_mail(game, "algol", 2, 2)
    text = read(mail.read_bytes()).text()
    forged = tmp_path / "forged.txt"
    forged.write_text(text.replace(" seq=2 ", " seq=3 "))
    done = cli(str(forged), "--log", str(game.host.path))
    assert done.returncode == 1 and "signature is not the referee's" in done.stderr
    other = tmp_path / "other.pub"
    from pbem.protocol.keys import PrivateKey
    other.write_text(PrivateKey.generate().public.text())
    done = cli(str(mail), "--log", str(game.host.path), "--referee-key", str(other))
    assert done.returncode == 1 and "was started with referee key" in done.stderr


def test_the_signed_text_alone_quoted_or_from_stdin_verifies_with_the_referee_key(game):
    r = read(receipt_mail(game, "pavo", 1, 1).read_bytes())
    quoted = "".join(f"> {line}\n" for line in r.text().splitlines())
    done = cli("-", "--referee-key", str(game.host.root / "referee.pub"),
               stdin=quoted.encode())
    assert done.returncode == 0, done.stderr
    assert "power pavo, turn 1, seq 1" in done.stdout and "give --log" in done.stdout
    nokey = cli("-", stdin=quoted.encode())
    assert nokey.returncode == 1 and "give --log" in nokey.stderr


def test_text_without_a_receipt_is_a_clear_error():
    with pytest.raises(ReceiptError, match="no receipt found"):
        read(b"From: a@b\nSubject: hi\n\nhello\n")
    with pytest.raises(ReceiptError, match="lacks sig"):
        Receipt.parse("pbem-receipt game=g1 power=p received=x seq=1 sha256=" + "a" * 64
                      + " turn=1")
