"""A game records the rules version and the data it started with, so fixing a rule or replacing
the board file never breaks (or silently changes) a game in progress (issue 15.5, issue 12.10).

The games root is copied and edited (PBEM_GAMES_DIR), and every pbem command runs as a
subprocess, so each sees the plugin and data files as a host would after an upgrade."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from pbem import canonical
from pbem.cli.main import main as pbem_main
from pbem.game import registry
from pbem.store.gamedir import GameDir
from tests.support.ad_driver import ad_module
from tests.support.pbem_host import AD, T0, Host, at, instance_of, iso
from tests.support.run import pbem_text

GAME = "fourthousand_ad"


def pbem(*args: str, games: Path | None = None) -> subprocess.CompletedProcess[str]:
    return pbem_text(*args, env={"PBEM_GAMES_DIR": str(games)} if games is not None else None)


def copy_games(tmp: Path, name: str) -> Path:
    dest = tmp / name
    shutil.copytree(registry.game_dir("4000ad").parent, dest,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def edit_manifest(games: Path, **fields: Any) -> None:
    path = games / GAME / "game.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(fields)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def new_game(tmp: Path, root: Path, game_id: str, games: Path | None,
             extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    args = ["new", str(root / game_id), "--game", "4000ad", "--variant", "independents-4",
            "--now", iso(T0),
            "--deadline", "48h", *extra]
    keydir = tmp / "keys"
    keydir.mkdir(exist_ok=True)
    for power in AD.variants()["independents-4"].powers:
        prefix = keydir / f"{game_id}-{power}"
        if not prefix.with_suffix(".pub").exists():
            assert pbem_main(["keygen", str(prefix)]) == 0
        args += ["--power", f"{power}={power}@example.org:{prefix}.pub"]
    return pbem(*args, games=games)


# -- genesis -----------------------------------------------------------------------------------
def test_genesis_records_the_rules_version_the_data_digests_and_the_games_own_board(tmp_path):
    host = Host(tmp_path)
    genesis = host.game().genesis
    assert genesis["rules_version"] == AD.rules_version == 2
    variants_file = registry.game_dir("4000ad") / "variants.yaml"
    assert genesis["data"] == {"variants.yaml": canonical.digest(
        yaml.safe_load(variants_file.read_text()))}
    pack = json.loads((host.path / "components.json").read_text())
    assert genesis["components"] == {"name": "board.yaml", "digest": canonical.digest(pack)}
    assert (host.path / "components.json").stat().st_mode & 0o777 == 0o600
    state = host.state()
    assert state["board"] == ad_module("board").normal_form(pack)
    assert state["rules_version"] == 2
    assert AD.view(state, "algol")["board"] == state["board"]  # the tool needs no host file


# -- rules versions ----------------------------------------------------------------------------
def test_a_game_started_under_an_older_rules_version_is_refused_naming_both_and_others_go_on(
        tmp_path):
    root = tmp_path / "root"
    old = copy_games(tmp_path, "games-v1")
    edit_manifest(old, rules_version=1, rules_versions_supported=[1])
    assert new_game(tmp_path, root, "old", old).returncode == 0
    assert new_game(tmp_path, root, "current", None).returncode == 0
    assert json.loads((root / "old" / "log.jsonl").read_text().splitlines()[0])[
        "body"]["rules_version"] == 1
    ran = pbem("run", str(root), "--now", iso(at(49)))
    assert ran.returncode != 0 or "error" in ran.stdout
    old_line = next(line for line in ran.stdout.splitlines() if "old" in line.split()[0])
    assert "rules version 1" in old_line and "rules version 2" in old_line
    assert len(GameDir.open(root / "old").log.entries) == 1  # nothing was resolved
    assert any(e.kind == "resolve" for e in GameDir.open(root / "current").log.entries)
    audit = pbem("audit", str(root / "old"))
    assert audit.returncode != 0
    assert "rules version 1" in audit.stderr + audit.stdout
    assert pbem("audit", str(root / "current")).returncode == 0


def test_a_plugin_that_still_plays_the_old_version_gets_it_passed_in_the_options(tmp_path):
    root = tmp_path / "root"
    old = copy_games(tmp_path, "games-v1")
    edit_manifest(old, rules_version=1, rules_versions_supported=[1])
    assert new_game(tmp_path, root, "old", old).returncode == 0
    both = copy_games(tmp_path, "games-v2")
    edit_manifest(both, rules_version=2, rules_versions_supported=[1, 2])
    (root / "old" / "state.json").unlink()  # the replay must re-make set-up from genesis
    ran = pbem("run", str(root), "--now", iso(at(49)), games=both)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    game = GameDir.open(root / "old")
    assert any(e.kind == "resolve" for e in game.log.entries)
    state = json.loads((root / "old" / "state.json").read_text())["state"]
    assert state["rules_version"] == 1  # the rules were told which version they play
    assert pbem("audit", str(root / "old"), games=both).returncode == 0


def test_a_changed_data_file_without_a_new_rules_version_is_refused_by_name(tmp_path):
    root = tmp_path / "root"
    games = copy_games(tmp_path, "games")
    assert new_game(tmp_path, root, "g1", games).returncode == 0
    variants = games / GAME / "variants.yaml"
    variants.write_text(variants.read_text().replace('"Alliances, 2 players"', '"Two-handed"'))
    ran = pbem("run", str(root), "--now", iso(at(49)), games=games)
    assert "variants.yaml changed since the game started" in ran.stdout
    assert len(GameDir.open(root / "g1").log.entries) == 1


# -- the board ---------------------------------------------------------------------------------
def renamed_board(games: Path, old: str, new: str) -> None:
    """A group replaces the board file: one invented star gets its printed name."""
    path = games / GAME / "board.yaml"
    text = path.read_text()
    assert f" {old}:" in text or f"{{{old}:" in text
    path.write_text(text.replace(f"{old}:", f"{new}:"))


def test_a_new_board_file_changes_new_games_and_running_games_keep_their_own(tmp_path):
    root = tmp_path / "root"
    games = copy_games(tmp_path, "games")
    assert new_game(tmp_path, root, "running", games).returncode == 0
    first = pbem("run", str(root), "--now", iso(at(49)), games=games)
    assert first.returncode == 0, first.stdout + first.stderr
    renamed_board(games, "Caph", "Kaffaljidhma")
    assert new_game(tmp_path, root, "fresh", games).returncode == 0
    (root / "running" / "state.json").unlink()  # replayed from the log, on its own board
    second = pbem("run", str(root), "--now", iso(at(98)), games=games)
    assert second.returncode == 0, second.stdout + second.stderr
    running = json.loads((root / "running" / "state.json").read_text())["state"]
    fresh = json.loads((root / "fresh" / "state.json").read_text())["state"]
    assert running["turn"] == 3  # resolved twice, across the board change
    assert "Caph" in [name for name, _ in running["board"]["sectors"]["A-yellow"]]
    assert "Kaffaljidhma" in [name for name, _ in fresh["board"]["sectors"]["A-yellow"]]
    assert "Kaffaljidhma" in AD.view(fresh, "algol")["stars"]
    assert "Caph" in AD.view(running, "algol")["stars"]
    for game_id in ("running", "fresh"):
        audit = pbem("audit", str(root / game_id), games=games)
        assert audit.returncode == 0, audit.stdout + audit.stderr


def test_pbem_distance_with_a_view_measures_on_the_views_board(tmp_path):
    host = Host(tmp_path)
    view = AD.view(host.state(), "algol")
    view["board"]["sectors"]["L-red"] = {"Kaffaljidhma": ["circle"], "Antares": ["circle"]}
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    done = pbem("distance", "--view", str(path), "Algol", "Kaffaljidhma")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == AD.board.distance("Algol", "Antares")
    host_only = pbem("distance", "Algol", "Kaffaljidhma")
    assert host_only.returncode != 0 and "Kaffaljidhma" in host_only.stderr


def signed_mail(tmp: Path, game_id: str, power: str, msgid: str) -> bytes:
    from pbem.protocol.keys import PrivateKey
    from pbem.protocol.orderdoc import sign_orders
    from tests.support.ingest_helpers import order_mail

    key = PrivateKey.load(tmp / "keys" / f"{game_id}-{power}.key")
    doc = {"pbem": 1, "game": game_id, "power": power, "turn": 1, "seq": 1,
           "instance": instance_of(tmp / "root" / game_id), "orders": {}}
    return order_mail(sign_orders(yaml.safe_dump(doc, sort_keys=False), key), msgid=msgid,
                      sender=f"{power}@example.org")


def test_ingest_refuses_orders_for_a_game_of_another_rules_version_and_takes_the_others(
        tmp_path):
    root = tmp_path / "root"
    old = copy_games(tmp_path, "games-v1")
    edit_manifest(old, rules_version=1, rules_versions_supported=[1])
    assert new_game(tmp_path, root, "old", old).returncode == 0
    assert new_game(tmp_path, root, "current", None).returncode == 0
    for game_id in ("old", "current"):
        done = subprocess.run(
            [sys.executable, "-m", "pbem", "ingest", str(root), "--stdin", "--now", iso(at(1))],
            input=signed_mail(tmp_path, game_id, "algol", f"<{game_id}@example.org>"),
            capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
        if game_id == "old":
            assert b"rules version 1" in done.stdout + done.stderr
    assert [e.kind for e in GameDir.open(root / "old").log.entries] == ["genesis"]
    assert [e.kind for e in GameDir.open(root / "current").log.entries] == ["genesis", "orders"]
    kept = list((root / "quarantine").rglob("*"))  # the refused mail is kept, not lost
    assert any("rules version 1" in p.read_text(errors="replace") for p in kept if p.is_file())


def test_the_board_reads_the_same_from_a_canonical_state_cache_as_from_set_up(tmp_path):
    """state.json is canonical JSON (mapping keys sorted): the board, the views and the reports
    made from a cached state list the stars in the same order as from a fresh set-up."""
    host = Host(tmp_path)
    fresh = AD.setup("independents-4", GameDir.open(host.path).setup_options())
    cached = json.loads(canonical.encode(fresh))
    assert list(cached["board"]["sectors"]) != list(fresh["board"]["sectors"])  # keys re-sorted
    for power in (None, "algol"):
        a, b = AD.view(cached, power), AD.view(fresh, power)
        assert canonical.encode(a) == canonical.encode(b)
        assert list(a["stars"]) == list(b["stars"])  # the presenter draws the map in this order
