"""``pbem orders`` run as a real subprocess, on views made by the real 4000 A.D. rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.game import registry
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PublicKey, write_keypair
from pbem.protocol.orderdoc import find_signed_blocks, verify_orders
from pbem.protocol.safeyaml import load_order_yaml
from pbem.protocol.vault import Vault

GAME = "andromeda-7"
INSTANCE = "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"  # the game instance view.json names
OTHER = "0123456789abcdef0123456789abcdef"  # another instance of the same game


class Player:
    """One player's directory: keys, vault, views, order files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.vault = root / "vault.json"
        self.key, self.pub = write_keypair(root / "algol")

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PBEM_VAULT": str(self.vault)}
        return subprocess.run(
            [sys.executable, "-m", "pbem", "orders", *args], capture_output=True, text=True,
            check=False, cwd=self.root, env=env,
        )

    def ok(self, *args: str) -> subprocess.CompletedProcess[str]:
        out = self.run(*args)
        assert out.returncode == 0, out.stderr + out.stdout
        return out

    def write_view(self, name: str, view: dict[str, Any]) -> str:
        """The game's view as the referee attaches it: with the game instance."""
        (self.root / name).write_text(json.dumps({**view, "instance": INSTANCE}))
        return name


@pytest.fixture(scope="module")
def ad():
    return registry.load("4000ad")


@pytest.fixture
def player(tmp_path, ad) -> Player:
    p = Player(tmp_path)
    p.state = ad.setup("independents-4", {"game_id": GAME})
    p.write_view("view1.json", ad.view(p.state, "algol"))
    return p


def head(*, power: str = "algol", turn: int = 1) -> str:
    """An order file's envelope lines, seq 0, for the game instance of the views."""
    return (f"pbem: 1\ngame: {GAME}\npower: {power}\nturn: {turn}\nseq: 0\n"
            f"instance: {INSTANCE}\n")


def ring(player: Player) -> Keyring:
    keys = Keyring()
    keys.add(GAME, "algol", PublicKey.load(player.pub))
    return keys


def referee_accepts(ad, player: Player, signed: str, state: dict[str, Any]) -> dict[str, Any]:
    """What the referee does with a mailed block: verify, then the game's check."""
    (block,) = find_signed_blocks(signed)
    verified = verify_orders(block, ring(player), game=GAME, power="algol",
                             turn=ad.orders_turn(state))
    orders, problems = ad.normalize_orders(verified.body, ad.view(state, "algol"))
    assert problems == []
    return orders


def test_help_for_every_subcommand(player):
    assert "SUBCOMMAND" in player.ok("--help").stdout
    for sub, words in [("new", "view.json"), ("depart", "commitment"), ("reveal", "vault"),
                       ("check", "ok"), ("sign", "armored")]:
        assert words in player.ok(sub, "--help").stdout


def test_a_whole_journey_from_new_to_arrival(player, ad):
    """new -> depart -> check -> sign; the referee resolves; new -> reveal -> check -> sign."""
    player.ok("new", "--view", "view1.json", "-o", "t1.yaml")
    out = player.ok("depart", "t1.yaml", "--from", "algol", "--to", "hamal", "--ships", "5")
    assert "warp 1 leaves Algol" in out.stdout and "Hamal" in out.stdout
    text = (player.root / "t1.yaml").read_text()
    assert "Hamal" not in text and "hamal" not in text  # the secret stays in the vault
    (dep,) = Vault.load(player.vault).departures(GAME, "algol")
    assert (dep.value, dep.turn, dep.slot) == ("Hamal", 1, 1)
    assert load_order_yaml(text)["orders"]["depart"]["commitment"] == dep.commitment

    assert player.ok("check", "t1.yaml", "--view", "view1.json").stdout == "ok\n"
    signed = player.ok("sign", "t1.yaml", "--key", "algol.key", "--view", "view1.json").stdout
    orders1 = referee_accepts(ad, player, signed, player.state)
    turn_orders = {p: ad.default_orders(player.state, p) for p in ad.powers_due(player.state)}
    state2 = ad.resolve(player.state, {**turn_orders, "algol": orders1}).state
    player.write_view("view2.json", ad.view(state2, "algol"))

    player.ok("new", "--view", "view2.json", "-o", "t2.yaml")
    assert load_order_yaml((player.root / "t2.yaml").read_text())["orders"] == {
        "warps": {1: "continue"}
    }
    assert "arrives at Hamal" in player.ok("reveal", "t2.yaml", "--view", "view2.json").stdout
    warps = load_order_yaml((player.root / "t2.yaml").read_text())["orders"]["warps"]
    assert warps == {1: {"arrive": "Hamal", "nonce": dep.nonce}}
    assert player.ok("check", "t2.yaml", "--view", "view2.json").stdout == "ok\n"
    player.ok("sign", "t2.yaml", "--key", "algol.key", "-o", "t2.asc")
    orders2 = referee_accepts(ad, player, (player.root / "t2.asc").read_text(), state2)
    assert orders2["arrive"] == {"1": {"star": "Hamal", "nonce": dep.nonce}}
    check_signed = player.ok("check", "t2.asc", "--view", "view2.json", "--pub", "algol.pub")
    assert check_signed.stdout == "ok\n"


