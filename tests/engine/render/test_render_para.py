"""The ``para`` filter's plain-text path wraps exactly as ``textwrap.fill`` does (what it
replaced): every text, width and indent, plain or not."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.render.environment import para

_WORDS = st.sampled_from(["a", "to", "orders", "Pavo,", "turn", "(seq", "1),", "well-known",
                          "x" * 30, "y" * 79, "z" * 90, "é", "\u3000", "\xa0", "-", "", " ",
                          "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c"])
_TEXTS = st.lists(_WORDS, max_size=40).map(" ".join) | st.lists(_WORDS, max_size=40).map("".join)
_INDENTS = st.sampled_from([0, 2, 4, "", "  - ", "    ", "> "])


def _fill(text: str, indent: int | str, first: str | None, width: int) -> str:
    pad = " " * indent if isinstance(indent, int) else indent
    return textwrap.fill(text, width=width, initial_indent=pad if first is None else first,
                         subsequent_indent=pad, break_on_hyphens=False)


@settings(max_examples=600, deadline=None)
@given(text=_TEXTS, indent=_INDENTS, first=st.none() | st.sampled_from(["", "  - ", "* "]),
       width=st.sampled_from([8, 20, 40, 79, 200]))
def test_para_is_textwrap_fill(text: str, indent: int | str, first: str | None,
                               width: int) -> None:
    # (widths narrower than an indent are left out: textwrap itself loops forever on some)
    assert para(text, indent, first, width) == _fill(text, indent, first, width)


@pytest.mark.parametrize("text", [
    "Your orders for Pavo, turn 1 (seq 1), were received, checked and accepted. This is what "
    "they will do:",
    "Orders accepted.", "exactly " * 9 + "seventy", "a " * 40 + "b", "word", "",
])
def test_para_template_sentences(text: str) -> None:
    for indent, first in ((0, None), (4, "  - "), (2, "  ")):
        assert para(text, indent, first) == _fill(text, indent, first, 79)
