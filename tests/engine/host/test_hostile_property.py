"""Property: no input makes ingest raise. Random bytes and random mutations of the real mails of
``tests/support/mail_corpus`` go through :func:`pbem.ingest.ingest` (in-process, for speed; the
attacker tests in test_hostile_mail.py run the real subprocess). Every message ends recorded as
handled — done or quarantined — so none is retried forever.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.host import ingest
from pbem.mail.inbox import Inbox
from pbem.mail.sources import StdinSource
from tests.support.ingest_helpers import NOW, World, pristine
from tests.support.mail_corpus import build

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return pristine(tmp_path_factory)


@pytest.fixture(scope="module")
def root(world: World, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return world.clone(tmp_path_factory.mktemp("prop") / "root")


@pytest.fixture(scope="module")
def mails(world: World) -> list[bytes]:
    return [case.raw for case in build(world.signer) if len(case.raw) < 200_000]


def _ingest_one(root: Path, raw: bytes) -> None:
    report = ingest.ingest(root, StdinSource(io.BytesIO(raw)), NOW)
    if not raw:
        assert report.messages == 0
        return
    assert report.messages == 1
    record = Inbox(root).outcome(hashlib.sha256(raw).hexdigest())
    assert record is not None or report.duplicates == 1 or report.pending == 1


@SETTINGS
@given(raw=st.binary(max_size=4096))
def test_random_bytes_never_raise_out_of_ingest(root: Path, raw: bytes) -> None:
    _ingest_one(root, raw)


def _mutate(raw: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    out = bytearray(raw)
    for kind, where, chunk in edits:
        if not out:
            out.extend(chunk)
            continue
        at = where % len(out)
        if kind == 0:  # overwrite
            out[at:at + len(chunk)] = chunk
        elif kind == 1:  # insert
            out[at:at] = chunk
        elif kind == 2:  # delete
            del out[at:at + len(chunk) + 1]
        else:  # repeat a slice (headers, boundaries, parentheses, encoded words)
            out[at:at] = bytes(out[at:at + 64]) * (len(chunk) % 8 + 1)
    return bytes(out)


_CHUNKS = st.one_of(
    st.binary(min_size=1, max_size=24),
    st.sampled_from([b"(", b")", b"=?utf-8?q?=C3=A9?=", b"\r\n", b"\n--", b"> ", b"\x00",
                     b"Content-Type: multipart/mixed; boundary=x\r\n",
                     b"Auto-Submitted: auto-replied\r\n", b"From: <>\r\n",
                     b"-----BEGIN PBEM SIGNED ORDERS-----\n", b"=\r\n", b"\xff\xfe"]),
)


@SETTINGS
@given(index=st.integers(min_value=0, max_value=10_000),
       edits=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1 << 20), _CHUNKS),
                      min_size=1, max_size=8))
def test_mutated_real_mails_never_raise_out_of_ingest(
        root: Path, mails: list[bytes], index: int, edits: list[tuple[int, int, bytes]]) -> None:
    _ingest_one(root, _mutate(mails[index % len(mails)], edits))