def test_lost_vault_warns_that_the_fleet_cannot_arrive(player, ad):
    player.ok("new", "--view", "view1.json", "-o", "t1.yaml")
    player.ok("depart", "t1.yaml", "--from", "Algol", "--to", "Hamal", "--ships", "all")
    signed = player.ok("sign", "t1.yaml", "--key", "algol.key").stdout
    orders1 = referee_accepts(ad, player, signed, player.state)
    turn_orders = {p: ad.default_orders(player.state, p) for p in ad.powers_due(player.state)}
    state2 = ad.resolve(player.state, {**turn_orders, "algol": orders1}).state
    player.write_view("view2.json", ad.view(state2, "algol"))
    player.vault.unlink()
    out = player.ok("new", "--view", "view2.json", "-o", "t2.yaml")
    assert "cannot arrive" in out.stderr
    out = player.ok("reveal", "t2.yaml", "--view", "view2.json")
    assert "warp 1" in out.stderr and "cannot arrive" in out.stderr
    assert load_order_yaml((player.root / "t2.yaml").read_text())["orders"]["warps"] == {
        1: "continue"
    }


def test_new_from_game_power_turn(player):
    out = player.ok("new", "--game", GAME, "--power", "algol", "--turn", "3", "--seq", "2",
                    "--instance", INSTANCE)
    doc = load_order_yaml(out.stdout)
    assert doc == {"pbem": 1, "game": GAME, "power": "algol", "turn": 3, "seq": 2,
                   "instance": INSTANCE, "orders": {}}
    bad = player.run("new", "--game", GAME)
    assert bad.returncode == 1 and "--power, --turn and --instance" in bad.stderr
    bad = player.run("new", "--game", GAME, "--power", "algol", "--turn", "3")
    assert bad.returncode == 1 and bad.stderr.endswith("(missing: --instance)\n")
    bad = player.run("new", "--game", GAME, "--power", "algol", "--turn", "3", "--instance",
                     "Z" * 32)
    assert bad.returncode == 1 and "instance: must be the game instance's hex id" in bad.stderr


def test_new_writes_the_views_instance_and_refuses_a_view_without_one(player, ad):
    player.ok("new", "--view", "view1.json", "-o", "t.yaml")
    assert load_order_yaml((player.root / "t.yaml").read_text())["instance"] == INSTANCE
    (player.root / "bare.json").write_text(json.dumps(ad.view(player.state, "algol")))
    out = player.run("new", "--view", "bare.json")
    assert out.returncode == 1 and out.stderr.count("\n") == 1
    assert "bare.json carries no instance" in out.stderr and "--view REPORT.eml" in out.stderr


def test_a_file_without_instance_is_refused_with_one_sentence_and_never_filled_in(player):
    """The file the player signs says itself which game instance it is for: neither check nor
    sign writes the view's instance in; both name what is missing and how to get it."""
    text = "pbem: 1\ngame: andromeda-7\npower: algol\nturn: 1\nseq: 0\norders: {}\n"
    (player.root / "t.yaml").write_text(text)
    sentence = ("instance: missing: the game instance this file is for (the instance: line of "
                "your report's order form), which `pbem orders new --view REPORT.eml` writes")
    out = player.run("check", "t.yaml", "--view", "view1.json")
    assert out.returncode == 1 and out.stdout == sentence + "\n"
    assert player.run("check", "t.yaml").stdout == sentence + "\n"
    for view in (("--view", "view1.json"), ()):
        out = player.run("sign", "t.yaml", "--key", "algol.key", *view, "-o", "t.asc")
        assert out.returncode == 1 and out.stderr == f"pbem orders: {sentence}\n"
        assert not (player.root / "t.asc").exists()
    assert (player.root / "t.yaml").read_text() == text


def test_check_refuses_a_file_for_another_instance_as_the_referee_does(player):
    (player.root / "t.yaml").write_text(
        f"pbem: 1\ngame: andromeda-7\npower: algol\nturn: 1\nseq: 0\ninstance: {OTHER}\n"
        "orders: {}\n")
    out = player.run("check", "t.yaml", "--view", "view1.json")
    assert out.returncode == 1 and out.stdout.startswith(
        "instance: this file is for another instance of game andromeda-7 (0123456789ab…), not "
        "the one running now (5f0c2b7e91d4…)")
    out = player.run("sign", "t.yaml", "--key", "algol.key", "--view", "view1.json")
    assert out.returncode == 1 and "another instance" in out.stderr


def test_new_refuses_to_overwrite(player):
    (player.root / "t.yaml").write_text("mine\n")
    out = player.run("new", "--view", "view1.json", "-o", "t.yaml")
    assert out.returncode == 1 and "--force" in out.stderr
    assert (player.root / "t.yaml").read_text() == "mine\n"


