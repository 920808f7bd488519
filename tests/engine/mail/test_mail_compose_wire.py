"""``compose_wire`` (the one composer: ``compose`` parses its bytes) builds the message the email
package builds: parsed back, ``compose_wire``'s bytes and the email package's ``EmailMessage``
made from the same arguments (``reference``, below: the composer pbem used before) give the
same headers, MIME tree, transfer encodings and decoded contents."""

from __future__ import annotations

import base64
import binascii
import email
import itertools
import random
import string
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses

import pytest

from pbem.game import registry
from pbem.mail.compose import (
    Attachment,
    _address_pairs,
    _headers,
    compose,
    compose_wire,
    header_safe,
    make_msgid,
    to_bytes,
)
from pbem.mail.outbox_entry import prepare
from pbem.mail.plainheaders import fold_words as _fold_words
from pbem.mail.plainheaders import starts_on_the_name_line as _starts_on_the_name_line
from pbem.mail.wire import _DIRECT, _base64_lines, _fold, header_line, text_part
from pbem.render import mails
from tests.support import conformance


def reference(*, sender, to, subject, text, date, domain, auto_submitted, html=None,
              attachments=(), in_reply_to=None, references=(), game=None,
              extra_headers=()) -> EmailMessage:
    """The message as the email package composes it from the same headers (``_headers``):
    the oracle compose_wire is held to."""
    msg = EmailMessage(policy=policy.SMTP)
    for name, value in _headers(sender, to, subject, date, domain, auto_submitted,
                                in_reply_to, references, game, extra_headers):
        if name == "Subject" and isinstance(value, str) and _starts_on_the_name_line(value):
            msg.set_raw(name, _fold_words(name, value).decode("ascii")[len(name) + 2:]
                        .removesuffix("\r\n").replace("\r\n", "\n"))
        else:
            msg[name] = value
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for item in attachments:
        msg.add_attachment(item.content, maintype=item.maintype, subtype=item.subtype,
                           filename=item.filename)
    return msg

DATE = datetime(2026, 12, 1, 18, 30, tzinfo=UTC)
LONG = "word " * 30
CASES = {
    "text only": {"text": "Hello.\n"},
    "no final newline": {"text": "Hello."},
    "empty text": {"text": ""},
    "html alternative": {"text": "Hi\n", "html": "<p>Hi</p>\n"},
    "attachments": {"text": "Hi\n", "html": "<p>Hi</p>", "attachments": [
        Attachment("view.json", b'{"a": 1}\n', "application", "json"),
        Attachment("map.svg", b"<svg>" + b"x" * 500 + b"</svg>", "image", "svg+xml"),
        Attachment("checkpoint.txt", "pbem-checkpoint ✓\n".encode(), "text", "plain"),
        Attachment("empty.bin", b""),
    ]},
    "attachments without html": {"text": "Hi\n", "attachments": [
        Attachment("view.json", b"{}\n", "application", "json")]},
    "non-ascii short lines (8bit)": {"text": "Déjà vu — ✓\n", "html": "<p>é</p>"},
    "long ascii lines (quoted-printable)": {"text": f"{LONG}\n{LONG}= end \n",
                                            "html": f"<p>{LONG}</p>\n"},
    "long non-ascii lines": {"text": ("é" * 60 + "\n") * 12, "html": "<p>" + "✓" * 200},
    "spaces at line ends": {"text": "a  \n" + "b " * 50 + " \n"},
    "subject and names": {"subject": "Tour 3 — rapport « spécial » " + "long " * 30,
                          "sender": "Référée du jeu <referee@pbem.example>",
                          "to": ["Pavo, the First <pavo@players.example>",
                                 "algol@players.example"]},
    "reply threading": {"in_reply_to": "<abc@players.example>",
                        "references": ["<x@y.example>", "bad id"],
                        "extra_headers": [("X-Pbem-Turn", "3\r\nBcc: evil@x.example")]},
}


def build(fn, case: dict) -> object:
    args = {"sender": "pbem referee <referee@pbem.example>", "to": "vega@players.example",
            "subject": "[g1] Turn 3 report", "text": "", "date": DATE, "domain": "pbem.example",
            "auto_submitted": "auto-generated", "game": "g1", **case}
    return fn(**args)


