"""``pbem orders sign`` and the player's chance (issue 26; pbem/cli/entropy.py): the README's
signing line contributes, nothing is signed without the contribution, and the tool never
reveals a chain value further ahead than the player's vault and the report's signed checkpoint
support (a referee-crafted view naming step 60000 gets nothing)."""

from __future__ import annotations

import json
import re
import shlex
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.chance.player import player_reveal, player_tip
from pbem.cli.entropy import MAX_AHEAD
from pbem.cli.main import main as pbem_main
from pbem.protocol.armor import dearmor, find_signed_blocks
from pbem.protocol.keys import PrivateKey
from pbem.store.checkpoint import Checkpoint
from tests.support.run import pbem_text
from tests.toygame.highcard import rules

GAME, INSTANCE = "lucky-9", "ab" * 16
README = Path(__file__).resolve().parents[3] / "README.md"
REFEREE = PrivateKey.generate()


class Player:
    """One player's folder: his key, his vault, the mails he saved."""

    def __init__(self, tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.tmp, self.capsys = tmp, capsys
        assert pbem_main(["keygen", str(tmp / "north")]) == 0
        self.key, self.vault = tmp / "north.key", tmp / "vault.json"
        capsys.readouterr()

    def run(self, *args: str) -> tuple[int, str, str]:
        try:
            code = pbem_main([*args, "--vault", str(self.vault)])
        except SystemExit as exc:
            code = int(exc.code or 0)
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def view(self, step: int, tip: str | None, turn: int = 1, **chance: Any) -> dict[str, Any]:
        view = rules.view(rules.setup("lucky-2", {"game_id": GAME}), "north")
        return {**view, "turn": turn, "instance": INSTANCE,
                "chance": {"step": step, "tip": tip, **chance}}

    def mail(self, view: dict[str, Any], length: int | None, name: str = "report.eml") -> Path:
        """A report mail as the referee sends it: view.json and the signed checkpoint."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "referee@x.org", "north@x.org", f"[{GAME}]"
        text = "Your report.\n"
        if length is not None:
            text += "\n" + Checkpoint.sign(REFEREE, GAME, length, "0" * 64).text()
        msg.set_content(text)
        msg.add_attachment(json.dumps(view).encode(), maintype="application", subtype="json",
                           filename="view.json")
        path = self.tmp / name
        path.write_bytes(msg.as_bytes())
        return path

    def orders(self, view_path: Path, name: str = "orders.yaml") -> Path:
        out = self.tmp / name
        code, _, err = self.run("orders", "new", "--view", str(view_path), "-o", str(out),
                                "--force")
        assert code == 0, err
        return out

    def signed_entropy(self, text: str) -> Any:
        (block,) = find_signed_blocks(text)
        return yaml.safe_load(dearmor(block).body).get("entropy")

    def seed(self) -> bytes:
        return bytes.fromhex(self.entry()["chance"][0]["seed"])

    def entry(self) -> dict[str, Any]:
        """The vault's record of north in this game instance."""
        games = json.loads(self.vault.read_text())["games"]
        return games[f"{GAME}#{INSTANCE}"]["north"]  # type: ignore[no-any-return]

    def set_up(self) -> str:
        """The set-up file signed from the welcome mail: the tip committed at step 1."""
        welcome = self.mail(self.view(1, None), 1, "welcome.eml")
        code, out, err = self.run("orders", "sign", str(self.orders(welcome)), "--key",
                                  str(self.key), "--view", str(welcome))
        assert code == 0, err
        tip = self.signed_entropy(out)["tip"]
        assert tip == player_tip(self.seed()).hex()
        return str(tip)

    def reveal(self, step: int, length: int | None) -> str:
        mail = self.mail(self.view(step, self.set_up_tip), length)
        code, out, err = self.run("orders", "sign", str(self.orders(mail)), "--key",
                                  str(self.key), "--view", str(mail))
        assert code == 0, err
        return str(self.signed_entropy(out))


@pytest.fixture
def player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Player:
    p = Player(tmp_path, capsys)
    p.set_up_tip = p.set_up()  # type: ignore[attr-defined]
    return p


def readme_sign_line() -> list[str]:
    """The README's signing line (the Play section's; every game's section signs the same way,
    each with --view)."""
    lines = [ln for ln in README.read_text().splitlines()
             if ln.startswith("pbem orders sign") and "--key" in ln]
    assert lines and all("--view" in ln for ln in lines), lines
    return shlex.split(lines[0].split("#")[0])[1:]


def test_the_readmes_signing_line_contributes(player: Player) -> None:
    """The README's command, as a player types it with his saved report mail, adds his value
    for the step (the set-up's tip was committed the same way)."""
    args = readme_sign_line()
    assert "--view" in args
    mail = player.mail(player.view(2, player.set_up_tip), 5)
    orders = player.orders(mail)
    subst = {"orders.yaml": str(orders), "ann.key": str(player.key),
             "report.eml": str(mail), "orders.signed": str(player.tmp / "orders.signed")}
    code, _, err = player.run(*[subst.get(a, a) for a in args])
    assert code == 0, err
    signed = (player.tmp / "orders.signed").read_text()
    assert player.signed_entropy(signed) == player_reveal(player.seed(), 2).hex()


def test_signing_without_a_view_in_a_chance_game_refuses_with_one_sentence(
        player: Player) -> None:
    """A file of a turn whose view the vault never read: no step to reveal, nothing signed."""
    bare = player.tmp / "bare.yaml"
    bare.write_text(f"pbem: 1\ngame: {GAME}\npower: north\nturn: 3\nseq: 4\n"
                    f"instance: {INSTANCE}\norders: {{}}\n")
    before = player.vault.read_bytes()
    code, out, err = player.run("orders", "sign", str(bare), "--key", str(player.key), "-o",
                                str(player.tmp / "bare.signed"))
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and "this game draws dice: pass --view REPORT.eml" in err
    assert "nothing was signed" in err
    assert not (player.tmp / "bare.signed").exists() and player.vault.read_bytes() == before


def test_without_a_view_the_vault_tells_the_step_of_a_view_read_for_that_turn(
        player: Player) -> None:
    """`pbem orders new --view` keeps the step its view asks for: the file of that turn signed
    without --view still carries the value."""
    mail = player.mail(player.view(2, player.set_up_tip, turn=2), 4)
    orders = player.orders(mail)
    code, out, err = player.run("orders", "sign", str(orders), "--key", str(player.key))
    assert code == 0, err
    assert player.signed_entropy(out) == player_reveal(player.seed(), 2).hex()


@pytest.mark.parametrize("length", [60_001, None], ids=["signed-checkpoint", "bare-view"])
def test_a_crafted_view_naming_step_60000_reveals_nothing(player: Player,
                                                           length: int | None) -> None:
    player.reveal(2, 5)
    mail = player.mail(player.view(60_000, player.set_up_tip), length, "crafted.eml")
    view_arg = mail
    if length is None:  # the bare view.json, no mail around it
        view_arg = player.tmp / "crafted.json"
        view_arg.write_text(json.dumps(player.view(60_000, player.set_up_tip)))
    orders = player.orders(view_arg, "crafted.yaml")
    before = player.vault.read_bytes()
    out_file = player.tmp / "crafted.signed"
    code, out, err = player.run("orders", "sign", str(orders), "--key", str(player.key),
                                "--view", str(view_arg), "-o", str(out_file))
    assert code != 0 and out == "" and err.count("\n") == 1, err
    assert "step 60000" in err and "nothing was signed" in err
    assert not out_file.exists()
    assert player.vault.read_bytes() == before
    assert player_reveal(player.seed(), 60_000).hex() not in err + out


def test_after_missed_steps_the_checkpoint_supports_the_open_step(player: Player) -> None:
    """Last value at step 2 (a log of 5 entries); three steps missed; the report of step 6
    carries a checkpoint of 14 entries: step 6 is revealed, and recorded."""
    player.reveal(2, 5)
    assert player.reveal(6, 14) == player_reveal(player.seed(), 6).hex()
    assert player.entry()["chance_last"] == {"step": 6, "length": 14}


@pytest.mark.parametrize("step,length,why", [
    (6, 7, "the log grew by 2 entries since step 2: at most step 4"),
    (6, 5, "a log of 5 entries holds at most 5 steps"),
    (2 + MAX_AHEAD + 1, 10_000, "more than MAX_AHEAD steps at once"),
])
def test_a_step_the_checkpoint_does_not_support_is_refused(player: Player, step: int,
                                                           length: int, why: str) -> None:
    player.reveal(2, 5)
    mail = player.mail(player.view(step, player.set_up_tip), length)
    orders = player.orders(mail)
    before = player.vault.read_bytes()
    code, _, err = player.run("orders", "sign", str(orders), "--key",
                              str(player.key), "--view", str(mail))
    assert code != 0, why
    assert re.search(r"supports at most step \d+", err) and player.vault.read_bytes() == before


def test_the_next_step_needs_no_checkpoint(player: Player) -> None:
    player.reveal(2, 5)
    bare = player.tmp / "view3.json"
    bare.write_text(json.dumps(player.view(3, player.set_up_tip)))
    code, out, err = player.run("orders", "sign", str(player.orders(bare)), "--key",
                                str(player.key), "--view", str(bare))
    assert code == 0, err
    assert player.signed_entropy(out) == player_reveal(player.seed(), 3).hex()


def test_a_listened_power_signs_its_value_alone(player: Player) -> None:
    """The step asks the defender for no orders but listens to his chance: the file carries
    his value and no orders."""
    mail = player.mail(player.view(2, player.set_up_tip, contribute="offer"), 5)
    orders = player.orders(mail)
    code, out, err = player.run("orders", "sign", str(orders), "--key", str(player.key),
                                "--view", str(mail))
    assert code == 0, err
    (block,) = find_signed_blocks(out)
    doc = yaml.safe_load(dearmor(block).body)
    assert doc["orders"] == {} and doc["entropy"] == player_reveal(player.seed(), 2).hex()


def test_a_lost_seed_refuses_rather_than_signing_without(player: Player) -> None:
    mail = player.mail(player.view(2, "cd" * 32), 5)
    code, out, err = player.run("orders", "sign", str(player.orders(mail)), "--key",
                                str(player.key), "--view", str(mail))
    assert code != 0 and out == "" and "holds no chance seed" in err


def test_a_step_that_needs_nothing_reveals_nothing(player: Player) -> None:
    """The view says the step takes no contribution from this power (it draws nothing, or his
    tip was committed in this very step): the file carries no entropy and the vault's last
    step stays."""
    player.reveal(2, 5)
    mail = player.mail(player.view(3, player.set_up_tip, contribute=None), 6)
    code, out, err = player.run("orders", "sign", str(player.orders(mail)), "--key",
                                str(player.key), "--view", str(mail))
    assert code == 0, err
    assert player.signed_entropy(out) is None
    assert player.entry()["chance_last"]["step"] == 2


def test_a_turn_whose_view_asks_nothing_signs_without_a_view(player: Player) -> None:
    """A step that draws nothing (``contribute: null``) after the set-up: once `pbem orders new
    --view` has read its report, the file is signed without --view as it is (it was refused
    for a view the tool had read), with no value; a turn whose view was never read is still
    refused."""
    mail = player.mail(player.view(3, player.set_up_tip, turn=3, contribute=None), 3)
    orders = player.tmp / "turn3.yaml"
    vault = ("--vault", str(player.vault))
    assert pbem_text("orders", "new", "--view", mail, "-o", orders, *vault).returncode == 0
    done = pbem_text("orders", "sign", orders, "--key", player.key, *vault)
    assert done.returncode == 0, done.stderr
    assert "BEGIN PBEM SIGNED ORDERS" in done.stdout and "entropy" not in done.stdout
    orders.write_text(orders.read_text().replace("\nturn: 3\n", "\nturn: 4\n"))
    refused = pbem_text("orders", "sign", orders, "--key", player.key, *vault)
    assert refused.returncode == 1 and "pass --view REPORT.eml" in refused.stderr
