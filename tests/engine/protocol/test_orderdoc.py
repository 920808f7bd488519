"""Signed order documents: real keys, real signatures, real email encodings; no mocks."""

from __future__ import annotations

import base64
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import Rejected
from pbem.protocol.armor import BEGIN, END, SIGNATURE, dearmor, find_signed_blocks, normalize
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import (
    VerifiedOrders,
    newest_by_power,
    replaces,
    sign_orders,
    verify_orders,
)

GAME = "andromeda-7"
C64 = "3a7b" * 16
N64 = "9f2c" * 16
BODY = f"""pbem: 1
game: {GAME}
power: algol
turn: 7
seq: 3
instance: 0123456789abcdef0123456789abcdef
orders:
  warps:
    1: continue
    2: {{arrive: Hamal, nonce: {N64}}}
  depart: {{warp: 1, from: Vega, ships: 5, commitment: {C64}}}
  permit: {{home: [regulus], lend: [regulus]}}
  resources:
    - {{star: Capella, to: regulus}}
  vote_end: true
"""


def key_from(seed: int) -> PrivateKey:
    return PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32))


ALGOL = key_from(1)
REGULUS = key_from(2)
STRANGER = key_from(3)


@pytest.fixture
def ring() -> Keyring:
    ring = Keyring()
    ring.add(GAME, "algol", ALGOL.public)
    ring.add(GAME, "regulus", REGULUS.public)
    ring.add("orion-2", "algol", ALGOL.public)
    return ring


def signed(text: str = BODY, key: PrivateKey = ALGOL) -> str:
    return sign_orders(text, key, check=False)


def codes(block: str, ring: Keyring, **expect) -> list[tuple[str, str]]:
    with pytest.raises(Rejected) as info:
        verify_orders(block, ring, **expect)
    return [(p.code, p.path) for p in info.value.problems]


# -- signing and verifying ------------------------------------------------------------------------


def test_sign_then_verify(ring):
    block = sign_orders(BODY, ALGOL)
    assert block.startswith("-----BEGIN PBEM SIGNED ORDERS-----\npbem: 1\n")
    v = verify_orders(block, ring, game=GAME, power="algol", turn=7)
    assert (v.game, v.power, v.turn, v.seq) == (GAME, "algol", 7, 3)
    assert v.body["depart"] == {"warp": 1, "from": "Vega", "ships": 5, "commitment": C64}
    assert v.body["warps"] == {1: "continue", 2: {"arrive": "Hamal", "nonce": N64}}
    assert v.signed_text == BODY and v.key_fingerprint == ALGOL.public.fingerprint
    assert v.block == block and len(v.sha256) == 64


def test_only_verification_makes_verified_orders(ring):
    v = verify_orders(signed(), ring)
    with pytest.raises(TypeError):
        VerifiedOrders(GAME, "algol", 7, 3, {}, BODY, v.sha256, v.key_fingerprint, v.signature)
    with pytest.raises(TypeError):
        v.replace(seq=99)


def test_signing_normalises_first(ring):
    messy = "\r\n\n" + BODY.replace("\n", "  \r\n") + "\n\n"
    assert signed(messy) == signed(BODY)


def test_sign_refuses_what_the_referee_would_reject_for_its_form():
    with pytest.raises(Rejected) as info:
        sign_orders(BODY.replace("turn: 7", "turn: 0"), ALGOL)
    assert info.value.problems[0].path == "turn"
    with pytest.raises(Rejected):
        sign_orders(BODY + f"  {SIGNATURE}\n", ALGOL)
    with pytest.raises(Rejected):
        sign_orders("\n \n", ALGOL)


def test_fingerprint_lookup_alternatives(ring):
    block = signed()
    by_map = verify_orders(block, lambda g, p: [ALGOL.public],
                           fingerprints={ALGOL.public.fingerprint: ALGOL.public})
    by_expect = verify_orders(block, lambda g, p: [ALGOL.public], game=GAME, power="algol")
    assert by_map == by_expect == verify_orders(block, ring)


# -- bad signatures and keys ----------------------------------------------------------------------


def test_missing_signature(ring):
    assert codes(f"-----BEGIN PBEM SIGNED ORDERS-----\n{BODY}", ring) == [
        ("unsigned", "signature")
    ]


def test_missing_end_line(ring):
    block = signed().replace(END + "\n", "")
    assert codes(block, ring) == [("no-end", "signature")]