def tree(msg: EmailMessage) -> list[tuple]:
    out = []
    for part in msg.walk():
        row = (part.get_content_type(), part.get_filename(), part["Content-Transfer-Encoding"]
               if not part.is_multipart() else None)
        if not part.is_multipart():
            content = part.get_content()
            row += (content if isinstance(content, bytes) else content.replace("\r\n", "\n"),)
        out.append(row)
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_wire_bytes_parse_as_the_composed_message(name: str) -> None:
    case = CASES[name]
    slow = email.message_from_bytes(to_bytes(build(reference, case)), policy=policy.default)
    wire = build(compose_wire, case)
    fast = email.message_from_bytes(wire.raw, policy=policy.default)
    assert not fast.defects and all(not p.defects for p in fast.walk())
    names = sorted(slow)  # the order of headers carries no meaning; their set and values do
    assert sorted(fast) == names
    for key in names:
        if key == "Content-Type":  # the boundary is random
            assert fast.get_content_type() == slow.get_content_type()
        elif key not in ("Message-ID", "Content-Transfer-Encoding"):  # (encodings: below)
            assert str(fast[key]) == str(slow[key]), key
    # The same parts with the same decoded contents (the bytes of every attachment exactly) ...
    assert [r[:2] + r[3:] for r in tree(fast)] == [r[:2] + r[3:] for r in tree(slow)]
    # ... each part no longer than the email package writes it: unencoded text where its
    # lines fit in 998 bytes (it encodes any line over 78), attachments in base64 as it does.
    leaves = [(a, b) for a, b in zip(fast.walk(), slow.walk(), strict=True)
              if not a.is_multipart()]
    for a, b in leaves:
        assert len(a.get_payload()) <= len(b.get_payload()), (a.get_content_type(),
                                                              a["Content-Transfer-Encoding"])
        if a.get_content_maintype() == "text" and a.get_filename() is None:
            fits = all(len(line) <= 998 for line in a.get_content().encode().splitlines())
            assert a["Content-Transfer-Encoding"] in (("7bit", "8bit") if fits else
                                                      ("base64", "quoted-printable"))
    # compose() is these bytes, parsed.
    composed = build(compose, case)
    assert tree(composed) == tree(email.message_from_bytes(wire.raw, policy=policy.SMTP))
    # The envelope the outbox would have read from the headers.
    raw, sender, recipients, message_id = prepare(wire.raw, None, None)
    assert (wire.sender, list(wire.recipients), wire.message_id) == (sender, recipients,
                                                                     message_id)
    assert message_id == str(fast["Message-ID"]) and message_id.endswith("@pbem.example>")
    lines = wire.raw.split(b"\r\n")
    assert b"\n" not in wire.raw.replace(b"\r\n", b"") and b"\r" not in wire.raw.replace(
        b"\r\n", b"")
    assert max(len(line) for line in lines) <= 998
    assert wire.raw.endswith(b"\r\n")


def test_unusual_attachment_names_are_refused() -> None:
    with pytest.raises(ValueError, match="plain file name"):
        build(compose_wire, {"attachments": [Attachment('a"b.txt', b"x")]})


def test_naive_date_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        build(compose_wire, {"date": datetime(2026, 12, 1)})


def _outcome(fn, name: str, value: str) -> bytes | str:
    try:
        return fn(name, value)
    except Exception as exc:  # the stdlib parser raises on some garbage: the same either way
        return repr(exc)


def _reference(name: str, value: str) -> bytes:
    """The line the reference writes: the email package's fold, except a long plain Subject,
    which is folded greedily from its own line (no fold right after "Subject:")."""
    if name == "Subject" and _starts_on_the_name_line(value):
        msg = reference(sender="r@x.org", to="p@x.org", subject=value, text="x",
                      date=datetime(2026, 12, 1, tzinfo=UTC), domain="x.org",
                      auto_submitted="auto-generated")
        raw = msg.as_bytes(policy=policy.SMTP)
        start = raw.index(b"\r\nSubject:") + 2
        end = raw.index(b"\r\nDate:", start) + 2
        line = raw[start:end]
        assert not line.startswith(b"Subject:\r\n"), line
        assert line.replace(b"\r\n ", b" ") == f"Subject: {value}\r\n".encode(), line
        return line
    return _fold(name, value)


