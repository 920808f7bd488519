"""The header budget's comment depth, counted field by field (pbem.mail.message._comment_depth),
is what the byte-by-byte count over the whole header section gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.message import _comment_depth


def _reference(head: bytes) -> int:
    """The count as it was: every byte of the section, restarting at each new field."""
    deepest = depth = 0
    escaped = False
    previous = 0x0A
    for byte in head:
        if previous == 0x0A and byte not in (0x20, 0x09):
            depth = 0  # a new header field
        previous = byte
        if escaped:
            escaped = False
        elif byte == 0x5C:
            escaped = True
        elif byte == 0x28:
            depth += 1
            deepest = max(deepest, depth)
        elif byte == 0x29:
            depth = max(0, depth - 1)
    return deepest


_PIECES = st.sampled_from([b"(", b")", b"\\", b"\n", b"\r\n", b" ", b"\t", b"\n ", b"\n\t",
                           b"Received: ", b"From: ", b"a", b"x@y.example", b"\\(", b"\\\n"])


@settings(max_examples=2000, deadline=None)
@given(st.lists(_PIECES, max_size=60).map(b"".join))
def test_comment_depth_is_the_byte_count(head: bytes) -> None:
    assert _comment_depth(head) == _reference(head)


def test_comment_depth_cases() -> None:
    for head in (b"", b"Subject: (a (b))", b"A: ((\r\nB: (", b"A: ((\r\n (", b"A: \\((",
                 b"A: (\\\n(", b"A: (\\\n ((", b"(((", b"A: x\r\n" * 500 + b"B: ((()))"):
        assert _comment_depth(head) == _reference(head), head
