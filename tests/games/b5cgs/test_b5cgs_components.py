"""The stand-in component pack (games/b5cgs/data/standin.yaml) and its check: marked as a
stand-in, keeping every number of the rulebook's examples; a broken pack is refused with every
problem named by its path, also through ``pbem components check``."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from tests.support.b5cgs_driver import PLUGIN, components
from tests.support.run import pbem_text as _pbem


def pack():
    return components.standin()


def test_the_pack_says_plainly_it_is_a_stand_in():
    text = components.STANDIN.read_text(encoding="utf-8")
    assert "STAND-IN" in text and "NOT the published components" in text
    assert pack()["standin"] is True


def test_the_stand_in_pack_is_good():
    assert components.check_components(pack()) == []
    assert PLUGIN.check_components(pack()) == []


def test_the_pack_keeps_the_rulebooks_numbers():
    p = pack()
    ea = p["empires"]["earth-alliance"]
    assert ea["reserve"] == 45  # C4.3
    assert [b["token"] for b in ea["bases"]] == ["ea-base-8", "ea-base-2"]
    t = p["tokens"]
    assert (t["ea-hyperion"]["build"], t["ea-hyperion"]["upkeep"],
            t["ea-hyperion"]["repair"]) == (16, 3, 5)  # C4.3, D3.12
    assert (t["ea-transport"]["build"], t["ea-transport"]["upkeep"]) == (6, 2)  # C4.3, D3.11
    assert (t["base-4"]["build"], t["base-4"]["economy"]) == (9, 4)  # D3.11
    assert (t["mf-cruiser"]["build"], t["mf-cruiser"]["upkeep"]) == (14, 3)  # D3.22
    assert t["ea-freighter"]["special"]["docked_b5_bonus"] == 2  # D1.31
    assert p["pieces"]["black-hole"]["penalty_per_ship"] == 1  # D1.41
    assert set(ea["no_sideslip"]) == {"ea-nova", "ea-omega"}  # D4.13
    assert "forward-2" in p["empires"]["minbari"]["movement"]  # D4.13 Minbari speed 2
    assert p["dice"]["b5"] == [0, 1, 2, 3, 4, 5]  # ruling R1


def test_catalogue_normalises_printed_hexes_and_sides():
    cat = components.catalogue(pack())
    assert cat["pieces"]["earth"]["hexes"]["c"] == {"economy": 8}
    assert cat["pieces"]["earth"]["hexes"]["3"] == {"economy": 2}
    assert cat["tokens"]["ea-base-8"]["arcs"]["heavy"] == ["F", "FR", "AR", "A", "AL", "FL"]
    assert cat["tokens"]["ea-hyperion"]["jump"] == [True, False]
    assert cat["standin"] is True and len(cat["digest"]) == 64


def broken():
    p = copy.deepcopy(pack())
    p["tokens"]["ea-hyperion"]["dr"] = [6]
    p["tokens"]["ea-transport"]["kind"] = "starship"
    p["pieces"]["black-hole"]["hexes"]["7"] = {"economy": 2}
    p["pieces"]["gas-giant"]["hexes"]["c"] = {"economy": -1}
    p["empires"]["minbari"]["homeworld"] = "earth"
    del p["dice"]["dg"]["valdri"]
    p["tokens"]["ea-olympus"]["arcs"] = {"heavy": ["UP"]}
    return p


def test_a_broken_pack_names_each_problem_with_its_path():
    problems = components.check_components(broken())
    paths = {p.path for p in problems}
    assert {"tokens.ea-hyperion.dr", "tokens.ea-transport.kind", "pieces.black-hole.hexes.'7'",
            "pieces.gas-giant.hexes.c.economy", "empires.minbari.homeworld",
            "dice.dg.valdri", "tokens.ea-olympus.arcs.'heavy'"} <= paths, paths
    assert all(p.message for p in problems)


def test_nonsense_never_raises():
    for junk in (None, [], "pack", {"pack": 1}, {"empires": [], "tokens": 3, "pieces": None},
                 {"pack": "x", "empires": {"a": 1}, "tokens": {"b": []}, "pieces": {"c": 2}}):
        assert components.check_components(junk)


def test_pbem_components_check_passes_the_stand_in(tmp_path: Path):
    f = tmp_path / "standin.yaml"
    f.write_text(components.STANDIN.read_text(encoding="utf-8"), encoding="utf-8")
    out = _pbem("components", "check", str(f), "--game", "b5cgs")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "a good b5cgs component pack" in out.stdout


def test_pbem_components_check_names_each_problem_of_a_broken_pack(tmp_path: Path):
    f = tmp_path / "mine.yaml"
    f.write_text(yaml.safe_dump(broken()), encoding="utf-8")
    out = _pbem("components", "check", str(f), "--game", "b5cgs")
    assert out.returncode == 1
    for path in ("tokens.ea-hyperion.dr", "tokens.ea-transport.kind",
                 "empires.minbari.homeworld", "dice.dg.valdri"):
        assert f"{f}: {path}:" in out.stdout, out.stdout