def test_malformed_signature_fields(ring):
    block = signed()
    assert codes(block.replace("key: ", "key: XYZ"), ring) == [("bad-key", "signature.key")]
    assert codes(block.replace("sig: ", "sig: !!"), ring) == [("bad-sig", "signature.sig")]
    short = base64.b64encode(b"x" * 10).decode()
    sig_line = next(ln for ln in block.splitlines() if ln.startswith("sig: "))
    assert codes(block.replace(sig_line, f"sig: {short}"), ring) == [
        ("bad-sig", "signature.sig")
    ]
    assert codes(block.replace(sig_line + "\n", ""), ring) == [("missing", "signature.sig")]
    assert codes(block.replace(sig_line, sig_line + "\nfoo: bar"), ring) == [
        ("unknown-key", "signature.foo")
    ]


def test_every_armor_problem_at_once(ring):
    block = f"-----BEGIN PBEM SIGNED ORDERS-----\n{SIGNATURE}\nkey: x\nsig: ??\n"
    assert codes(block, ring) == [
        ("no-end", "signature"),
        ("empty", ""),
        ("bad-key", "signature.key"),
        ("bad-sig", "signature.sig"),
    ]


def test_wrong_signature(ring):
    other = signed(BODY.replace("seq: 3", "seq: 4"))
    sig_line = next(ln for ln in other.splitlines() if ln.startswith("sig: "))
    block = signed()
    mine = next(ln for ln in block.splitlines() if ln.startswith("sig: "))
    assert codes(block.replace(mine, sig_line), ring) == [("bad-signature", "signature.sig")]


def test_unknown_key(ring):
    assert codes(signed(key=STRANGER), ring) == [("unknown-signer", "signature.key")]


def test_key_not_registered_for_the_claimed_power(ring):
    # regulus's registered key signs orders claiming to be algol's
    block = signed(key=REGULUS)
    with pytest.raises(Rejected) as info:
        verify_orders(block, ring)
    (problem,) = info.value.problems
    assert (problem.code, problem.path) == ("not-registered", "power")
    assert "not registered for algol" in problem.message


def test_key_registered_in_another_game_only(ring):
    block = signed(BODY.replace(GAME, "vela-3"))
    assert codes(block, ring) == [("not-registered", "power")]


def test_signed_but_malformed_content_is_rejected_after_verifying(ring):
    assert codes(signed("pbem: 1\norders: [\n"), ring) == [("not-yaml", "")]
    assert codes(signed(BODY + "extra: 1\n"), ring) == [("unknown-key", "extra")]
    assert codes(signed(BODY.replace("seq: 3", "seq: no")), ring) == [("type", "seq")]
    assert codes(signed(BODY + "a: &x 1\nb: *x\n"), ring) == [("anchor", "a"), ("alias", "b")]


def test_wrong_game_power_turn_listed_together(ring):
    assert codes(signed(), ring, game="orion-2", power="regulus", turn=8) == [
        ("wrong-game", "game"),
        ("wrong-power", "power"),
        ("wrong-turn", "turn"),
    ]


# -- surviving email ------------------------------------------------------------------------------


def roundtrip(msg: EmailMessage) -> EmailMessage:
    parsed = BytesParser(policy=policy.default).parsebytes(msg.as_bytes())
    assert isinstance(parsed, EmailMessage)
    return parsed


def mail(body: str, **kw) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "algol@example.org"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "orders"
    msg.set_content(body, **kw)
    return msg


def the_one(text: str, ring: Keyring) -> VerifiedOrders:
    (block,) = find_signed_blocks(text)
    return verify_orders(block, ring, game=GAME, power="algol", turn=7)


def quote(text: str, prefix: str) -> str:
    return "".join(prefix + line + "\n" for line in text.splitlines())


