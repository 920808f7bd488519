"""Stdin, Maildir and mbox sources: store first, ack after, never handed out twice."""

from __future__ import annotations

import io
import mailbox
import os
from pathlib import Path

import pytest

from pbem.mail.errors import EX_TEMPFAIL, MailConfigError, TransientMailError
from pbem.mail.security import Credentials, check_security, is_loopback
from pbem.mail.sources import MaildirSource, MboxSource, StdinSource


def message(n: int) -> bytes:
    return (
        f"From: p{n}@players.example\r\nTo: referee@pbem.example\r\nSubject: m{n}\r\n"
        f"Message-ID: <m{n}@players.example>\r\n\r\nbody {n}\r\n"
    ).encode()


# -- stdin ------------------------------------------------------------------------------------


def test_stdin_yields_one_message() -> None:
    source = StdinSource(io.BytesIO(message(1)))
    (incoming,) = list(source.messages())
    assert incoming.raw == message(1) and not incoming.truncated
    assert incoming.id.startswith("stdin:")
    source.ack(incoming.id)


def test_stdin_empty_yields_nothing() -> None:
    assert list(StdinSource(io.BytesIO(b"")).messages()) == []


def test_stdin_over_the_cap_is_truncated_and_drained() -> None:
    stream = io.BytesIO(message(1) + b"x" * 5000)
    (incoming,) = list(StdinSource(stream, max_bytes=1000).messages())
    assert incoming.truncated and len(incoming.raw) == 1000
    assert stream.read() == b""  # the MTA sees everything consumed, not a broken pipe


class BrokenStream(io.RawIOBase):
    def read(self, size: int = -1) -> bytes:
        raise OSError(5, "Input/output error")


def test_stdin_read_error_is_transient_exit_75() -> None:
    with pytest.raises(TransientMailError) as info:
        list(StdinSource(BrokenStream()).messages())  # type: ignore[arg-type]
    assert info.value.exit_code == EX_TEMPFAIL == 75


# -- Maildir ----------------------------------------------------------------------------------


def make_maildir(path: Path) -> Path:
    for sub in ("new", "cur", "tmp"):
        (path / sub).mkdir(parents=True)
    return path


def test_maildir_new_to_cur_with_seen_flag(tmp_path: Path) -> None:
    md = make_maildir(tmp_path / "Maildir")
    (md / "new" / "1.a.host").write_bytes(message(1))
    (md / "cur" / "2.b.host:2,F").write_bytes(message(2))  # unhandled in cur/ (flagged, not seen)
    (md / "cur" / "3.c.host:2,S").write_bytes(message(3))  # handled before
    (md / "tmp" / "4.d.host").write_bytes(message(4))  # still being delivered
    source = MaildirSource(md)
    got = list(source.messages())
    assert [i.id for i in got] == ["maildir:1.a.host", "maildir:2.b.host"]
    assert [i.raw for i in got] == [message(1), message(2)]
    for incoming in got:
        source.ack(incoming.id)
    assert sorted(os.listdir(md / "cur")) == ["1.a.host:2,S", "2.b.host:2,FS", "3.c.host:2,S"]
    assert os.listdir(md / "new") == []
    assert (md / "cur" / "1.a.host:2,S").read_bytes() == message(1)  # bytes untouched
    assert list(MaildirSource(md).messages()) == []


def test_maildir_without_ack_hands_the_message_out_again(tmp_path: Path) -> None:
    md = make_maildir(tmp_path / "Maildir")
    (md / "new" / "1.a.host").write_bytes(message(1))
    assert len(list(MaildirSource(md).messages())) == 1  # "crash" before ack
    assert len(list(MaildirSource(md).messages())) == 1


def test_maildir_works_with_stdlib_delivered_mail(tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "md", create=True)
    box.add(message(7))
    source = MaildirSource(tmp_path / "md")
    (incoming,) = list(source.messages())
    assert incoming.raw.replace(b"\r\n", b"\n") == message(7).replace(b"\r\n", b"\n")
    source.ack(incoming.id)
    assert list(MaildirSource(tmp_path / "md").messages()) == []


def test_not_a_maildir_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(MailConfigError):
        MaildirSource(tmp_path)


# -- mbox -------------------------------------------------------------------------------------


def test_mbox_read_only_with_a_state_file(tmp_path: Path) -> None:
    path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(path)
    box.add(message(1))
    box.add(message(2))
    box.flush()
    box.close()
    before = path.read_bytes()
    state = tmp_path / "root" / "inbox" / "mbox-inbox.handled"
    source = MboxSource(path, state)
    got = list(source.messages())
    assert [b"body 1" in i.raw for i in got] == [True, False]
    source.ack(got[0].id)  # the second is "crashed" before its ack
    assert len(state.read_text().split()) == 1
    rerun = list(MboxSource(path, state).messages())
    assert [i.id for i in rerun] == [got[1].id]
    # New mail appended to the mbox: old ids do not change.
    box = mailbox.mbox(path)
    box.add(message(3))
    box.flush()
    box.close()
    source = MboxSource(path, state)
    ids = [i.id for i in source.messages()]
    assert ids == [got[1].id, ids[1]] and len(ids) == 2
    for ident in ids:
        source.ack(ident)
    assert list(MboxSource(path, state).messages()) == []
    assert path.read_bytes().startswith(before)  # never rewritten, only appended by the MTA


# -- credentials and security -----------------------------------------------------------------


def test_credentials_from_file_must_be_private(tmp_path: Path) -> None:
    path = tmp_path / "imap.cred"
    path.write_text("game@example.test\ns3cret pass\n")
    os.chmod(path, 0o644)
    with pytest.raises(MailConfigError, match="chmod 600"):
        Credentials.from_file(path)
    os.chmod(path, 0o600)
    cred = Credentials.from_file(path)
    assert (cred.user, cred.password) == ("game@example.test", "s3cret pass")
    assert "s3cret" not in repr(cred)


def test_credentials_from_environment() -> None:
    env = {"PBEM_IMAP_USER": "u", "PBEM_IMAP_PASSWORD": "p"}
    assert Credentials.from_env("PBEM_IMAP_USER", "PBEM_IMAP_PASSWORD", env) == Credentials(
        "u", "p"
    )
    with pytest.raises(MailConfigError, match="PBEM_IMAP_PASSWORD"):
        Credentials.from_env("PBEM_IMAP_USER", "PBEM_IMAP_PASSWORD", {"PBEM_IMAP_USER": "u"})


def test_plaintext_only_to_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("mail.example.org")
    assert check_security("127.0.0.1", "none", "IMAP") == "none"
    with pytest.raises(MailConfigError, match="unencrypted"):
        check_security("mail.example.org", "none", "IMAP")
    with pytest.raises(MailConfigError):
        check_security("mail.example.org", "ssl", "IMAP")


def test_two_maildir_sources_acknowledging_the_same_message_do_not_crash(tmp_path: Path) -> None:
    """Two `pbem ingest --maildir` on one Maildir both read a message; the second ack finds it
    already moved to cur/ by the first — that is what ack means, not an error."""
    box = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    (box / "new" / "1.host").write_bytes(b"From: a@example.org\n\nhi\n")
    first, second = MaildirSource(box), MaildirSource(box)
    [a] = list(first.messages())
    [b] = list(second.messages())
    first.ack(a.id)
    second.ack(b.id)
    assert [p.name for p in (box / "cur").iterdir()] == ["1.host:2,S"]
    assert not list((box / "new").iterdir())
