"""The owner's component pack, for every game that takes one (``default_components``): ``pbem
new --components FILE`` makes the game from the owner's file, checked by the game, recorded in
genesis (its name and digest; the data in the game directory) so that ``pbem audit`` replays
the same data; a file the game's check refuses creates nothing and every problem is named with
where it is (docs/operations.md, "Rules versions and component packs")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from pbem import canonical
from pbem.game import registry
from tests.crossgame.adapters import adapter
from tests.support.pbem_host import Host
from tests.support.run import pbem_ok

GAMES = [g for g in registry.available()
         if getattr(registry.load(g), "default_components", None) is not None]


def test_every_game_with_data_takes_an_owners_pack() -> None:
    assert {"4000ad", "ashes", "b5cgs", "ti4"} <= set(GAMES), GAMES


@pytest.mark.parametrize("game", GAMES)
def test_the_owners_pack_is_checked_recorded_and_replayed(tmp_path: Path, game: str) -> None:
    _name, data = registry.load(game).default_components()
    data = json.loads(json.dumps(data))  # as the owner's YAML file gives it
    pack = tmp_path / "owners-pack.yaml"
    pack.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"pack-{game}",
                extra=["--deadline", "48h", "--components", str(pack)])
    genesis = json.loads((host.path / "log.jsonl").read_text().splitlines()[0])["body"]
    assert genesis["components"] == {"name": pack.name, "digest": canonical.digest(data)}, game
    assert json.loads((host.path / "components.json").read_text()) == data
    pbem_ok("audit", host.path)


@pytest.mark.parametrize("game", GAMES)
def test_a_pack_the_game_refuses_creates_nothing(tmp_path: Path, game: str) -> None:
    pack = tmp_path / "not-a-pack.yaml"
    pack.write_text("- just\n- a list\n", encoding="utf-8")
    keys = tmp_path / "k"
    keys.mkdir()
    variant = adapter(game).variant
    args = ["new", str(tmp_path / "root" / "g"), "--game", game, "--variant", variant,
            "--components", str(pack)]
    for power in registry.load(game).variants()[variant].powers:
        pbem_ok("keygen", str(keys / power))
        args += ["--power", f"{power}={power}@example.org:{keys / power}.pub"]
    out = pbem_ok(*args, ok=False)
    assert "--components" in out and pack.name in out, (game, out)
    assert not (tmp_path / "root" / "g").exists(), game
