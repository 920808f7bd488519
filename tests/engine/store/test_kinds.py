"""The store's StrEnums (pbem.store.kinds) keep the 1.0 wire words: each member encodes, formats
and compares as the string files already hold."""

from __future__ import annotations

import json

from pbem import canonical
from pbem.store.chance import SECRET_OP
from pbem.store.kinds import EntryKind, GmOp, Verdict, VoteKind, VoteRule
from pbem.store.log import GENESIS_KIND
from pbem.store.submissions import VERDICTS
from pbem.store.summary import GM, KEY, ORDERS, PRESS, RESOLVE

WIRE = {
    EntryKind: ["genesis", "orders", "resolve", "gm", "key", "press"],
    Verdict: ["accepted", "rejected"],
    VoteKind: ["draw", "cancel", "pause", "resume"],
    VoteRule: ["unanimous", "majority"],
    GmOp: ["pause", "resume", "extend", "replace", "concede", "end", "cancel", "autopilot",
           "vote", "prefs", "chance-secret"],
}


def test_every_member_is_its_wire_word() -> None:
    for enum, words in WIRE.items():
        assert [m.value for m in enum] == words
        for member, word in zip(enum, words, strict=True):
            assert member == word and f"{member}" == word and str(member) == word
            assert canonical.encode({member: member}) == canonical.encode({word: word})
            assert json.dumps([member]) == json.dumps([word])


def test_the_old_constants_are_the_members() -> None:
    assert tuple(EntryKind) == (GENESIS_KIND, ORDERS, RESOLVE, GM, KEY, PRESS)
    assert VERDICTS == ("accepted", "rejected")
    assert SECRET_OP == "chance-secret"
