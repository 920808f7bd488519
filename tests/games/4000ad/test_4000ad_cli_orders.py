"""The player's tool on 4000 A.D. order files that once crashed it or let a doomed order
through: ``pbem orders`` run as a real subprocess (issue 11 point 3; issue 12 points 7 and 8)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from pbem.protocol.vault import Departure, Vault
from tests.support.ad_driver import Table
from tests.support.run import pbem_text

GAME = "test-game"


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return pbem_text("orders", *args, cwd=root, env={"PBEM_VAULT": str(root / "vault.json")})


def _orders_file(root: Path, power: str, turn: int, body: str) -> str:
    (root / "o.yaml").write_text(f"pbem: 1\ngame: {GAME}\npower: {power}\nturn: {turn}\n"
                                 f"seq: 1\ninstance: 0123456789abcdef0123456789abcdef\n"
                                 f"orders:\n{body}",
                                 encoding="utf-8")
    return "o.yaml"


def test_poison_order_unicode_digit_warp_gives_problems_not_a_crash(tmp_path):
    """Issue 11 point 3: the warp key '²' passes isdigit() and fails int(); `check` must name
    the problem, not crash."""
    t = Table()
    (tmp_path / "view.json").write_text(json.dumps(t.view("algol")))
    name = _orders_file(tmp_path, "algol", 1, "  warps:\n    '²': continue\n"
                        "  surrender:\n    '٣': Hamal\n")
    out = _run(tmp_path, "check", name, "--view", "view.json")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stderr
    assert "orders.warps[²]" in out.stdout and "no warp '²'" in out.stdout


def test_rule_depart_refuses_a_departure_from_a_star_without_ships(tmp_path):
    """Issue 12 point 7: `orders depart` checks the departure as `check` does: no ships at the
    star, or more ships than are there, is refused before the vault is touched."""
    t = Table()
    (tmp_path / "view.json").write_text(json.dumps(t.view("algol")))
    name = _orders_file(tmp_path, "algol", 1, "  {}\n")
    out = _run(tmp_path, "depart", name, "--view", "view.json", "--from", "Vega", "--to",
               "Hamal", "--ships", "3")
    assert out.returncode != 0 and "you have no ships at Vega" in out.stderr, out.stderr
    out = _run(tmp_path, "depart", name, "--view", "view.json", "--from", "Algol", "--to",
               "Hamal", "--ships", "16")
    assert out.returncode != 0 and "you have 15 ships at Algol, not 16" in out.stderr
    assert not (tmp_path / "vault.json").exists(), "a refused departure keeps no secret"
    out = _run(tmp_path, "depart", name, "--view", "view.json", "--from", "Algol", "--to",
               "Hamal", "--ships", "15")
    assert out.returncode == 0, out.stderr


def test_rule_doomed_fleet_reveal_does_not_say_it_continues(tmp_path):
    """Issue 12 point 8: a committed fleet whose due turn passed can never arrive; `reveal` says
    so instead of "warp 1 continues"."""
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))  # 2 turns: due on turn 2
    t.play(algol={})                                       # missed: it travels on, doomed
    assert t.state["warps"]["algol"]["1"]["travelled"] == 2
    (tmp_path / "view.json").write_text(json.dumps(t.view("algol")))
    warp = t.state["warps"]["algol"]["1"]
    star, nonce = t.vault[("algol", "1", 1)]
    vault = Vault.load(tmp_path / "vault.json")
    vault.add(GAME, "algol", Departure(1, 1, "Algol", star, nonce, warp["commitment"]))
    vault.save()
    name = _orders_file(tmp_path, "algol", t.state["turn"], "  {}\n")
    out = _run(tmp_path, "reveal", name, "--view", "view.json")
    assert out.returncode == 0, out.stderr
    assert "continues" not in out.stdout
    assert "warp 1 (left Algol on turn 1) can never arrive" in out.stdout
