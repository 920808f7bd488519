"""``pbem new`` run as a real subprocess with real key files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.protocol.keys import write_keypair
from pbem.store.gamedir import GameDir
from tests.support.run import pbem_text as pbem

REPO = Path(__file__).resolve().parents[3]
POWERS = ("pavo", "antares", "regulus", "algol")


@pytest.fixture
def pubs(tmp_path):
    (tmp_path / "players").mkdir()
    return {power: write_keypair(tmp_path / "players" / power)[1] for power in POWERS}


def power_args(pubs, **override):
    args = []
    for power, pub in pubs.items():
        args += ["--power", override.get(power, f"{power}={power}@example.org:{pub}")]
    return args


def test_new_game_weekdays(tmp_path, pubs):
    root = tmp_path / "games"
    text = pubs["algol"].read_text().strip()
    out = pbem(
        "new",
        str(root / "andromeda-7"),
        "--game",
        "4000ad",
        "--variant",
        "independents-4",
        *power_args(pubs, algol=f"algol=di@example.org:{text}"),
        "--weekdays",
        "mon,thu",
        "--hour",
        "18:00",
        "--tz",
        "Europe/Paris",
        "--gm",
        "gm@example.org",
        "--option",
        "ships_at_start=12",
        "--now",
        "2026-12-01T09:00:00Z",
    )
    assert out.returncode == 0, out.stderr
    assert "created" in out.stdout and "mon, thu at 18:00 Europe/Paris" in out.stdout
    assert "first deadline 2026-12-03T17:00:00Z" in out.stdout
    assert "new referee key" in out.stdout
    game = GameDir.open(root / "andromeda-7")
    assert game.config.options == {"ships_at_start": 12}
    assert game.genesis["keys"]["algol"].split()[:2] == text.split()[:2]
    assert game.config.powers["algol"].email == "di@example.org"
    assert (root / "referee.key").is_file()
    second = pbem(
        "new",
        str(root / "bootes-2"),
        "--game",
        "4000ad",
        "--variant",
        "independents-4",
        *power_args(pubs),
        "--deadline",
        "72h",
        "--mode",
        "sequential",
    )
    assert second.returncode == 0, second.stderr
    assert "new referee key" not in second.stdout
    assert GameDir.open(root / "bootes-2").referee_public() == game.referee_public()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"--variant": "independents-9"}, "unknown variant 'independents-9' of 4000ad"),
        ({"drop": "algol"}, "needs power 'algol' too"),
        ({"dup": "pavo"}, "--power pavo is given twice"),
        ({"algol": "algol=di-at-example:KEY"}, "--power algol: 'di-at-example' is not an email"),
        ({"algol": "algol=di@example.org:pbem-ed25519 AAAA"}, "--power algol: bad key"),
        ({"algol": "algol=di@example.org:/no/such.pub"}, "--power algol: bad key: key "),
        ({"algol": "algol"}, "expected NAME=EMAIL:PUBKEY"),
        ({"--deadline": "2 days"}, "--deadline: '2 days' is not a duration"),
        ({"--tz": "Mars/Olympus"}, "--tz: 'Mars/Olympus' is not a known IANA time zone"),
        ({"--gm": "nobody"}, "--gm: 'nobody' is not an email address"),
    ],
)
def test_one_line_errors(tmp_path, pubs, change, message):
    args = [
        "new",
        str(tmp_path / "g" / "andromeda-7"),
        "--game",
        "4000ad",
        "--variant",
        change.get("--variant", "independents-4"),
    ]
    powers = dict(pubs)
    if "drop" in change:
        del powers[change["drop"]]
    override = {k: v for k, v in change.items() if k in POWERS}
    args += power_args(powers, **override)
    if "dup" in change:
        args += ["--power", f"pavo=x@example.org:{pubs['pavo']}"]
    for flag in ("--deadline", "--tz", "--gm"):
        if flag in change:
            args += [flag, change[flag]]
    out = pbem(*args)
    assert out.returncode != 0
    assert message in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("pbem new: ")
    assert not (tmp_path / "g" / "andromeda-7").exists()


def test_existing_game_refused_and_help(tmp_path, pubs):
    target = tmp_path / "andromeda-7"
    first = pbem("new", str(target), "--game", "4000ad", "--variant", "independents-4",
                 *power_args(pubs))
    assert first.returncode == 0, first.stderr
    again = pbem("new", str(target), "--game", "4000ad", "--variant", "independents-4",
                 *power_args(pubs))
    assert again.returncode == 1 and "exists already" in again.stderr
    help_text = pbem("new", "--help").stdout
    assert "NAME=EMAIL:PUBKEY" in help_text and "--weekdays" in help_text


@pytest.mark.parametrize(("game", "variant", "message"), [
    ("b5cgs", "basic-2", "no --power given: name every power of b5cgs basic-2, once each as "
     "--power NAME=EMAIL:KEY.pub (its powers: earth-alliance, minbari)"),
    ("ashes", "rounds-9", "unknown variant 'rounds-9' of ashes (known: "),
])
def test_new_without_powers_names_the_variants_powers(tmp_path, game, variant, message):
    """A newcomer who does not yet know the power names is told them (or the variants), in
    one line, and nothing is created."""
    out = pbem("new", str(tmp_path / "g" / "g1"), "--game", game, "--variant", variant)
    assert out.returncode == 1 and out.stderr.startswith("pbem new: ")
    assert message in out.stderr and out.stderr.count("\n") == 1, out.stderr
    assert not (tmp_path / "g").exists()
