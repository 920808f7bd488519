"""Game directories with the real 4000 A.D. plugin: creation, verification, the state cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem import canonical
from pbem.game import registry
from pbem.protocol.keys import PrivateKey
from pbem.schedule import Schedule
from pbem.store import log as glog
from pbem.store.checkpoint import check_extends
from pbem.store.gameconfig import GameConfig, PowerEntry
from pbem.store.gamedir import (
    ConfigMismatch,
    GameDir,
    GameDirError,
    _state_bytes,
    games_under,
    overwrite_cache,
)
from pbem.store.lock import Busy, locked
from pbem.store.referee import referee_key
from tests.support.genesis_setup import setup_options

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
POWERS = ("pavo", "antares", "regulus", "algol")


@pytest.fixture(scope="module")
def plugin():
    return registry.load("4000ad")


@pytest.fixture(scope="module")
def player_keys():
    return {p: PrivateKey.generate() for p in POWERS}


def make_config(game_id="andromeda-7", powers=POWERS, **kw):
    return GameConfig(
        game_id=game_id,
        game="4000ad",
        variant="independents-4",
        powers={p: PowerEntry(p, f"{p}@example.org", f"keys/{p}.pub") for p in powers},
        schedule=Schedule(period=timedelta(hours=48)),
        gm="gm@example.org",
        **kw,
    )


def create(root, plugin, player_keys, game_id="andromeda-7"):
    keys = {p: k.public for p, k in player_keys.items()}
    return GameDir.create(root, make_config(game_id), keys, plugin, NOW)


def replay_with(plugin):
    """The replay a caller provides: set-up, then each ``resolve`` entry's orders."""
    calls = []

    def replay(entries):
        calls.append(len(entries))
        body = entries[0].body
        state = plugin.setup(body["variant"], setup_options(body))
        for entry in entries[1:]:
            if entry.kind == "resolve":
                state = plugin.resolve(state, entry.body["orders"]).state
        return state

    replay.calls = calls
    return replay


def play_turn(game, plugin, state, when):
    orders = {p: plugin.default_orders(state, p) for p in plugin.powers_due(state)}
    new = plugin.resolve(state, orders).state
    game.log.append("resolve", when, {"orders": orders, "state": canonical.digest(new)})
    game.save_state(new)
    return new


def test_create_writes_the_layout(tmp_path, plugin, player_keys):
    game = create(tmp_path, plugin, player_keys)
    path = tmp_path / "andromeda-7"
    assert game.path == path
    assert sorted(p.name for p in path.iterdir()) == [
        "components.json",
        "config.yaml",
        "keys",
        "log.jsonl",
        "state.json",
    ]
    assert sorted(p.name for p in (path / "keys").iterdir()) == [f"{p}.pub" for p in sorted(POWERS)]
    assert (tmp_path / "referee.key").stat().st_mode & 0o777 == 0o600
    assert (path / "components.json").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    genesis = game.log.genesis
    assert (genesis.seq, genesis.kind, genesis.time) == (0, "genesis", "2026-11-30T17:00:00Z")
    body = genesis.body
    assert body["plugin"] == "4000ad" and body["variant"] == "independents-4"
    assert body["options"] == {"game_id": "andromeda-7", "mode": "simultaneous"}
    assert body["keys"]["algol"] == player_keys["algol"].public.text()
    assert body["referee"] == referee_key(tmp_path)[0].public.text()
    assert body["deadline"] == "2026-12-02T17:00:00Z"
    initial = plugin.setup("independents-4", setup_options(body))
    assert body["initial_state"] == canonical.digest(initial)
    assert game.initial_state(plugin) == initial
    assert game.registered_keys() == {p: k.public for p, k in player_keys.items()}
    state = json.loads((path / "state.json").read_text())
    assert state["log_length"] == 1 and state["head"] == genesis.hash
    assert state["state"] == initial
    assert GameConfig.load(path / "config.yaml") == game.config


def test_create_refuses_bad_input(tmp_path, plugin, player_keys):
    keys = {p: k.public for p, k in player_keys.items()}
    with pytest.raises(GameDirError, match="needs power 'algol' too"):
        GameDir.create(tmp_path, make_config(powers=POWERS[:3]), keys, plugin, NOW)
    cfg = make_config(powers=(*POWERS, "mira"))
    with pytest.raises(GameDirError, match="has no power 'mira'"):
        GameDir.create(tmp_path, cfg, {**keys, "mira": keys["pavo"]}, plugin, NOW)
    bad_variant = GameConfig.from_data({**make_config().to_data(), "variant": "independents-9"})
    with pytest.raises(GameDirError, match="unknown variant 'independents-9' of 4000ad"):
        GameDir.create(tmp_path, bad_variant, keys, plugin, NOW)
    with pytest.raises(GameDirError, match="no public key for power 'pavo'"):
        GameDir.create(tmp_path, make_config(), {p: keys[p] for p in POWERS[1:]}, plugin, NOW)
    create(tmp_path, plugin, player_keys)
    with pytest.raises(GameDirError, match="exists already"):
        create(tmp_path, plugin, player_keys)
    assert games_under(tmp_path) == [tmp_path / "andromeda-7"]