def test_headers_written_directly_are_what_the_email_package_writes() -> None:
    """The header fast path (short plain ASCII written as ``name: value``) gives the same line
    as the email package's header classes, for random values of every header it covers:
    plain text, well-formed and broken message ids, bare and odd addresses, lengths around
    the 78-byte fold."""
    rng = random.Random(17)
    printable = string.ascii_letters + string.digits + " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~  "
    atom = string.ascii_letters + string.digits + "!#$%&'*+/=?^_`{|}~-."

    def text(chars: str, low: int, high: int) -> str:
        return "".join(rng.choice(chars) for _ in range(rng.randint(low, high)))

    def msgid() -> str:
        return f"<{text(atom, 1, 20)}@{text(string.ascii_lowercase + '.-', 1, 20)}>"

    direct = 0
    for name in _DIRECT:
        header = name.title().replace("Id", "ID") if name.endswith("-id") else name.title()
        for i in range(1500):
            value = text(printable, 0, 90)
            if name == "to" and i % 2:
                value = f"{text(string.ascii_lowercase + '._+', 1, 20)}@" \
                        f"{text(string.ascii_lowercase + '.-', 1, 20)}"
            elif name in ("message-id", "in-reply-to") and i % 2:
                value = msgid() if i % 4 == 1 else make_msgid(domain="x" * (i % 60) + ".org")
            elif name == "references" and i % 2:
                value = " ".join(msgid() for _ in range(1 + i % 3))
            fast = _outcome(header_line, header, value)
            assert fast == _outcome(_reference, header, value), (header, value)
            direct += fast == f"{header}: {value}\r\n".encode("ascii", "replace")
    assert direct > 2000  # the fast path was taken, not only the fallback


def test_dates_written_directly_are_what_the_email_package_writes() -> None:
    """The Date fast path: every date compose_wire writes (format_datetime of an aware date:
    any year, offsets of whole minutes, seconds or none), and near misses (a wrong weekday, a
    two-digit year, a "-0000" zone, an offset of 99 minutes), give the email package's line."""
    rng = random.Random(23)
    direct = 0
    for i in range(3000):
        offset = timedelta(minutes=rng.randint(-23 * 60 - 59, 23 * 60 + 59))
        if i % 10 == 0:
            offset += timedelta(seconds=rng.randint(1, 59))
        when = datetime(rng.choice([1, 99, 100, 999, 1000, 1969, 2026, 9999]),
                        rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                        rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 999_999),
                        tzinfo=timezone(offset))
        value = format_datetime(when)
        if i % 7 == 1:
            value = value.replace(value[:3], rng.choice(["Mon", "Tue", "Sun"]))
        elif i % 7 == 2:
            value = value[:-5] + rng.choice(["-0000", "+0099", "+2400", "GMT", "+0000"])
        elif i % 7 == 3:
            value = value.replace(f" {when.year:04d} ", f" {when.year % 100:02d} ")
        fast = _outcome(header_line, "Date", value)
        assert fast == _outcome(_fold, "Date", value), value
        direct += fast == f"Date: {value}\r\n".encode("ascii")
    assert direct > 1000


def test_long_plain_headers_are_folded_as_the_email_package_folds_them() -> None:
    """The fold fast path of Subject, References and List-Id (plain words too long for one
    line) gives the email package's lines: words of every length up to and past a line, word
    counts around the 78-byte limit, message ids, stray spaces and encoded-word look-alikes."""
    rng = random.Random(29)
    chars = string.ascii_letters + string.digits + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
    folded = 0
    for i in range(4000):
        name = ("Subject", "References", "List-Id")[i % 3]
        words = ["".join(rng.choice(chars) for _ in range(rng.choice(
            [1, 2, 5, 12, 30, 40, 60, 70, 75, 76, 77, 78, 90]))) for _ in range(rng.randint(1, 8))]
        if name == "References" and i % 2:
            words = [f"<{w.strip('<>') or 'x'}@players.example>" for w in words]
        value = " ".join(words)
        if i % 17 == 0:
            value = value.replace(" ", "  ", 1) if " " in value else " " + value
        elif i % 19 == 0:
            value += " =?utf-8?q?x?="
        fast = _outcome(header_line, name, value)
        assert fast == _outcome(_reference, name, value), (name, value)
        folded += b"\r\n " in fast if isinstance(fast, bytes) else 0
    assert folded > 1500


