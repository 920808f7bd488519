"""Signed press documents (pbem.protocol.pressdoc) and the press/roster config keys: real keys and
signatures, no mocks. The relay itself is tested end to end in
tests/engine/host/test_press_e2e.py."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import Rejected
from pbem.protocol.armor import find_press_blocks
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders, verify_orders
from pbem.protocol.pressdoc import (
    BEGIN,
    VerifiedPress,
    sign_press,
    verify_press,
)
from pbem.store.gameconfig import ConfigError, GameConfig
from tests.support.configs import GOOD

GAME = "wild-7"
PRESS = f"""pbem: 1
game: {GAME}
power: algol
turn: 3
press:
  - to: regulus
    text: Shall we take Mira together?
  - to: [pavo, antares]
    anonymous: true
    text: |
      Two lines
      of grey press.
  - to: all
    text: Peace.
"""
ORDERS = f"""pbem: 1
game: {GAME}
power: algol
turn: 3
seq: 0
instance: 0123456789abcdef0123456789abcdef
orders: {{}}
"""


def key_from(seed: int) -> PrivateKey:
    return PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32))


ALGOL, REGULUS = key_from(1), key_from(2)


@pytest.fixture
def ring() -> Keyring:
    ring = Keyring()
    ring.add(GAME, "algol", ALGOL.public)
    ring.add(GAME, "regulus", REGULUS.public)
    return ring


def problems(block: str, ring: Keyring) -> list[tuple[str, str]]:
    with pytest.raises(Rejected) as info:
        verify_press(block, ring, fingerprints=ring)
    return [(p.code, p.path) for p in info.value.problems]


def test_signed_press_verifies_and_is_found_quoted_in_a_reply(ring: Keyring) -> None:
    block = sign_press(PRESS, ALGOL)
    quoted = "On Tuesday you wrote:\n" + "".join(f"> {line}\n" for line in block.splitlines())
    [found] = find_press_blocks(quoted)
    v = verify_press(found, ring, fingerprints=ring)
    assert (v.game, v.power, v.turn) == (GAME, "algol", 3)
    assert [m.to for m in v.messages] == [("regulus",), ("antares", "pavo"), ("all",)]
    assert [m.anonymous for m in v.messages] == [False, True, False]
    assert v.messages[1].text == "Two lines\nof grey press.\n"
    assert v.block == block
    with pytest.raises(TypeError):
        VerifiedPress(GAME, "algol", 3, (), "", "", "", b"")


def test_a_changed_character_fails_the_signature(ring: Keyring) -> None:
    block = sign_press(PRESS, ALGOL).replace("Peace.", "War!.")
    assert problems(block, ring) == [("bad-signature", "signature.sig")]


def test_press_and_orders_signatures_never_pass_for_each_other(ring: Keyring) -> None:
    """Domain separation: the same key signs both, yet neither block verifies as the other,
    and an order block is never found as press (or the reverse)."""
    press = sign_press(PRESS, ALGOL)
    orders = sign_orders(ORDERS, ALGOL)
    assert not find_press_blocks(orders)
    relabelled = press.replace("SIGNED PRESS", "SIGNED ORDERS")
    with pytest.raises(Rejected) as info:
        verify_orders(relabelled, ring, fingerprints=ring)
    assert [p.code for p in info.value.problems] == ["bad-signature"]
    as_press = orders.replace("SIGNED ORDERS", "SIGNED PRESS")
    assert problems(as_press, ring) == [("bad-signature", "signature.sig")]


def test_key_must_be_registered_for_the_power_it_names(ring: Keyring) -> None:
    block = sign_press(PRESS, REGULUS)  # regulus signs a file claiming to be algol's
    assert problems(block, ring) == [("not-registered", "power")]


@pytest.mark.parametrize(("change", "expected"), [
    ("turn: 3\n", [("missing", "turn")]),
    ("  - to: all\n    text: Peace.\n",
     [("unknown-key", "press[2].colour"), ("type", "press[2].text")]),
    ("    text: Shall we take Mira together?\n", [("type", "press[0].text")]),
    ("  - to: [pavo, antares]\n", [("type", "press[1].to[1]")]),
    ("    anonymous: true\n", [("type", "press[1].anonymous")]),
])
def test_form_problems_name_their_path(ring: Keyring, change: str, expected: list) -> None:
    replacement = {
        "turn: 3\n": "",
        "  - to: all\n    text: Peace.\n": "  - to: all\n    colour: red\n",
        "    text: Shall we take Mira together?\n": "    text: 12\n",
        "  - to: [pavo, antares]\n": "  - to: [pavo, ' antares']\n",
        "    anonymous: true\n": "    anonymous: maybe\n",
    }[change]
    text = PRESS.replace(change, replacement)
    with pytest.raises(Rejected):
        sign_press(text, ALGOL)  # the player's tool refuses it before signing
    block = sign_press(text, ALGOL, check=False)
    assert problems(block, ring) == expected


def test_too_many_messages_and_all_with_others_are_refused(ring: Keyring) -> None:
    many = PRESS.split("press:\n")[0] + "press:\n" + "".join(
        f"  - to: regulus\n    text: m{i}\n" for i in range(21))
    assert problems(sign_press(many, ALGOL, check=False), ring) == [("too-many", "press")]
    mixed = PRESS.replace("  - to: all\n", "  - to: [all, pavo]\n")
    assert problems(sign_press(mixed, ALGOL, check=False), ring) == [("type", "press[2].to")]


def test_armor_lines_inside_press_are_refused() -> None:
    with pytest.raises(Rejected, match="armor line"):
        sign_press(PRESS.replace("Peace.", f"|\n      {BEGIN}"), ALGOL)


def test_config_press_and_roster_default_validate_and_round_trip() -> None:
    base = GameConfig.from_yaml(GOOD.replace("paused: no", "paused: false"))
    assert (base.press, base.roster) == ("white", "powers")
    assert "press" not in base.to_data() and "roster" not in base.to_data()
    grey = GameConfig.from_yaml(GOOD.replace("paused: no", "paused: false\npress: grey\n"
                                             "roster: addresses"))
    assert (grey.press, grey.roster) == ("grey", "addresses")
    assert GameConfig.from_data(grey.to_data()) == grey
    with pytest.raises(ConfigError) as info:
        GameConfig.from_yaml(GOOD.replace("paused: no", "paused: false\npress: black\n"
                                          "roster: everything\npres: white"))
    text = str(info.value)
    assert "press: 'black' must be one of none, white, grey" in text
    assert "roster: 'everything' must be one of powers, addresses" in text
    assert "pres: unknown key" in text
