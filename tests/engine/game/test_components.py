"""Component packs (issue 15.4): a game takes its component data from a pack file checked by the
game (every problem listed with its path), recorded in genesis (digest; data in the game
directory) so the audit replays the same data; public exports carry only the digest. For
4000 A.D. the pack is the board file."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from pbem import canonical
from pbem.cli.main import main as pbem_main
from pbem.game import registry
from tests.support.pbem_host import AD, T0, iso
from tests.support.run import pbem_text as pbem

STAND_IN = registry.game_dir("4000ad") / "board.yaml"


def printed_board(tmp: Path) -> tuple[Path, dict]:
    """A group types in its printed board: other names for the invented stars (the rulebooks'
    placements kept) and its own resources."""
    data = yaml.safe_load(STAND_IN.read_text())
    data["reconstruction"] = False
    data["sectors"]["A-yellow"] = {"Algol": ["circle", "cross"], "Kaffaljidhma": ["cross"]}
    data["sectors"]["E-red"] = {"Betelgeuse": ["circle", "cross"], "Mintaka": []}
    path = tmp / "printed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path, json.loads(json.dumps(data))


def new_args(tmp: Path, game: Path, *extra: str) -> list[str]:
    args = ["new", str(game), "--game", "4000ad", "--variant", "independents-4", "--now", iso(T0),
            *extra]
    for power in AD.variants()["independents-4"].powers:
        prefix = tmp / f"{power}"
        if not prefix.with_suffix(".pub").exists():
            assert pbem_main(["keygen", str(prefix)]) == 0
        args += ["--power", f"{power}={power}@example.org:{prefix}.pub"]
    return args


def test_components_check_accepts_the_stand_in_pack_and_prints_its_digest(capsys):
    assert pbem_main(["components", "check", str(STAND_IN), "--game", "4000ad"]) == 0
    data = json.loads(json.dumps(yaml.safe_load(STAND_IN.read_text())))
    assert canonical.digest(data) in capsys.readouterr().out


def test_components_check_lists_every_problem_with_its_path(tmp_path, capsys):
    data = yaml.safe_load(STAND_IN.read_text())
    data["sectors"]["B-yellow"] = {"Schedar": ["circle", "gold"], "Ruchbah": []}
    data["sectors"]["Q-red"] = {"Nowhere": []}
    data["sectors"]["D-red"] = {"Menkar": [], "Alcor": []}  # Mira lost
    data["sectors"]["K-red"] = {"Nunki": ["circle"]}  # one star only
    del data["levels"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    assert pbem_main(["components", "check", str(bad), "--game", "4000ad"]) == 1
    out = capsys.readouterr().out
    assert "levels: missing" in out
    data["levels"] = ["yellow", "red"]
    bad.write_text(yaml.safe_dump(data))
    assert pbem_main(["components", "check", str(bad), "--game", "4000ad"]) == 1
    out = capsys.readouterr().out
    assert "sectors.B-yellow.Schedar[1]: unknown resource 'gold'" in out
    assert "sectors.Q-red: no such sector" in out
    assert "sectors: Mira is missing: the rulebooks place it in D-red" in out
    assert "sectors.K-red: 1 stars: the board has 2 in every sector" in out
    assert "4 problem(s)" in out


def test_a_pack_that_is_not_strict_yaml_is_refused_with_the_path(tmp_path, capsys):
    bad = tmp_path / "dup.yaml"
    bad.write_text(STAND_IN.read_text() + "levels: [yellow, red]\n")
    assert pbem_main(["components", "check", str(bad), "--game", "4000ad"]) == 1
    assert "levels" in capsys.readouterr().out


def test_pbem_new_with_a_pack_records_it_and_the_audit_replays_it(tmp_path):
    pack, data = printed_board(tmp_path)
    game = tmp_path / "root" / "printed"
    assert pbem_main(new_args(tmp_path, game, "--components", str(pack))) == 0
    genesis = json.loads((game / "log.jsonl").read_text().splitlines()[0])["body"]
    assert genesis["components"] == {"name": "printed.yaml", "digest": canonical.digest(data)}
    assert json.loads((game / "components.json").read_text()) == data
    assert (game / "components.json").stat().st_mode & 0o777 == 0o600
    state = json.loads((game / "state.json").read_text())["state"]
    view = AD.view(state, "algol")
    assert "Kaffaljidhma" in view["stars"] and "Caph" not in view["stars"]
    assert view["board_reconstruction"] is False
    assert pbem("audit", str(game)).returncode == 0
    public = tmp_path / "public.jsonl"
    full = tmp_path / "full.jsonl"
    assert pbem_main(["export", str(game), "--public", "-o", str(public)]) == 0
    assert pbem_main(["export", str(game), "-o", str(full)]) == 0
    text = public.read_text()
    assert canonical.digest(data) in text and "Kaffaljidhma" not in text
    # an export audited away from the game directory needs the pack beside it, by digest
    away = pbem("audit", str(full))
    assert away.returncode != 0 and "components" in away.stderr
    (tmp_path / "components.json").write_text(json.dumps(data))
    assert pbem("audit", str(full)).returncode == 0
    assert pbem("audit", str(public)).returncode == 0


def test_pbem_new_with_a_bad_pack_creates_nothing_and_lists_the_problems(tmp_path, capsys):
    data = yaml.safe_load(STAND_IN.read_text())
    data["sectors"]["B-red"] = {"Saiph": ["circle"], "Alnilam": []}  # Rigel moved away
    data["sectors"]["E-red"] = {"Rigel": ["cross"], "Mintaka": ["ore"]}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    game = tmp_path / "root" / "g"
    done = pbem(*new_args(tmp_path, game, "--components", str(bad)))
    assert done.returncode != 0 and done.stderr.count("\n") == 1
    assert "sectors.E-red.Rigel: the rulebooks place Rigel in B-red" in done.stderr
    assert "sectors.E-red.Mintaka[0]: unknown resource 'ore'" in done.stderr
    assert not game.exists()