def test_bare_addresses_are_what_getaddresses_reads() -> None:
    """The envelope's fast path for one bare address gives getaddresses' own pairs, for bare
    addresses and near misses (dots, display names, quotes, comments, routes)."""
    rng = random.Random(31)
    chars = string.ascii_letters + string.digits + "._%+-@<>\"() ,;:[]!#"
    for i in range(3000):
        value = "".join(rng.choice(chars) for _ in range(rng.randint(1, 30)))
        if i % 3 == 0:
            local = "".join(rng.choice(string.ascii_letters + "._%+-") for _ in range(8))
            value = f"{local}@{rng.choice(['x.example', 'x', 'a-b.c-d.org', '.x', 'x.'])}"
        assert _address_pairs((value,)) == tuple(getaddresses([value])), value
    assert _address_pairs(("vega@players.example",)) == (("", "vega@players.example"),)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 56, 57, 58, 75, 76, 77, 114, 1000, 24_161,
                                  # whole runs of lines (256, 32, 4, 1) and beside them
                                  14_535, 14_592, 14_593, 16_701, 16_702, 31_065, 300_001])
def test_base64_parts_are_what_encodebytes_writes(size: int) -> None:
    """Attachments and long HTML are encoded in one call and cut into lines: the same bytes as
    the email package's encoder (base64.encodebytes, 76-character lines) with CRLF ends."""
    data = random.Random(size).randbytes(size)
    assert _base64_lines(data) == base64.encodebytes(data).replace(b"\n", b"\r\n")


def test_non_ascii_unstructured_headers_decode_to_their_text() -> None:
    """Unstructured headers holding non-ASCII text (every report's Subject has a dash and may
    hold a player's name) are written as RFC 2047 encoded words by compose itself: parsed by
    the email package, each decodes to the text given, as the email package's own fold of it
    would have it, with every line within 78 characters; values it cannot write so (a word too
    long for a line, an encoded-word look-alike) are folded by the email package."""
    rng = random.Random(37)
    alphabet = (string.ascii_letters + string.digits + "!\"#$%&'()*+,-./:;<>@[\\]^_`{|}~?="
                + "éàüßçñøÆ—–«»“”…✓★☃€日本語한국어😀🎲\u0301\u00a0")
    written = 0
    for i in range(3000):
        name = ("Subject", "List-Id", "X-Pbem-Turn")[i % 3]
        words = ["".join(rng.choice(alphabet) for _ in range(rng.choice(
            [1, 2, 3, 8, 20, 40, 70, 80]))) for _ in range(rng.randint(1, 9))]
        value = header_safe(" ".join(words), limit=900)
        if not value or value.isascii():
            continue
        line = header_line(name, value)
        if line == _fold(name, value):
            continue  # (whose decoding is the email package's affair: it may lose a space)
        parsed = email.message_from_bytes(line + b"\r\nbody\r\n", policy=policy.default)
        assert not parsed.defects, (name, value, line)
        assert str(parsed[name]) == value, (value, line)
        assert all(len(x) <= 78 for x in line.split(b"\r\n")), line
        written += 1
    assert written > 1500  # compose wrote them, not only the email package


def _game_mails() -> list[tuple[str, object]]:
    """Real mails of every game: each power's turn report and the game master's summary of
    the first steps of a game played on standing orders (tests/support/conformance.py)."""
    out = []
    for game in registry.available():
        plugin = registry.load(game)
        variant = next(iter(plugin.variants()))
        renderer = mails.Renderer(plugin.id)
        for before, result in itertools.islice(conformance.play(plugin, variant, 3), 3):
            for power in renderer.view(plugin, result.state, None)["powers"]:
                out.append((game, mails.turn_report(
                    renderer, plugin, before, result.state, result.events, [power],
                    {"name": f"Ünïcode {power}", "email": f"{power}@players.example"},
                    conformance.GAME)))
            out.append((game, mails.gm_summary(renderer, plugin, before, result.state,
                                               result.events, conformance.GAME)))
    return out