def test_many_games_under_one_root_share_the_referee(tmp_path, plugin, player_keys):
    a = create(tmp_path, plugin, player_keys, "andromeda-7")
    b = create(tmp_path, plugin, player_keys, "bootes-2")
    (tmp_path / "notes").mkdir()
    assert games_under(tmp_path) == [a.path, b.path]
    assert a.referee_public() == b.referee_public()
    assert a.log.head != b.log.head  # the game id is in the genesis entry


def test_open_verifies_and_detects_config_tampering(tmp_path, plugin, player_keys):
    game = create(tmp_path, plugin, player_keys)
    again = GameDir.open(game.path)
    assert again.log.head == game.log.head
    cfg_path = game.path / "config.yaml"
    text = cfg_path.read_text()
    cfg_path.write_text(text.replace("reminder: 1d", "reminder: 12h"))  # allowed: schedule
    assert GameDir.open(game.path).config.schedule.reminder == timedelta(hours=12)
    cfg_path.write_text(text.replace("variant: independents-4", "variant: wild-4"))
    with pytest.raises(ConfigMismatch, match="variant is 'wild-4' but the game started with"):
        GameDir.open(game.path)


def test_state_cache_current_stale_corrupt_truncated(tmp_path, plugin, player_keys):
    game = create(tmp_path, plugin, player_keys)
    replay = replay_with(plugin)
    loaded = game.load_state(replay)
    assert loaded.rebuilt is None and replay.calls == []
    state = loaded.state
    for turn in range(3):
        state = play_turn(game, plugin, state, NOW + timedelta(days=2 * turn + 2))
    game = GameDir.open(game.path)
    assert game.load_state(replay).state == state and replay.calls == []

    good = game.state_path.read_bytes()
    game.state_path.write_bytes(good[: len(good) // 2])  # truncated
    loaded = game.load_state(replay)
    assert "not valid JSON" in loaded.rebuilt and loaded.state == state
    assert game.state_path.read_bytes() == good  # rebuilt and written back

    data = json.loads(good)
    data["state"]["turn"] += 1  # corrupted content, head still right
    game.state_path.write_text(json.dumps(data))
    assert "does not match its digest" in game.load_state(replay).rebuilt

    # stale: the log advanced (crash after the log append, before the state write)
    state = play_turn(game, plugin, state, NOW + timedelta(days=10))
    game.state_path.write_bytes(good)
    loaded = game.load_state(replay)
    assert "stale: it is for log length 4, the log has 5" in loaded.rebuilt
    assert loaded.state == state

    game.state_path.unlink()
    assert "missing" in game.load_state(replay).rebuilt
    assert replay.calls == [4, 4, 5, 5]


def test_the_state_cache_digest_holds_in_any_json_form(tmp_path, plugin, player_keys):
    """The state read from state.json is checked against its digest whether the file is as
    pbem writes it (its bytes hashed as they stand) or in another JSON form of the same values
    (the state encoded again); a change to the state is found either way."""
    game = create(tmp_path, plugin, player_keys)
    replay = replay_with(plugin)
    state = play_turn(game, plugin, game.load_state(replay).state, NOW + timedelta(days=2))
    good = game.state_path.read_bytes()
    assert b'"turn":' in good
    for form in (good, json.dumps(json.loads(good), indent=1).encode()):
        game.state_path.write_bytes(form)
        loaded = game.load_state(replay)
        assert loaded.rebuilt is None and loaded.state == state and replay.calls == []
    for changed in (good.replace(b'"turn":', b'"turn":1', 1),
                    json.dumps(json.loads(good.replace(b'"turn":', b'"turn":1', 1))).encode()):
        game.state_path.write_bytes(changed)
        assert "does not match its digest" in game.load_state(replay).rebuilt
    assert game.state_path.read_bytes() == good


def test_corrupted_log_stops_the_game(tmp_path, plugin, player_keys):
    game = create(tmp_path, plugin, player_keys)
    play_turn(game, plugin, game.initial_state(plugin), NOW + timedelta(days=2))
    raw = bytearray(game.log_path.read_bytes())
    raw[-30] ^= 0x04
    game.log_path.write_bytes(bytes(raw))
    with pytest.raises(glog.LogError, match=r"log.jsonl line 2 \(seq 1\)"):
        GameDir.open(game.path, repair_torn_tail=True)  # never "fixed"


def test_torn_tail_repaired_only_on_request(tmp_path, plugin, player_keys):
    game = create(tmp_path, plugin, player_keys)
    with open(game.log_path, "ab") as fh:
        fh.write(b'{"body":{"orders"')
    with pytest.raises(glog.TornTail):
        GameDir.open(game.path)
    with locked(game.path):
        reopened = GameDir.open(game.path, repair_torn_tail=True)
    assert reopened.repaired == b'{"body":{"orders"' and len(reopened.log) == 1


def test_checkpoint_of_the_head(tmp_path, plugin, player_keys):
    game = create(tmp_path, plugin, player_keys)
    key, created = referee_key(tmp_path)
    assert created is False
    cp = game.checkpoint(key)
    play_turn(game, plugin, game.initial_state(plugin), NOW + timedelta(days=2))
    cp.verify(game.referee_public())
    check_extends(GameDir.open(game.path).log.entries, cp)


def test_lock_is_per_game_directory(tmp_path, plugin, player_keys):
    a = create(tmp_path, plugin, player_keys, "andromeda-7")
    b = create(tmp_path, plugin, player_keys, "bootes-2")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\nfrom pbem.store.lock import locked\nwith locked(sys.argv[1]):\n"
            "    print('in', flush=True); sys.stdin.read()",
            str(a.path),
        ],
        cwd=Path(__file__).resolve().parents[3],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "in\n"
        with pytest.raises(Busy), locked(a.path):
            pass
        with locked(b.path):
            pass
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


def test_the_state_cache_is_the_canonical_encoding_of_its_fields() -> None:
    """state.json's bytes (the state encoded once, for its digest and the file) are the
    canonical encoding of its four fields, for states of every game and odd values."""
    states: list[dict] = [{}, {"é": ["✓", 1.5, None, True, {"b": 2, "a": [1, "\u2028"]}]}]
    for game in registry.available():
        plugin = registry.load(game)
        states.append(plugin.setup(next(iter(plugin.variants())), {"game_id": "g"}))
    for n, state in enumerate(states):
        head = f"{n:064x}"
        assert _state_bytes(n + 1, head, state) == canonical.encode(
            {"log_length": n + 1, "head": head, "digest": canonical.digest(state),
             "state": state}) + b"\n"


def test_the_referee_key_is_read_again_when_its_files_change(tmp_path):
    """referee_key keeps the pair it read per root while both files are unchanged; a pair
    written anew (another key) is read again, and a .pub that no longer matches is refused."""
    from pbem.protocol.keys import write_keypair
    from pbem.store.referee import RefereeKeyError

    first, created = referee_key(tmp_path, create=True)
    assert created and referee_key(tmp_path)[0] is first
    (tmp_path / "referee.key").unlink()
    (tmp_path / "referee.pub").unlink()
    write_keypair(tmp_path / "referee", "pbem referee")
    second = referee_key(tmp_path)[0]
    assert second.public != first.public
    other = tmp_path / "other"
    other.mkdir()
    write_keypair(other / "referee", "pbem referee")
    (tmp_path / "referee.pub").write_bytes((other / "referee.pub").read_bytes())
    with pytest.raises(RefereeKeyError, match="does not match"):
        referee_key(tmp_path)


def test_the_state_cache_is_written_in_place_and_a_mix_of_two_writes_is_refused(
        tmp_path, plugin, player_keys):
    """state.json is written over its old bytes (the same file: no rename, whose block freeing
    and write-back cost a game-turn 0.25 ms); a torn mix of the old and the new file, as a
    crash or a lockless reader may see it, fails its digest and is rebuilt from the log."""
    game = create(tmp_path, plugin, player_keys)
    replay = replay_with(plugin)
    state = game.load_state(replay).state
    inode = game.state_path.stat().st_ino
    old, before = game.state_path.read_bytes(), state
    for turn in range(1, 6):  # until a turn changes the state
        state = play_turn(game, plugin, state, NOW + timedelta(days=2 * turn))
        if canonical.digest(state) != canonical.digest(before):
            break
    new = game.state_path.read_bytes()
    assert canonical.digest(state) != canonical.digest(before)
    assert game.state_path.stat().st_ino == inode and old != new
    assert (game.state_path.stat().st_mode & 0o777) == 0o600
    for mixed in (old[:200] + new[200:], new[:200] + old[200:], new + old[-2:],
                  new[:-3]):  # pages of each; a longer old file's end not cut yet; torn
        game.state_path.write_bytes(mixed)
        loaded = GameDir.open(game.path).load_state(replay)
        assert loaded.rebuilt is not None and loaded.state == state
        assert game.state_path.read_bytes() == new


def test_a_cache_file_is_replaced_not_written_through_when_it_has_another_link(
        tmp_path):
    """overwrite_cache writes in place only over a regular file with one link: a hard link
    planted at its name keeps its bytes (the name gets a new file), another mode is made 0600,
    a missing file is created 0600, a symbolic link is replaced, never followed."""
    path = tmp_path / "state.json"
    overwrite_cache(path, b"one\n")
    assert path.read_bytes() == b"one\n" and (path.stat().st_mode & 0o777) == 0o600
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"precious\n")
    path.unlink()
    os.link(elsewhere, path)
    overwrite_cache(path, b"two\n")
    assert path.read_bytes() == b"two\n" and elsewhere.read_bytes() == b"precious\n"
    path.chmod(0o644)
    overwrite_cache(path, b"three, longer\n")
    assert path.read_bytes() == b"three, longer\n" and (path.stat().st_mode & 0o777) == 0o600
    overwrite_cache(path, b"4\n")
    assert path.read_bytes() == b"4\n"
    path.unlink()
    path.symlink_to(elsewhere)
    overwrite_cache(path, b"five\n")
    assert not path.is_symlink() and elsewhere.read_bytes() == b"precious\n"