def transports(block: str) -> dict[str, str]:
    """The same block after each thing mail does to text."""
    out = {"as is": block}
    out["pasted in a body"] = f"Hi referee,\n\nmy orders:\n\n{block}\n-- \nAlgol's player\n"
    out["CRLF"] = block.replace("\n", "\r\n")
    out["CR only"] = block.replace("\n", "\r")
    out["trailing whitespace added"] = "".join(ln + " \t " + "\n" for ln in block.splitlines())
    out["leading and trailing blank lines"] = "\n\n  \n" + block + "\n\n\n"
    out["quoted '> '"] = quote(block, "> ")
    out["quoted '>'"] = quote(block, ">")
    out["quoted '>> '"] = quote(block, ">> ")
    out["quoted '> > '"] = quote(block, "> > ")
    out["quoted, blank quoted lines lose their space"] = quote(block, "> ").replace("> \n", ">\n")
    out["reply with quoted text around"] = (
        "Thanks, see below.\n\nOn Monday the referee wrote:\n> Your report for turn 6.\n"
        "> Stars held: 3\n>\n" + quote(block, "> ") + ">\n> Regards\n\nBye\n"
    )
    sig = next(ln for ln in block.splitlines() if ln.startswith("sig: "))
    out["signature hard-wrapped"] = block.replace(sig, sig[:40] + "\n" + sig[40:])
    for cte in ("quoted-printable", "base64", "8bit"):
        msg = mail(out["trailing whitespace added"], cte=cte)
        out[f"mail body, {cte}"] = roundtrip(msg).get_content()
    msg = mail("Orders attached.\n")
    msg.add_attachment(block.encode("utf-8"), maintype="application", subtype="octet-stream",
                       filename="orders.asc")
    (part,) = roundtrip(msg).iter_attachments()
    out["attachment, binary"] = part.get_content().decode("utf-8")
    msg = mail("Orders attached.\n")
    msg.add_attachment(block.replace("\n", "\r\n"), subtype="plain", filename="orders.txt",
                       cte="quoted-printable")
    (part,) = roundtrip(msg).iter_attachments()
    out["attachment, text QP CRLF"] = part.get_content()
    return out


@pytest.mark.parametrize("how", list(transports(signed())))
def test_signed_block_survives(how, ring):
    text = transports(signed())[how]
    assert the_one(text, ring).signed_text == BODY


def test_quoted_printable_really_soft_breaks_long_lines():
    raw = mail(signed(), cte="quoted-printable").as_bytes()
    assert b"=\n" in raw  # the commitment and signature lines are longer than 76 octets


def test_trailing_whitespace_stripped_in_transit(ring):
    # signed with trailing blanks in the author's editor; the mailer strips them
    block = signed(BODY.replace("\n", "   \n"))
    stripped = "".join(ln.rstrip() + "\n" for ln in block.splitlines())
    assert the_one(stripped, ring).signed_text == BODY


def content_positions(block: str) -> list[int]:
    start = block.index("\n") + 1
    end = block.index(SIGNATURE)
    return [i for i in range(start, end) if not block[i].isspace()]


def test_any_one_character_change_fails(ring):
    block = signed()
    positions = content_positions(block)
    assert len(positions) > 300
    for i in positions:
        changed = block[:i] + ("Y" if block[i] != "Y" else "Z") + block[i + 1 :]
        with pytest.raises(Rejected) as info:
            verify_orders(changed, ring)
        assert info.value.problems[0].code == "bad-signature", (i, changed)


@pytest.mark.parametrize(
    "old, new",
    [
        ("ships: 5", "ships: 6"),
        ("    1: continue", "     1: continue"),  # indentation is meaning in YAML
        ("vote_end: true\n", "vote_end: true\nconcede: true\n"),
        ("  permit: {home: [regulus], lend: [regulus]}\n", ""),
    ],
)
def test_content_changes_fail_in_every_transport(old, new, ring):
    block = signed()
    tampered = block.replace(old, new)
    assert tampered != block
    for how, text in transports(tampered).items():
        with pytest.raises(Rejected) as info:
            the_one(text, ring)
        assert info.value.problems[0].code == "bad-signature", how


# -- finding blocks -------------------------------------------------------------------------------


def test_several_blocks_all_returned_in_order(ring):
    first, second = signed(), signed(BODY.replace("seq: 3", "seq: 4"))
    text = f"first:\n{first}\nand quoted:\n{quote(second, '> ')}\nend\n"
    found = find_signed_blocks(text)
    assert [verify_orders(b, ring).seq for b in found] == [3, 4]


def test_text_without_blocks():
    assert find_signed_blocks("hello\n> -----BEGIN PGP SIGNED MESSAGE-----\n") == []
    assert find_signed_blocks("see -----BEGIN PBEM SIGNED ORDERS----- inline") == []


def test_cut_block_is_returned_and_says_why(ring):
    block = signed()
    cut = block[: block.index(SIGNATURE)]
    (found,) = find_signed_blocks("Hi\n" + cut)
    assert codes(found, ring) == [("unsigned", "signature")]
    quoted_then_more = quote(block[: block.index(END)], "> ") + "my own text\n"
    (found,) = find_signed_blocks(quoted_then_more)
    assert codes(found, ring) == [("no-end", "signature")]


