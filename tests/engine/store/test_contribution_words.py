"""pbem.chance.kinds.Contribution keeps the wire words of an envelope's entropy and view.json's
``chance.contribute``: what parse_entropy and expected return compares, formats and encodes as
the strings they returned before."""

from __future__ import annotations

import json

from pbem.chance.kinds import Contribution
from pbem.store.chance import parse_entropy

HEX = "ab" * 32


def test_the_members_are_the_wire_words() -> None:
    assert [m.value for m in Contribution] == ["tip", "value", "offer"]
    for member in Contribution:
        assert member == member.value and f"{member}" == member.value
        assert json.dumps({"contribute": member}) == json.dumps({"contribute": member.value})


def test_parse_entropy_names_the_contribution() -> None:
    assert parse_entropy({"tip": HEX}) == ("tip", bytes.fromhex(HEX))
    assert parse_entropy(HEX) == (Contribution.VALUE, bytes.fromhex(HEX))
    assert parse_entropy(None) is None