def test_depart_to_an_unknown_star_changes_nothing(player):
    player.ok("new", "--view", "view1.json", "-o", "t.yaml")
    before = (player.root / "t.yaml").read_text()
    out = player.run("depart", "t.yaml", "--from", "Algol", "--to", "Hamla", "--ships", "5")
    assert out.returncode == 1
    assert 'no star named "Hamla" — did you mean Hamal' in out.stderr
    assert out.stderr.count("\n") == 1
    assert (player.root / "t.yaml").read_text() == before
    assert not player.vault.exists()


def test_same_sector_journey_needs_no_commitment(player):
    player.ok("new", "--view", "view1.json", "-o", "t.yaml")
    neighbour = registry.load("4000ad").board.other_star("Algol")  # Algol's sector-mate
    player.ok("depart", "t.yaml", "--from", "Algol", "--to", neighbour, "--ships", "3")
    dep = load_order_yaml((player.root / "t.yaml").read_text())["orders"]["depart"]
    assert dep == {"warp": 1, "from": "Algol", "ships": 3, "to": neighbour}
    assert not player.vault.exists()
    assert player.ok("check", "t.yaml", "--view", "view1.json").stdout == "ok\n"


def test_second_departure_only_as_alternative(player):
    player.ok("new", "--view", "view1.json", "-o", "t.yaml")
    player.ok("depart", "t.yaml", "--from", "Algol", "--to", "Hamal", "--ships", "9")
    again = player.run("depart", "t.yaml", "--from", "Algol", "--to", "Mira", "--ships", "5")
    assert again.returncode == 1 and "--else" in again.stderr
    player.ok("depart", "t.yaml", "--from", "Algol", "--to", "Mira", "--ships", "5", "--else",
              "--warp", "1", "--escrow", str(escrow_pub(player)))
    dep = load_order_yaml((player.root / "t.yaml").read_text())["orders"]["depart"]
    assert dep["ships"] == 9 and dep["else"][0]["ships"] == 5 and "escrow" in dep["else"][0]
    assert len(Vault.load(player.vault).departures(GAME, "algol")) == 2
    assert player.ok("check", "t.yaml", "--view", "view1.json").stdout == "ok\n"


def escrow_pub(player: Player) -> Path:
    from pbem.protocol import escrow

    _key, pub = escrow.write_keypair(player.root / "referee")
    return pub


def test_check_lists_every_problem_one_per_line(player):
    (player.root / "t.yaml").write_text(
        head() + "orders:\n"
        "  depart: {warp: 3, from: Vgea, ships: 2.5, commitment: 3a7b}\n"
        "  vote_ned: true\n"
    )
    out = player.run("check", "t.yaml", "--view", "view1.json")
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert any(ln.startswith("orders.vote_ned: ") and "vote_end" in ln for ln in lines)
    assert any(ln.startswith("orders.depart.from: ") and "Vega" in ln for ln in lines)
    assert any(ln.startswith("orders.depart.ships: ") for ln in lines)
    assert any(ln.startswith("orders.depart.warp: ") for ln in lines)
    assert any(ln.startswith("orders.depart.commitment: ") and "64" in ln for ln in lines)
    assert len(lines) == 5


@pytest.mark.parametrize(
    "text, expected",
    [
        ("pbem: 1\norders: [\n", "not valid YAML"),
        (head(turn=2) + "orders: {}\n",
         "turn: this file is for turn 2"),
        (head(power="regulus") + "orders: {}\n",
         "power: this file is for power regulus"),
        (head() + "orders:\n"
         "  depart: {warp: 1, from: Algol, ships: 50, commitment: " + "ab" * 32 + "}\n",
         "orders.depart.ships: you have 15 ships at Algol, not 50"),
    ],
)
def test_check_rejections(player, text, expected):
    (player.root / "t.yaml").write_text(text)
    out = player.run("check", "t.yaml", "--view", "view1.json")
    assert out.returncode == 1 and expected in out.stdout
    assert (player.root / "t.yaml").read_text() == text


def test_check_without_view_checks_the_envelope(player):
    player.ok("new", "--view", "view1.json", "-o", "t.yaml")
    assert player.ok("check", "t.yaml").stdout.startswith("ok (envelope only")


def test_check_signed_file_with_wrong_signature(player):
    player.ok("new", "--view", "view1.json", "-o", "t.yaml")
    player.ok("sign", "t.yaml", "--key", "algol.key", "-o", "t.asc")
    tampered = (player.root / "t.asc").read_text().replace("seq: 0", "seq: 1")
    (player.root / "t.asc").write_text(tampered)
    out = player.run("check", "t.asc", "--view", "view1.json", "--pub", "algol.pub")
    assert out.returncode == 1 and out.stdout.startswith("signature.sig: the signature does not")


def test_sign_refuses_a_file_with_problems(player):
    (player.root / "t.yaml").write_text(
        head() + "orders: {concede: yes}\n"
    )
    out = player.run("sign", "t.yaml", "--key", "algol.key", "--view", "view1.json", "-o", "t.asc")
    assert out.returncode == 1 and "orders.concede" in out.stderr
    assert not (player.root / "t.asc").exists()
    bad_key = player.run("sign", "t.yaml", "--key", "missing.key")
    assert bad_key.returncode == 1 and "missing.key" in bad_key.stderr
