"""Signed referee checkpoints: real Ed25519 signatures, real logs, mail-mangled text."""

from __future__ import annotations

import pytest

from pbem.protocol.keys import PrivateKey
from pbem.store import log as glog
from pbem.store.checkpoint import Checkpoint, CheckpointError, check_extends, extends

T0 = "2026-11-30T17:00:00Z"


@pytest.fixture(scope="module")
def referee():
    return PrivateKey.generate()


def chain(n, tag="a"):
    entries = [glog.make_entry(None, "genesis", T0, {"game": "andromeda-7"})]
    for i in range(1, n):
        entries.append(glog.make_entry(entries[-1], "resolve", T0, {"turn": i, "tag": tag}))
    return entries


def test_sign_text_parse_verify(referee):
    entries = chain(53)
    cp = Checkpoint.sign(referee, "andromeda-7", 53, entries[-1].hash)
    text = cp.text()
    first, second = text.splitlines()
    assert first == f"pbem-checkpoint game=andromeda-7 length=53 head={entries[-1].hash}"
    assert second.startswith(" sig=") and all(len(line) < 130 for line in (first, second))
    back = Checkpoint.parse(text)
    assert back == cp
    back.verify(referee.public)
    assert extends(entries, back)


def test_parse_survives_quoting_and_rewrapping(referee):
    cp = Checkpoint.sign(referee, "andromeda-7", 9, "ab" * 32)
    mangled = (
        "Dear player,\r\n> > "
        + cp.text().replace(" length", "\r\n>  length").replace("\n sig", "\n> sig")
        + "> Regards\n"
    )
    assert Checkpoint.parse(mangled) == cp


def test_wrong_key_or_altered_field_fails(referee):
    cp = Checkpoint.sign(referee, "andromeda-7", 9, "ab" * 32)
    with pytest.raises(CheckpointError, match="does not verify"):
        cp.verify(PrivateKey.generate().public)
    forged = Checkpoint.parse(cp.text().replace("length=9", "length=8"))
    with pytest.raises(CheckpointError, match=r"andromeda-7@8:.*does not verify"):
        forged.verify(referee.public)
    other_domain = Checkpoint(
        "andromeda-7", 9, "ab" * 32, referee.sign("pbem-orders-v1", "x", cp.payload())
    )
    with pytest.raises(CheckpointError):
        other_domain.verify(referee.public)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello", "no 'pbem-checkpoint' line"),
        ("pbem-checkpoint game=g length=3", "lacks head, sig"),
        ("pbem-checkpoint game=g length=x head=" + "a" * 64 + " sig=AAAA", "not a number"),
        ("pbem-checkpoint game=g length=3 head=" + "a" * 64 + " sig=AAAA", "64 bytes"),
        ("pbem-checkpoint game=g length=3 head=zz sig=" + "A" * 86, "not 64 hex"),
        ("pbem-checkpoint game=Bad_Id length=3 head=" + "a" * 64 + " sig=" + "A" * 86, "game id"),
    ],
)
def test_malformed_text(text, message):
    with pytest.raises(CheckpointError, match=message):
        Checkpoint.parse(text)


def test_forked_and_truncated_logs_are_caught(referee):
    honest = chain(20)
    cp = Checkpoint.sign(referee, "andromeda-7", 12, honest[11].hash)
    check_extends(honest, cp)  # longer log, same prefix: fine
    forked = honest[:8]
    for i in range(8, 20):
        forked.append(glog.make_entry(forked[-1], "resolve", T0, {"turn": i, "tag": "fork"}))
    assert glog.parse_lines([e.line()[:-1] for e in forked])  # the fork is itself a valid chain
    assert not extends(forked, cp)
    with pytest.raises(CheckpointError, match="entry seq 11 has hash .* rewritten or forked"):
        check_extends(forked, cp)
    with pytest.raises(CheckpointError, match="only 10: the log was truncated"):
        check_extends(honest[:10], cp)
