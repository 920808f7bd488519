"""A padded log entry (pbem.store.replay.padded: an order file's 8 KiB size class) is read without
reading its pad twice (pbem.store.log._parse_padded), and that shortcut is exact: on real padded
lines and on thousands of altered ones, ``parse_entry`` gives the entry the plain reader gives,
or raises the plain reader's error word for word."""

from __future__ import annotations

import random

import pytest

from pbem.store import log as glog
from pbem.store import replay
from pbem.store.log import LogError

BODY = replay.orders_body(
    turn=3, power="north", seq=2, sha256="ab" * 32, text="-----BEGIN-----\nx: 1\n", received=(
        "2026-12-01T00:00:00Z"), orders={"pad": "x", "warps": {"1": "continue"}, "list": [1, 2]},
    message_id="<m@x>", key="fp")


def _line(body: object, kind: str = replay.ORDERS) -> bytes:
    genesis = glog.make_entry(None, glog.GENESIS_KIND, "2026-12-01T00:00:00Z", {})
    return glog.make_entry(genesis, kind, "2026-12-01T00:00:01Z", body).line().rstrip(b"\n")


def _outcome(read, raw: bytes) -> object:
    try:
        return read(raw, 2, "log")
    except LogError as exc:
        return f"{type(exc).__name__}: {exc}"


def _same(raw: bytes) -> object:
    fast = _outcome(glog.parse_entry, raw)
    plain = _outcome(glog._parse_plain, raw)
    assert fast == plain, raw[:200]
    return fast


def test_a_padded_entry_is_read_as_the_plain_reader_reads_it() -> None:
    raw = _line(BODY)
    assert len(raw) > replay.ORDERS_CLASS - 100
    entry = _same(raw)
    assert isinstance(entry, glog.Entry) and entry.body == BODY
    assert glog._parse_padded(raw) == entry  # the shortcut was taken


@pytest.mark.parametrize("body", [
    {**BODY, "turn": {"pad": " " * 500}},  # a later "pad" key holding spaces
    {**BODY, "pad": "", "turn": {"pad": " " * 500}},
    {**BODY, "orders": {"pad": " " * 500}, "pad": ""},  # a nested pad, the body's empty
    {k: v for k, v in BODY.items() if k != "pad"} | {"orders": {"pad": " " * 500}},
    {**BODY, "pad": " " * 300 + "x" + " " * 300},
    {**BODY, "pad": " " * 100},  # too short for the shortcut
    [BODY],
])
def test_lines_the_shortcut_must_not_take_are_read_alike(body: object) -> None:
    _same(_line(body))


def test_altered_padded_lines_give_the_plain_readers_verdict() -> None:
    """Every kind of change: a byte changed, removed or added anywhere (often in or at the
    pad), spaces added inside and outside strings, the pad key renamed, an escaped quote."""
    raw = _line(BODY)
    pad = raw.rfind(b',"pad":"')
    rng = random.Random(30)
    accepted = 0
    for n in range(3000):
        at = rng.choice([rng.randrange(len(raw)), pad + rng.randrange(-20, 40),
                         pad + rng.randrange(8, replay.ORDERS_CLASS - 400)])
        change = n % 6
        if change == 0:
            bad = raw[:at] + bytes([rng.randrange(32, 127)]) + raw[at + 1:]
        elif change == 1:
            bad = raw[:at] + raw[at + 1:]
        elif change == 2:
            bad = raw[:at] + b" " + raw[at:]
        elif change == 3:
            bad = raw[:at] + b'\\"' + raw[at:]
        elif change == 4:
            bad = raw.replace(b'"pad"', rng.choice([b'"pae"', b'"paa"', b'"pad "']), 1)
        else:
            bad = raw[:at] + b',"pad":"' + b" " * 300 + b'"' + raw[at:]
        accepted += isinstance(_same(bad), glog.Entry)
    assert accepted < 3000  # nearly every change is refused (the same way by both readers)
