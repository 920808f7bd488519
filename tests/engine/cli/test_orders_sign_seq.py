"""``pbem orders sign`` warns a player who signs a seq his vault signed before (an edited file
re-signed under the same seq is refused by the referee as not higher), and says which seq to
set; a file numbered by ``pbem orders new`` after it signs without the warning."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.protocol.keys import write_keypair
from tests.support.run import pbem_text
from tests.toygame.highcard import rules


def test_signing_a_seq_again_warns_and_names_the_next(tmp_path: Path) -> None:
    key = write_keypair(tmp_path / "north")[0]
    env = {"PBEM_VAULT": str(tmp_path / "vault.json")}
    view = tmp_path / "view.json"
    view.write_text(json.dumps({**rules.view(rules.setup("lucky-2", {"game_id": "lucky-3"}),
                                             "north"), "instance": "ef" * 16}))
    orders = tmp_path / "orders.yaml"
    assert pbem_text("orders", "new", "--view", view, "-o", orders, env=env).returncode == 0
    first = pbem_text("orders", "sign", orders, "--key", key, env=env)
    assert first.returncode == 0 and "warning" not in first.stderr, first.stderr
    again = pbem_text("orders", "sign", orders, "--key", key, env=env)
    assert again.returncode == 0 and "BEGIN PBEM SIGNED ORDERS" in again.stdout
    assert ("warning: seq 0 is not above seq 0, the highest this vault signed for north in "
            "lucky-3" in again.stderr and "set seq: 1" in again.stderr), again.stderr
    assert pbem_text("orders", "new", "--view", view, "-o", orders, "--force",
                     env=env).returncode == 0
    assert "\nseq: 1\n" in orders.read_text()
    third = pbem_text("orders", "sign", orders, "--key", key, env=env)
    assert third.returncode == 0 and "warning" not in third.stderr, third.stderr


def test_check_with_another_players_pub_names_both_keys(tmp_path: Path) -> None:
    """`pbem orders check SIGNED --pub KEY.pub` with the wrong public key says whose key signed
    it and which was given, not that the key is unregistered."""
    key = write_keypair(tmp_path / "north")[0]
    south_pub = write_keypair(tmp_path / "south")[1]
    env = {"PBEM_VAULT": str(tmp_path / "vault.json")}
    out = pbem_text("orders", "new", "--game", "lucky-3", "--power", "north", "--turn", "1",
                    "--instance", "ef" * 16, env=env)
    orders = tmp_path / "orders.yaml"
    orders.write_text(out.stdout)
    signed = tmp_path / "orders.signed"
    assert pbem_text("orders", "sign", orders, "--key", key, "-o", signed,
                     env=env).returncode == 0
    done = pbem_text("orders", "check", signed, "--pub", south_pub, env=env)
    assert done.returncode == 1, done.stdout
    assert f"{signed} is signed by key " in done.stdout and f"not by {south_pub}" in done.stdout
    ok = pbem_text("orders", "check", signed, "--pub", tmp_path / "north.pub", env=env)
    assert ok.returncode == 0 and ok.stdout.startswith("ok"), ok.stdout + ok.stderr