def test_real_mails_of_every_game_parse_as_the_email_package_composes_them() -> None:
    """Every game's real turn reports and game master's summaries (text, HTML, the view JSON,
    the SVG map and whatever else a game attaches): compose_wire's bytes, parsed, are the
    message the email package composes from the same parts (``reference``): the same
    headers, the same MIME tree and the same decoded contents, smaller in all."""
    made = _game_mails()
    sizes = [0, 0]  # (compose_wire, the email package): the parts' bytes
    assert {game for game, _ in made} == set(registry.available())
    for game, mail in made:
        case = {"subject": mail.subject, "text": mail.text, "html": mail.html or None,
                "to": f"Ünïcode {game} <p@players.example>",
                "attachments": [Attachment(n, d, *t.split("/", 1))
                                for n, t, d in mail.attachments]}
        slow = email.message_from_bytes(to_bytes(build(reference, case)), policy=policy.default)
        fast = email.message_from_bytes(build(compose_wire, case).raw, policy=policy.default)
        assert not fast.defects and all(not p.defects for p in fast.walk()), game
        assert sorted(fast) == sorted(slow), game
        for key in sorted(slow):
            if key not in ("Message-ID", "Content-Type", "Content-Transfer-Encoding"):
                assert str(fast[key]) == str(slow[key]), (game, key)
        assert [r[:2] + r[3:] for r in tree(fast)] == [r[:2] + r[3:] for r in tree(slow)], game
        for a, b in zip(fast.walk(), slow.walk(), strict=True):
            assert a.get_content_type() == b.get_content_type(), game
            if not a.is_multipart():
                # (binascii's quoted-printable breaks a long line at a space where it can,
                # the email package's anywhere: a few bytes either way)
                assert len(a.get_payload()) <= len(b.get_payload()) * 1.01 + 16, (
                    game, a.get_filename(), a["Content-Transfer-Encoding"])
                sizes[0] += len(a.get_payload())
                sizes[1] += len(b.get_payload())
    assert sizes[0] < sizes[1]  # smaller mail in all


def test_text_with_long_lines_takes_the_shorter_encoding() -> None:
    """A text part with a line over 998 bytes is quoted-printable or base64, whichever is
    shorter on the wire (both computed here the plain way), for texts from plain ASCII
    markup to mostly non-ASCII; and it decodes to the text."""
    rng = random.Random(41)
    chosen = set()
    for i in range(300):
        share = i / 300  # the share of characters needing an escape in quoted-printable
        chars = [rng.choice("é=✓\t") if rng.random() < share else rng.choice(string.ascii_letters
                 + " <>/\"") for _ in range(rng.randint(1000, 4000))]
        text = "".join(chars) + "\nshort line\n"
        part = text_part("html", text)
        head, _, body = part.partition(b"\r\n\r\n")
        data = text.encode()
        qp = binascii.b2a_qp(data, istext=True).replace(b"\n", b"\r\n")
        b64 = base64.encodebytes(data).replace(b"\n", b"\r\n")
        cte = "quoted-printable" if len(qp) <= len(b64) else "base64"
        assert f"Content-Transfer-Encoding: {cte}".encode() in head, i
        assert body == (qp if cte == "quoted-printable" else b64), i
        parsed = email.message_from_bytes(part, policy=policy.default)
        assert parsed.get_content().replace("\r\n", "\n") == text, i
        chosen.add(cte)
    assert chosen == {"quoted-printable", "base64"}


def test_text_parts_that_fit_are_their_lines_with_crlf() -> None:
    """A text part whose lines all fit in 998 bytes is its lines as bytes.splitlines cuts them
    (LF, CR or CRLF), each ended by CRLF: found without cutting it where it has no CR, the
    same bytes; a line of 999 bytes or more (at the start, the end or between) is encoded."""
    rng = random.Random(7)
    pieces = ["a", "é", "\n", "\n", "\r", "\r\n", "x" * 300, "y" * 998, "z" * 999, "✓" * 333]
    texts = ["", "\n", "a", "a\n", "a\n\n", "x" * 998, "x" * 999, "\n" + "x" * 999, "é" * 499]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(12))) for _ in range(2000)]
    for text in texts:
        lines = text.encode().splitlines()
        head, _, body = text_part("plain", text).partition(b"\r\n\r\n")
        if max(map(len, lines), default=0) <= 998:
            assert body == b"\r\n".join(lines) + b"\r\n", repr(text[:40])
            cte = "7bit" if text.isascii() else "8bit"
            assert head.endswith(f"Content-Transfer-Encoding: {cte}".encode()), repr(text[:40])
        else:
            assert b"7bit" not in head and b"8bit" not in head, repr(text[:40])
