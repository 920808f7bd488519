"""Receiving one signed order file: find the block, verify, parse, check the envelope (and the
4000 A.D. body), beside the floor of bench/README.md ("One machine's floor"): a CSafeLoader parse
of a 1.9 KB, 20-order file (0.465 ms) plus one Ed25519 verify (0.064 ms) = 0.53 ms."""

from __future__ import annotations

import yaml
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.report import line, median_seconds
from pbem.game import registry
from pbem.protocol import commitment
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import find_signed_blocks, sign_orders, verify_orders
from pbem.protocol.safeyaml import load_order_yaml

FLOOR_MS = 0.53
GAME = "bench-1"
INSTANCE = "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"  # the game instance the file names


def order_file() -> str:
    """About 20 orders, 1.1 KB: a departure with alternatives, permits, resources, alliances
    (no surrender: at turn 1 no warp is in hyperspace, and a surrender names warps in flight)."""
    nonce = bytes(range(32))
    made = commitment.commit(GAME, "algol", 1, 1, "Hamal", nonce)
    alternatives = "".join(
        f"      - {{warp: 1, from: Algol, ships: {n}, commitment: {made}}}\n" for n in (11, 9, 7, 5)
    )
    return (
        f"pbem: 1\ngame: {GAME}\npower: algol\nturn: 1\nseq: 4\ninstance: {INSTANCE}\n"
        "orders:\n"
        "  depart:\n"
        "    warp: 1\n    from: Algol\n    ships: 12\n"
        f"    commitment: {made}\n"
        "    else:\n" + alternatives + "      - {warp: 1, from: Algol, ships: all, to: Caph}\n"
        "  permit: {home: [regulus, pavo], lend: [regulus, pavo, antares]}\n"
        "  resources:\n"
        "    - {star: Algol, to: regulus}\n    - {star: Caph, to: regulus}\n"
        "    - {star: Mirach, to: regulus}\n    - {star: Almach, to: regulus}\n"
        "    - {star: Schedar, to: regulus}\n    - {star: Hamal, to: regulus}\n"
        "  alliance: {propose: [regulus, pavo], accept: [antares], end: []}\n"
        "  withdraw: antares\n"
        "  concede: false\n"
        "  vote_end: false\n"
    )


def run() -> None:
    key = PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
    ring = Keyring()
    ring.add(GAME, "algol", key.public)
    text = order_file()
    mail = "Hello referee,\n\n" + sign_orders(text, key) + "\n-- \nalgol\n"
    ad = registry.load("4000ad")
    state = ad.setup("wild-4", {"game_id": GAME})
    state["alliances"] = [{"members": ["algol", "regulus"], "public": False, "since": 0}]
    view = ad.view(state, "algol")

    def receive() -> object:
        (block,) = find_signed_blocks(mail)
        return verify_orders(block, ring, game=GAME, power="algol", turn=1)

    verified = receive()

    def receive_and_check() -> object:
        orders = receive()
        return ad.normalize_orders(orders.body, view)  # type: ignore[attr-defined]

    _orders, problems = ad.normalize_orders(verified.body, view)  # type: ignore[attr-defined]
    assert not problems, problems
    size = len(text.encode())
    number = 50
    plain = median_seconds(lambda: yaml.load(text, Loader=yaml.CSafeLoader), number=number)
    safe = median_seconds(lambda: load_order_yaml(text), number=number)
    line(f"orders: yaml.CSafeLoader parse ({size} B)", plain * 1e3, "ms", 0.465)
    line(f"orders: pbem safe YAML load ({size} B)", safe * 1e3, "ms", 0.465)
    line("orders: find + verify + parse + envelope", median_seconds(receive, number=number) * 1e3,
         "ms", FLOOR_MS)
    line("orders: ... + 4000 A.D. normalize_orders",
         median_seconds(receive_and_check, number=number) * 1e3, "ms", FLOOR_MS)


if __name__ == "__main__":
    run()
