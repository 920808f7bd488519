"""The bad-mail corpus through the real ingest: routing, authentication, receipts.

Every message of ``tests/support/mail_corpus`` is built with real signatures (players' keys of a
real game, ``tests.support.ingest_helpers.World``: demo-1 at turn 3, finished-1 ended; the corpus'
Vega is Algol, its Altair is Pavo), delivered into a Maildir and handled by ``pbem ingest ROOT
--maildir`` — each case alone in a copy of the root (so each outcome is the one that message has by
itself), and the whole corpus at once as a subprocess. Registered addresses are
``<power>@example.org``; the corpus mails come from ``vega@players.example`` or worse. Outcomes
verified (R = receipt queued to the registered address, In-Reply-To the player's Message-ID, orders
restated in plain words, the referee's signed receipt attached and verified; Q = quarantined with
the reason):

   #  case (corpus number)                  verified outcome
   1  plain-body                            accepted, R
   2  alternative                           accepted, R
   3  base64-attachment                     accepted, R
   4  two-order-files                       both accepted: R to Algol and R to Pavo
   5  qp-crlf                               accepted, R
   6  qp-escaped-crlf                       accepted, R (every hard CR LF escaped as =0D=0A)
   7  latin1 … 16 inline-and-attached       accepted, R (charsets, broken base64, nesting,
                                            a forwarded message/rfc822; the same text twice
                                            is found once)
  17  html-only, from a stranger            recorded "html-only"; no mail at all. From a
                                            registered player: one polite reply to it
  18  zip-attachment                        Q "no signed order block found"; no mail (**)
  19  text-attachment-without-orders        Q "no signed order block found"; no mail
  20  empty-body, 21 headers-only           Q "no signed order block found"; no mail (**)
  22  attachment-too-big (2 MB)             Q "no signed order block found"; no mail
  23  twenty-mb                             Q "message-too-big: …"; no mail
  24  too-many-parts, 25 deep-nesting       Q "too-many-parts" / "message-too-deep"; no mail
  26  filename-traversal ../../x.yaml       accepted, R; nothing written outside the store,
  27  rfc2231 ../../etc/passwd.yaml         and no file of that name anywhere
  28  rfc2231 CR LF, NUL, U+202E            (same)
  29  subject-injection-encoded             accepted, R; the reply's subject is ours: no Bcc,
  30  subject-injection-bare-cr             no CR/LF, one To
  31  malformed-from                        accepted, R (the signature decides)
  32  forged-from                           accepted, R to Algol's registered address;
                                            nothing to victim@stranger.example
  33  missing-from, 34 two-from,            accepted, R
  35  from-without-domain
  36  own-address                           Q "no signed order block found"; no mail (the
                                            corpus' referee is not this root's; our own
                                            receipt fed back is never answered: see below)
  37  replayed-old-orders                   rejected (turn): Algol's accepted turn-1 text sent
                                            again; rejection to Algol's address
  38  finished-game                         rejected (game-over); rejection to Algol's address
                                            in finished-1
  39  auto-replied, 42 x-autoreply,         Q with the robot/bounce reason; no mail
  43  bounce-dsn, 45 empty-return-path,
  46  read-receipt
  40  auto-generated-with-order,            accepted on the signature (logged); no mail at all
  44  bounce-with-original,
  47  list-precedence, 48 list-id
  41  auto-submitted-no                     accepted, R
  49  report-sent-back                      accepted, R

(*) The corpus builder turns every CR LF into =0D=0A, soft line breaks included, so a real
88-character signature line arrives as "…==0D=0A…": damaged. The player still hears of it.
test_outlook_style_qp_with_a_real_signature_is_accepted sends a correct encoding: accepted.
(**) The corpus README says "reply: no orders found" here; ingest sends nothing (no template
for it exists). Reported, not changed.

Beyond the corpus: an order signed with a key not registered for the power (another power's key,
a fresh key) is rejected and reported to the claimed power's registered address; a forged From
with a tampered order gets the rejection at the registered address only; every problem of a
rejected file is listed; a lower seq in the same turn is refused as a replay; an older file sent
again after a newer one in the same batch, and a rejected file sent twice in one batch, are
handled (they used to stop ingest: see pbem.accept._recorded); a damaged signature claiming a game
outside ROOT touches nothing outside ROOT; every case run again (and redelivered) handles nothing
twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path

import pytest

from pbem import canonical
from pbem.host import accept
from pbem.mail.inbox import Inbox
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.referee import referee_public
from tests.support.ingest_helpers import (
    NOW,
    World,
    deliver,
    done_records,
    ingest_cli,
    ingest_maildir,
    maildir,
    order_mail,
    parse,
    pristine,
    queued,
    registered,
    text_of,
    tree,
)
from tests.support.mail_corpus import Case, build
from tests.support.pbem_host import instance_of

ALGOL, PAVO = registered("algol"), registered("pavo")


@dataclass(frozen=True)
class Outcome:
    #: Verdict words of the order blocks, in order ("accepted", "rejected", ...).
    verdicts: tuple[str, ...] = ()
    #: (game, To, "receipt" | "rejection" | "html-only") of every mail queued.
    mails: tuple[tuple[str, str, str], ...] = ()
    #: A substring of the quarantine reason, when quarantined.
    quarantine: str | None = None
    #: Problem codes of a rejection.
    codes: tuple[str, ...] = ()


def receipt(*powers: str) -> Outcome:
    powers = powers or ("algol",)
    return Outcome(("accepted",) * len(powers),
                   tuple(("demo-1", registered(p), "receipt") for p in powers))


SILENT = Outcome(("accepted",))
NO_ORDERS = Outcome(quarantine="no signed order block found")

EXPECTED: dict[str, Outcome] = {
    "plain-body": receipt(),
    "alternative": receipt(),
    "base64-attachment": receipt(),
    "two-order-files": receipt("algol", "pavo"),
    "qp-crlf": receipt(),
    "qp-escaped-crlf": receipt(),
    "latin1": receipt(),
    "utf16-base64": receipt(),
    "iso-2022-jp": receipt(),
    "undeclared-8bit": receipt(),
    "unknown-charset": receipt(),
    "non-text-codec-charset": receipt(),
    "broken-base64": receipt(),
    "nested-multiparts": receipt(),
    "forwarded-rfc822": receipt(),
    "inline-and-attached": receipt(),
    "html-only": Outcome(),
    "zip-attachment": NO_ORDERS,
    "text-attachment-without-orders": NO_ORDERS,
    "empty-body": NO_ORDERS,
    "headers-only": NO_ORDERS,
    "attachment-too-big": NO_ORDERS,
    "twenty-mb": Outcome(quarantine="message-too-big"),
    "too-many-parts": Outcome(quarantine="too-many-parts"),
    "deep-nesting": Outcome(quarantine="message-too-deep"),
    "filename-traversal": receipt(),
    "rfc2231-evil-filename": receipt(),
    "rfc2231-control-filename": receipt(),
    "subject-injection-encoded": receipt(),
    "subject-injection-bare-cr": receipt(),
    "malformed-from": receipt(),
    "forged-from": receipt(),
    "missing-from": receipt(),
    "two-from": receipt(),
    "from-without-domain": receipt(),
    "own-address": NO_ORDERS,  # the corpus' referee address is not this root's: see below
    "replayed-old-orders": Outcome(("rejected",), (("demo-1", ALGOL, "rejection"),),
                                   codes=("turn",)),
    "finished-game": Outcome(("rejected",), (("finished-1", ALGOL, "rejection"),),
                             codes=("game-over",)),
    "auto-replied": Outcome(quarantine="Auto-Submitted: auto-replied"),
    "auto-generated-with-order": SILENT,
    "auto-submitted-no": receipt(),
    "x-autoreply": Outcome(quarantine="autoresponder"),
    "bounce-dsn": Outcome(quarantine="delivery-status"),
    "bounce-with-original": SILENT,
    "empty-return-path": Outcome(quarantine="a bounce (empty Return-Path)"),
    "read-receipt": Outcome(quarantine="disposition-notification"),
    "list-precedence": SILENT,
    "list-id": SILENT,
    "report-sent-back": receipt(),
}

#: Every From address that appears in the corpus or in the extra mails below: none is registered,
#: and none may ever receive anything.
STRANGERS = {"vega@players.example", "victim@stranger.example", "a@players.example",
             "b@players.example", "mailer-daemon@mx.players.example",
             "postmaster@players.example", "mx@players.example", "forger@evil.example"}


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return pristine(tmp_path_factory)


@pytest.fixture(scope="session")
def corpus(world: World) -> dict[str, Case]:
    return {c.name: c for c in build(world.signer)}


def message_id(raw: bytes) -> str | None:
    value = BytesHeaderParser(policy=policy.compat32).parsebytes(raw).get("Message-ID")
    return str(value).strip() if value else None


def orders_entries(root: Path, game: str = "demo-1") -> list[replay.Entry]:
    return [e for e in GameDir.open(root / game).log.entries if e.kind == replay.ORDERS]


def kind_of(msg) -> str:
    subject = str(msg["Subject"])
    if "Orders received" in subject:
        return "receipt"
    if "Orders rejected" in subject:
        return "rejection"
    return "html-only" if "plain text" in text_of(msg).lower() else subject.strip()


def check_receipt(root: Path, msg, in_reply_to: str | None, entry: replay.Entry) -> None:
    """A receipt: threaded, restating the orders, carrying a signature the referee key checks."""
    assert msg["In-Reply-To"] == in_reply_to
    assert in_reply_to in str(msg["References"]).split()
    assert msg["Auto-Submitted"] == "auto-replied"
    words = " ".join(text_of(msg).split())
    depart = entry.body["orders"]["depart"]
    assert (f"Departure: warp 1 from {depart['from']} with 5 ships to a secret destination, "
            f"commitment {depart['commitment'][:12]}") in words
    [keepsake] = [p for p in msg.iter_attachments() if p.get_filename() == "receipt.txt"]
    text = keepsake.get_content()
    head, sig = re.fullmatch(r"pbem-receipt (.*)\n sig=([0-9a-f]+)\n?", text).groups()
    fields: dict[str, object] = dict(kv.split("=", 1) for kv in head.split())
    fields["turn"], fields["seq"] = int(fields["turn"]), int(fields["seq"])
    assert fields == {"game": entry.body["orders"] and root.joinpath("demo-1").name,
                      "power": entry.body["power"], "turn": entry.body["turn"],
                      "seq": entry.body["seq"], "sha256": entry.body["sha256"],
                      "received": "2026-12-01T05:00:00Z"}
    referee_public(root).verify(accept.RECEIPT_DOMAIN, accept.RECEIPT_TYPE,
                                canonical.encode(fields), bytes.fromhex(sig))


def check_reply_headers(msg) -> None:
    """Nothing of an incoming subject reaches our headers: one To, no Cc/Bcc, no CR/LF."""
    assert msg.get_all("Bcc") is None and msg.get_all("Cc") is None
    assert len(getaddresses(msg.get_all("To"))) == 1
    for name, value in msg.items():
        assert "\r" not in str(value) and "\n" not in str(value), name
    assert "victim" not in str(msg["Subject"]) and "Bcc" not in str(msg["Subject"])
    assert str(msg["Subject"]).startswith("[")


def test_expected_table_covers_the_whole_corpus(corpus: dict[str, Case]) -> None:
    assert set(EXPECTED) == set(corpus)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_corpus_case_alone(name: str, world: World, corpus: dict[str, Case],
                           tmp_path: Path) -> None:
    case, want = corpus[name], EXPECTED[name]
    root = world.clone(tmp_path / "root")
    box = maildir(tmp_path / "Maildir")
    before = tree(tmp_path)
    deliver(box, name, case.raw)
    report = ingest_maildir(root, box)

    assert report.messages == 1 and report.pending == 0
    assert tuple(v.verdict for v in report.verdicts) == want.verdicts
    codes = tuple(p.code for v in report.verdicts for p in v.problems)
    assert codes == want.codes
    [record] = done_records(root).values()
    quarantined = Inbox(root).quarantined()
    if want.quarantine:
        assert record["outcome"] == "quarantined"
        [(_sha, reason)] = quarantined
        assert want.quarantine in reason
    else:
        assert not quarantined and record["outcome"] != "quarantined"

    mails = queued(root)
    assert tuple((g, str(m["To"]), kind_of(m)) for g, m in mails) == want.mails
    accepted = [e for e in orders_entries(root) if e.body["turn"] == 3]
    assert len(accepted) == want.verdicts.count("accepted")
    for game, msg in mails:
        check_reply_headers(msg)
        assert msg["In-Reply-To"] == message_id(case.raw)
        if kind_of(msg) == "receipt":
            [entry] = [e for e in accepted if registered(e.body["power"]) == msg["To"]]
            assert entry.body["message_id"] == message_id(case.raw)
            check_receipt(root, msg, message_id(case.raw), entry)
        else:
            assert game in ("demo-1", "finished-1")
            words = " ".join(text_of(msg).split())
            assert "NOT accepted" in words
            for problem in (p for v in report.verdicts for p in v.problems):
                assert " ".join(problem.message.split()) in words

    # Nothing written outside the store and the Maildir; no attachment name used as a path.
    after = tree(tmp_path)
    new = set(after) - set(before)
    assert all(p.startswith(("root/", "Maildir/")) for p in new), sorted(new)
    assert not [p for p in after if Path(p).name in ("x.yaml", "passwd.yaml")
                or "gpj" in p or "Bcc" in p]
    assert not [p for p in new if p.startswith("root/") and not p.startswith((
        "root/inbox/", "root/quarantine/", "root/.pbem-index/",  # the root index (a cache)
        "root/.pbem-run/jinja/",  # compiled templates (a cache: pbem.host.templatecache)
        "root/demo-1/outbox/", "root/demo-1/submissions/",
        "root/finished-1/outbox/", "root/finished-1/submissions/"))
        and p not in ("root/demo-1/log.jsonl", "root/demo-1/state.json")]
    assert not list((box / "new").iterdir())

    # Again: nothing. Redelivered (a new Maildir file, same bytes): recognised, nothing twice.
    assert ingest_maildir(root, box).messages == 0
    deliver(box, name + "-again", case.raw)
    again = ingest_maildir(root, box)
    assert again.messages == 1 and again.duplicates == 1 and not again.verdicts
    assert len(queued(root)) == len(mails)
    assert len([e for e in orders_entries(root) if e.body["turn"] == 3]) == len(accepted)


def test_whole_corpus_through_pbem_ingest_subprocess(world: World, corpus: dict[str, Case],
                                                     tmp_path: Path) -> None:
    """All cases in one Maildir, one `pbem ingest --maildir` process: exit 0, every message
    stored and recorded, mail only to registered addresses, nothing handled twice."""
    root = world.clone(tmp_path / "root")
    box = maildir(tmp_path / "Maildir")
    for i, case in enumerate(corpus.values()):
        deliver(box, f"{1000 + i}.{case.name}", case.raw)
    done = ingest_cli(root, "--maildir", str(box))
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode()
    quarantined = sum(1 for o in EXPECTED.values() if o.quarantine)
    assert out.startswith(f"{len(corpus)} message(s): ")
    assert f"{quarantined} quarantined, 0 left for the next run" in out.splitlines()[0]
    assert len(done_records(root)) == len(corpus)
    assert len(Inbox(root).quarantined()) == quarantined
    assert not list((box / "new").iterdir())
    assert all(":2,S" in p.name for p in (box / "cur").iterdir())

    mails = queued(root)
    assert mails, "receipts and rejections were queued"
    for game, msg in mails:
        to = {a.lower() for _, a in getaddresses(msg.get_all("To"))}
        config = GameDir.open(root / game).config
        assert to <= {p.email.lower() for p in config.powers.values()}
        assert not to & STRANGERS
    log_before = (root / "demo-1" / "log.jsonl").read_bytes()
    again = ingest_cli(root, "--maildir", str(box))
    assert again.returncode == 0 and again.stdout.decode().startswith("0 message(s)")
    assert (root / "demo-1" / "log.jsonl").read_bytes() == log_before
    assert len(queued(root)) == len(mails)


# -- beyond the corpus ---------------------------------------------------------------------------


def run_one(world: World, tmp_path: Path, *mails: bytes):
    root = world.clone(tmp_path / "root")
    box = maildir(tmp_path / "Maildir")
    for i, raw in enumerate(mails):
        deliver(box, f"{i:03d}", raw)
    return root, ingest_maildir(root, box)


@pytest.mark.parametrize("signer", ["another power's key", "a fresh key"])
def test_order_signed_with_an_unregistered_key_is_reported_to_the_claimed_power(
        signer: str, world: World, tmp_path: Path) -> None:
    import yaml

    key = world.demo.keys["pavo"] if signer.startswith("another") else PrivateKey.generate()
    doc = {"pbem": 1, "game": "demo-1", "power": "algol", "turn": 3, "seq": 50,
           "instance": instance_of(world.root / "demo-1"), "orders": {}}
    text = sign_orders(yaml.safe_dump(doc, sort_keys=False), key)
    raw = order_mail(text, msgid="<wrong-key@evil.example>", sender="forger@evil.example")
    root, report = run_one(world, tmp_path, raw)
    [verdict] = report.verdicts
    assert verdict.verdict == "rejected" and verdict.problems
    [(game, msg)] = queued(root)
    assert (game, msg["To"], kind_of(msg)) == ("demo-1", ALGOL, "rejection")
    assert msg["In-Reply-To"] == "<wrong-key@evil.example>"
    assert not [e for e in orders_entries(root) if e.body["turn"] == 3]


def test_forged_from_with_a_tampered_order_is_reported_to_the_registered_address_only(
        world: World, tmp_path: Path) -> None:
    text = world.sign("algol").replace("ships: 5", "ships: 9")
    raw = order_mail(text, msgid="<tampered@evil.example>", sender="forger@evil.example")
    root, report = run_one(world, tmp_path, raw)
    assert [v.verdict for v in report.verdicts] == ["rejected"]
    [(_game, msg)] = queued(root)
    assert msg["To"] == ALGOL and kind_of(msg) == "rejection"
    assert "forger" not in "".join(f"{k}{v}" for k, v in msg.items())


def test_every_problem_of_a_rejected_file_is_listed(world: World, tmp_path: Path) -> None:
    body = {"depart": {"warp": 1, "from": "Pavo", "ships": 500, "commitment": "ab" * 32},
            "bogus": 1, "permit": "nobody"}
    raw = order_mail(world.sign("algol", body), msgid="<many@example.org>")
    root, report = run_one(world, tmp_path, raw)
    [verdict] = report.verdicts
    assert verdict.verdict == "rejected" and len(verdict.problems) >= 3
    [(_game, msg)] = queued(root)
    words = " ".join(text_of(msg).split())
    assert f"{len(verdict.problems)} problem" in str(msg["Subject"])
    for problem in verdict.problems:
        assert f"{problem.path}: {' '.join(problem.message.split())}" in words


def test_replays_in_the_same_turn_and_resends_in_one_batch(world: World, tmp_path: Path) -> None:
    """seq 60 accepted, then seq 59: superseded (issue 27: not the player's error, answered
    once); the seq-60 mail resent in the same batch is a duplicate; an older file sent again
    after a newer one (superseded too), and a rejected file sent twice, in the same batch (same
    received time) are judged and answered, not a crash of ingest."""
    newer = world.sign("algol", seq=60)
    older = world.sign("algol", seq=59)
    low = world.sign("algol", seq=58)
    bad = world.sign("algol", {"bogus": 1}, seq=61)
    mails = [order_mail(low, msgid="<low@x>"), order_mail(newer, msgid="<newer@x>"),
             order_mail(older, msgid="<older@x>"), order_mail(newer, msgid="<newer-again@x>"),
             order_mail(low, msgid="<low-again@x>"), order_mail(bad, msgid="<bad@x>"),
             order_mail(bad, msgid="<bad-again@x>")]
    root, report = run_one(world, tmp_path, *mails)
    assert [v.verdict for v in report.verdicts] == [
        "accepted", "accepted", "superseded", "duplicate", "superseded", "rejected", "rejected"]
    assert [p.code for v in report.verdicts for p in v.problems] == [
        "superseded", "superseded", "unknown-key", "unknown-key"]
    standing = GameDir.open(root / "demo-1").log.summary.standing["algol"]
    assert standing["seq"] == 60
    kinds = [(str(m["In-Reply-To"]), kind_of(m)) for _, m in queued(root)]
    assert sorted(kinds) == sorted([
        ("<low@x>", "receipt"), ("<newer@x>", "receipt"),
        ("<older@x>", "[demo-1] Orders for Algol, turn 3: seq 59 came after seq 60 (superseded)"),
        ("<low-again@x>",
         "[demo-1] Orders for Algol, turn 3: seq 58 came after seq 60 (superseded)"),
        ("<bad@x>", "rejection"), ("<bad-again@x>", "rejection")])
    assert len(done_records(root)) == len(mails)


def test_html_only_from_a_registered_player_gets_one_polite_reply(
        world: World, corpus: dict[str, Case], tmp_path: Path) -> None:
    raw = corpus["html-only"].raw.replace(b"vega@players.example", ALGOL.encode())
    root, report = run_one(world, tmp_path, raw)
    assert not report.verdicts
    [(game, msg)] = queued(root)
    assert (game, msg["To"]) == ("demo-1", ALGOL)
    assert msg["In-Reply-To"] == "<html-only@players.example>"
    assert "plain text" in text_of(msg).lower()
    assert msg["Auto-Submitted"] == "auto-replied"


def test_damaged_signature_claiming_a_game_outside_the_root_touches_nothing_there(
        world: World, tmp_path: Path) -> None:
    """The claim of an unverified block names a game directory: ``../elsewhere/demo-1`` must
    not be looked up (it used to be: a lock file and a rejection mail were written there)."""
    elsewhere = world.clone(tmp_path / "elsewhere")
    before = tree(elsewhere)
    text = world.sign("algol").replace("game: demo-1", "game: ../elsewhere/demo-1")
    abs_text = world.sign("algol").replace("game: demo-1", f"game: {elsewhere / 'demo-1'}")
    root, report = run_one(world, tmp_path, order_mail(text, msgid="<t1@x>"),
                           order_mail(abs_text, msgid="<t2@x>"))
    assert [v.verdict for v in report.verdicts] == ["rejected", "rejected"]
    assert tree(elsewhere) == before
    assert not queued(root)


def test_our_own_mail_coming_back_is_never_answered(world: World, tmp_path: Path) -> None:
    root, report = run_one(world, tmp_path, order_mail(world.sign("algol"), msgid="<o@x>"))
    [(_game, receipt_mail)] = queued(root)
    box = maildir(tmp_path / "Maildir")
    deliver(box, "reflected", receipt_mail.as_bytes())
    stripped = parse(receipt_mail.as_bytes())  # a client that drops Auto-Submitted on forward
    del stripped["Auto-Submitted"], stripped["List-Id"], stripped["Message-ID"]
    stripped["Message-ID"] = "<forwarded-copy@example.org>"
    deliver(box, "stripped", stripped.as_bytes())
    again = ingest_maildir(root, box)
    assert again.quarantined == 2 and not again.verdicts
    reasons = sorted(reason for _sha, reason in Inbox(root).quarantined())
    assert "Auto-Submitted: auto-replied" in reasons[0] + reasons[1]
    assert "referee's own address" in reasons[0] + reasons[1]
    assert len(queued(root)) == 1


def test_outlook_style_qp_with_a_real_signature_is_accepted(world: World,
                                                            tmp_path: Path) -> None:
    """Every hard CR LF escaped as =0D=0A, long lines broken with soft breaks (what the corpus'
    qp-escaped-crlf means to send; its builder also escapes the soft breaks)."""
    import quopri

    text = world.sign("algol")
    lines = quopri.encodestring(text.replace("\n", "\r\n").encode()).split(b"\n")
    # A line ending in "=" is a soft break (a literal "=" is "=3D"): only hard ends are escaped.
    body = b"\r\n".join(line[:-1] + b"=0D=0A=" if line.endswith(b"\r")
                        and not line.endswith(b"=\r") else line.rstrip(b"\r") for line in lines)
    assert b"==0D" not in body and b"=3D=3D=0D=0A=" in body
    raw = (b"From: algol@example.org\r\nTo: referee@example.org\r\nSubject: orders\r\n"
           b"Message-ID: <outlook@example.org>\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: text/plain; charset=utf-8\r\n"
           b"Content-Transfer-Encoding: quoted-printable\r\n\r\n" + body)
    root, report = run_one(world, tmp_path, raw)
    assert [v.verdict for v in report.verdicts] == ["accepted"]
    [(_game, msg)] = queued(root)
    assert msg["To"] == ALGOL and kind_of(msg) == "receipt"


def test_maildir_ingest_cli_reports_now(world: World, tmp_path: Path) -> None:
    """The --now of the command line is the receipt time recorded in the log."""
    raw = order_mail(world.sign("algol"), msgid="<now@example.org>")
    root = world.clone(tmp_path / "root")
    box = maildir(tmp_path / "Maildir")
    deliver(box, "one", raw)
    done = ingest_cli(root, "--maildir", str(box), now=NOW)
    assert done.returncode == 0, done.stderr.decode()
    assert "accepted: demo-1/algol turn 3" in done.stdout.decode()
    [entry] = [e for e in orders_entries(root) if e.body["turn"] == 3]
    assert entry.body["received"] == "2026-12-01T05:00:00Z"
