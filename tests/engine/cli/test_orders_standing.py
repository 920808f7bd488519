"""``pbem orders`` and a standing file (``turn: standing``; docs/protocol.md, "Standing files"),
in a game that draws dice (the toy game High Card with a view asking for chance), run as a
player types it: ``new --standing`` starts one, ``sign`` signs it without a chance value with or
without ``--view`` and leaves the vault's chance alone, and ``check``/``sign --view`` refuse a
section the game does not take standing with the referee's sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.protocol.keys import write_keypair
from tests.support.run import pbem_ok
from tests.toygame.highcard import rules

GAME, INSTANCE = "lucky-9", "cd" * 16


def _view(tmp: Path) -> Path:
    view = rules.view(rules.setup("lucky-2", {"game_id": GAME}), "north")
    view = {**view, "turn": 1, "instance": INSTANCE, "chance": {"step": 1, "tip": None}}
    path = tmp / "view.json"
    path.write_text(json.dumps(view))
    return path


def _chance(vault: Path) -> dict[str, Any]:
    """Everything the vault keeps of the player's chance (seeds and marks), seqs left out."""
    games = json.loads(vault.read_text())["games"]
    return {game: {power: {k: v for k, v in entry.items() if k.startswith("chance")}
                   for power, entry in powers.items()} for game, powers in games.items()}


def test_a_standing_file_is_started_checked_and_signed_without_chance(tmp_path: Path) -> None:
    key = write_keypair(tmp_path / "north")[0]
    vault = tmp_path / "vault.json"
    env = {"PBEM_VAULT": str(vault)}
    view = _view(tmp_path)
    turn, standing = tmp_path / "turn.yaml", tmp_path / "standing.yaml"
    pbem_ok("orders", "new", "--view", view, "-o", turn, env=env)
    signed = pbem_ok("orders", "sign", turn, "--key", key, "--view", view, env=env)
    assert "entropy: {tip: " in signed  # the set-up file commits the chain's tip
    before = _chance(vault)
    out = pbem_ok("orders", "new", "--standing", "--view", view, "-o", standing, env=env)
    text = standing.read_text()
    assert "\nturn: standing\n" in text and "# A standing file: only policy;" in text, out
    assert "draws dice" not in text  # no chance is added to a standing file
    standing.write_text(text.replace("orders: {}", "orders:\n  policy: highest"))
    assert pbem_ok("orders", "check", standing, "--view", view, env=env).strip() == "ok"
    for view_args in ((), ("--view", view)):
        block = pbem_ok("orders", "sign", standing, "--key", key, *view_args, env=env)
        assert "BEGIN PBEM SIGNED ORDERS" in block and "entropy" not in block, view_args
        assert "policy: highest" in block
    assert _chance(vault) == before  # no seed made, no step marked revealed


def test_check_and_sign_refuse_what_a_standing_file_may_not_hold(tmp_path: Path) -> None:
    key = write_keypair(tmp_path / "north")[0]
    env = {"PBEM_VAULT": str(tmp_path / "vault.json")}
    view = _view(tmp_path)
    standing = tmp_path / "standing.yaml"
    pbem_ok("orders", "new", "--standing", "--view", view, "-o", standing, env=env)
    standing.write_text(standing.read_text().replace(
        "orders: {}", "entropy: " + "ab" * 32 + "\norders:\n  play: 3\n  policy: lowest"))
    expect = ("orders.play: play is not a standing section of this game (a standing file holds "
              "only policy): send it in a file for the open turn")
    said = pbem_ok("orders", "check", standing, "--view", view, ok=False, env=env)
    assert expect in said and "entropy: a standing file carries no fair-chance value" in said
    said = pbem_ok("orders", "sign", standing, "--key", key, "--view", view, ok=False, env=env)
    assert expect in said


def test_orders_new_standing_without_a_view_needs_no_turn(tmp_path: Path) -> None:
    out = pbem_ok("orders", "new", "--standing", "--game", GAME, "--power", "north",
                  "--instance", INSTANCE, env={"PBEM_VAULT": str(tmp_path / "v.json")})
    assert "\nturn: standing\n" in out and f"instance: {INSTANCE}" in out
    said = pbem_ok("orders", "new", "--standing", "--game", GAME, ok=False)
    assert "give --view VIEW.json, or --game, --power and --instance (missing: --power, " \
        "--instance)" in said