def test_a_new_begin_ends_a_cut_block(ring):
    block = signed()
    text = block[: block.index(SIGNATURE)] + block
    found = find_signed_blocks(text)
    assert len(found) == 2
    assert verify_orders(found[1], ring).seq == 3


def test_normalize():
    assert normalize("\r\n\n  a: 1  \r\n\tb: 2\t\r\r\n\n") == "  a: 1\n\tb: 2\n"
    assert normalize(" \n\n") == ""


# -- replays and the latest submission ------------------------------------------------------------


def verified(ring: Keyring, **changes: str) -> VerifiedOrders:
    text = BODY
    for old, new in changes.items():
        text = text.replace(old.replace("_", " ") + ":", new)
    return verify_orders(signed(text), ring)


def test_highest_seq_wins(ring):
    """The one seq rule: only a higher seq replaces the accepted submission."""
    v3 = verified(ring)
    v4 = verify_orders(signed(BODY.replace("seq: 3", "seq: 4")), ring)
    assert replaces(v3.seq, None)
    assert replaces(v4.seq, v3.seq)
    assert newest_by_power([v3, v4], lambda v: v.power, lambda v: v.seq) == {"algol": v4}


def test_lower_or_equal_seq_is_a_refused_replay(ring):
    accepted = verify_orders(signed(BODY.replace("seq: 3", "seq: 4")), ring)
    old = verify_orders(signed(), ring)
    other = verify_orders(signed(BODY.replace("ships: 5", "ships: 4")), ring)
    assert not replaces(old.seq, accepted.seq)
    assert not replaces(other.seq, old.seq)  # equal seq, other content: refused too
    # in log order, a lower or equal seq logged later never stands
    assert newest_by_power([accepted, old], lambda v: v.power, lambda v: v.seq) == {
        "algol": accepted}
    assert newest_by_power([old, other], lambda v: v.power, lambda v: v.seq) == {"algol": old}


def test_old_turn_is_refused(ring):
    last_turn = signed(BODY.replace("turn: 7", "turn: 6").replace("seq: 3", "seq: 9"))
    assert codes(last_turn, ring, game=GAME, power="algol", turn=7) == [("wrong-turn", "turn")]


def test_other_game_is_refused(ring):
    # algol's key is registered in both games; orders for orion-2 cannot be used in andromeda-7
    elsewhere = signed(BODY.replace(GAME, "orion-2"))
    assert verify_orders(elsewhere, ring).game == "orion-2"
    assert codes(elsewhere, ring, game=GAME) == [("wrong-game", "game")]


def test_other_power_is_refused(ring):
    regulus = signed(BODY.replace("power: algol", "power: regulus"), key=REGULUS)
    assert codes(regulus, ring, power="algol") == [("wrong-power", "power")]


@pytest.mark.parametrize("inner", [
    "game: g\nturn: 1\n", "\r\n\r\ngame: g  \r\nturn: 1\t\r\n\r\n", "\n \n\t\norders:\r  a: 1 \r\r",
    "a\n\n\nb", " \t ", "x\r\n\r\n\r\ny\n\n",
])
def test_dearmor_body_is_the_normalised_inner_text(inner):
    """dearmor takes the block's lines split and stripped once: its body is normalize of the
    text between the markers, whatever the line ends, trailing blanks and empty lines."""
    sig = base64.b64encode(bytes(64)).decode("ascii")
    block = f"{BEGIN}\r\n{inner}\n{SIGNATURE}\nkey: 0123456789abcdef\nsig: {sig}\n{END}\n"
    if not normalize(inner):
        with pytest.raises(Rejected):
            dearmor(block)
        return
    assert dearmor(block).body == normalize(inner)


@pytest.mark.parametrize(("extra", "ready"), [
    ("", True), ("ready: false\n", False), ("ready: true\n", True),
    ('"re\\x61dy": false\n', False),  # an escape spells the key: read by the parser
    ("'ready': false\n", False), ("orders:\n  note: \"alre\\x61dy\"\n", True),
])
def test_ready_of_reads_the_flag_whether_or_not_it_parses_the_body(extra, ready):
    """ready_of parses a body only where it holds the word or a backslash (an escape): the
    same answer as the parser's for every way to write the key."""
    from pbem.protocol.orderdoc import ready_of

    base = "pbem: 1\ngame: g\npower: pavo\nturn: 1\nseq: 1\ninstance: '" + "0" * 32 + "'\n"
    text = base + (extra if extra.startswith("orders") else "orders: {}\n" + extra)
    assert ready_of(sign_orders(text, PrivateKey.generate())) is ready
