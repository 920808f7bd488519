"""``pbem dice verify`` and ``pbem dice roll`` as a player runs them: real subprocesses on a step
file and a report mail made here; a tampered draw, value or tip fails with one line naming it."""

from __future__ import annotations

import json
from email.message import EmailMessage

import pytest

from pbem.chance.player import player_chain
from pbem.chance.published import armor
from pbem.chance.referee import RefereeChance
from pbem.chance.step import StepChance
from pbem.chance.stream import Stream
from tests.support.run import pbem_text as pbem

GAME = "andromeda-7"


@pytest.fixture(scope="module")
def block() -> dict:
    """Step 3 of a game: two players revealed, one withheld; dice, a draw and a public shuffle."""
    referee = RefereeChance(bytes(range(32)), GAME, bytes(16))
    chains = {p: player_chain(bytes([i]) * 32) for i, p in enumerate(("algol", "regulus"))}
    chance = StepChance(GAME, 3, referee.reveal(3),
                        {"algol": chains["algol"].element(3),
                         "regulus": chains["regulus"].element(3), "sirius": None},
                        referee.k)
    chance.public("battle:Vega:attacker").roll([1, 2, 3, 4, 5, 6], 3)
    chance.secret("deal:deck").shuffle(range(40))  # hidden: not in the block
    chance.public("first-player").below(3)
    chance.public("turn-order").shuffle(["algol", "regulus", "sirius"])
    chance.public("battle:Vega:attacker").roll([1, 2, 3, 4, 5, 6], 2)
    data = chance.published()
    data["tips"] = {"referee": referee.commitments().referee_tip.hex(),
                    "players": {p: c.tip.hex() for p, c in chains.items()}}
    return data


def report(block: dict, *, inline: bool = False) -> bytes:
    mail = EmailMessage()
    mail["From"], mail["To"] = "referee@example.org", "algol@example.org"
    mail["Subject"] = f"[{GAME}] step 3 report"
    text = "Your report for step 3.\n"
    mail.set_content(text + ("\n" + armor(block) if inline else ""))
    if not inline:
        mail.add_attachment(json.dumps(block, indent=1).encode(), maintype="application",
                            subtype="json", filename="chance-step-3.json")
    return mail.as_bytes()


def test_verify_a_step_file(tmp_path, block):
    path = tmp_path / "step.json"
    path.write_text(json.dumps(block))
    out = pbem("dice", "verify", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == (f"{GAME} step 3: all 4 public draws match "
                          f"(public seed {block['public_seed'][:16]}…)\n")


@pytest.mark.parametrize("inline", [False, True], ids=["attached", "armored"])
def test_verify_a_report_mail(tmp_path, block, inline):
    path = tmp_path / "report.eml"
    path.write_bytes(report(block, inline=inline))
    out = pbem("dice", "verify", str(path), "--referee-tip", block["tips"]["referee"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"{GAME} step 3: all 4 public draws match")


def tampered(block: dict, change) -> dict:
    copy = json.loads(json.dumps(block))
    change(copy)
    return copy


@pytest.mark.parametrize("change,message", [
    (lambda b: b["draws"][2].__setitem__("result", [1, 0, 2]),
     "pbem dice: draw 3 ('turn-order', shuffle) differs: the report says [1, 0, 2], "
     "recomputed "),
    (lambda b: b["draws"][0]["result"].__setitem__(1, 7 - b["draws"][0]["result"][1]),
     "pbem dice: draw 1 ('battle:Vega:attacker', roll) differs"),
    (lambda b: b["players"].__setitem__("sirius", "ab" * 32),
     "pbem dice: public_seed: the report says"),
    (lambda b: b["players"].__setitem__("algol", "ab" * 32),
     "pbem dice: algol: the value for step 3 does not hash to the committed tip"),
    (lambda b: b.__setitem__("referee", "cd" * 32),
     "pbem dice: referee: the value for step 3 does not hash to the committed tip"),
    (lambda b: b["draws"][1].__setitem__("kind", "coin"),
     "pbem dice: draws[1].kind: must be below, roll or shuffle, not 'coin'"),
], ids=["shuffle", "die", "withheld-value-added", "player-value", "referee-value", "malformed"])
def test_a_tampered_report_is_caught_naming_what_differs(tmp_path, block, change, message):
    path = tmp_path / "report.eml"
    path.write_bytes(report(tampered(block, change)))
    out = pbem("dice", "verify", str(path))
    assert out.returncode == 1
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1, out.stderr
    assert out.stdout == ""


def test_the_referee_tip_a_player_holds_is_checked(tmp_path, block):
    path = tmp_path / "step.json"
    path.write_text(json.dumps(tampered(block, lambda b: b.pop("tips"))))
    out = pbem("dice", "verify", str(path), "--referee-tip", "ee" * 32)
    assert out.returncode == 1
    assert "referee: the value for step 3 does not hash to the committed tip" in out.stderr


def test_a_mail_without_a_block_and_a_missing_file_are_one_line(tmp_path):
    path = tmp_path / "plain.eml"
    mail = EmailMessage()
    mail["Subject"] = "hello"
    mail.set_content("no dice here\n")
    path.write_bytes(mail.as_bytes())
    out = pbem("dice", "verify", str(path))
    assert out.returncode == 1 and "no pbem chance block: no dice were drawn" in out.stderr
    assert out.stderr.count("\n") == 1
    out = pbem("dice", "verify", str(tmp_path / "missing.eml"))
    assert out.returncode == 1 and "missing.eml" in out.stderr and out.stderr.count("\n") == 1


def test_dice_roll_prints_the_streams_rolls():
    seed = "5a" * 32
    out = pbem("dice", "roll", "--seed-hex", seed, "--label", "battle:Vega", "--faces",
               "0,0,1,1,2,3", "--count", "12")
    assert out.returncode == 0, out.stderr
    expected = Stream(bytes.fromhex(seed), "battle:Vega").roll([0, 0, 1, 1, 2, 3], 12)
    assert out.stdout == " ".join(map(str, expected)) + "\n"
    bad = pbem("dice", "roll", "--seed-hex", "xyz", "--label", "a")
    assert bad.returncode == 1 and "--seed-hex: must be 64 hex digits" in bad.stderr
