"""The player's vault: a real file, atomic, private, and strict about what it reads."""

from __future__ import annotations

import json
import stat

import pytest

from pbem.protocol.vault import Departure, Vault, VaultError, default_path

DEP = Departure(4, 1, "Vega", "Hamal", "ab" * 32, "cd" * 32)


def test_missing_file_is_an_empty_vault(tmp_path):
    vault = Vault.load(tmp_path / "v.json")
    assert vault.departures("g", "algol") == []
    assert not (tmp_path / "v.json").exists()


def test_round_trip_and_file_mode(tmp_path):
    path = tmp_path / "sub" / "vault.json"
    vault = Vault.load(path)
    vault.add("andromeda-7", "algol", DEP)
    vault.add("andromeda-7", "algol", DEP)  # the same commitment twice is kept once
    vault.save()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Vault.load(path)
    assert again.departures("andromeda-7", "algol") == [DEP]
    assert again.find("andromeda-7", "algol", "cd" * 32) == DEP
    assert again.find("andromeda-7", "algol", "ef" * 32) is None
    assert again.find("andromeda-7", "mira", "cd" * 32) is None
    data = json.loads(path.read_text())
    assert data["games"]["andromeda-7"]["algol"]["departures"][0]["from"] == "Vega"
    assert [p.name for p in path.parent.iterdir()] == ["vault.json"]  # no temp file left


def test_save_replaces_atomically(tmp_path):
    path = tmp_path / "vault.json"
    vault = Vault.load(path)
    vault.add("g", "algol", DEP)
    vault.save()
    inode = path.stat().st_ino
    vault.add("g", "algol", Departure(5, 2, "Vega", "Mira", "01" * 32, "02" * 32))
    vault.save()
    assert path.stat().st_ino != inode  # a new file renamed over the old one
    assert len(Vault.load(path).departures("g", "algol")) == 2


def test_failed_save_raises_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "vault.json"
    path.mkdir()  # the rename over it fails (works as root too, unlike a read-only directory)
    (path / "keep").write_text("x")
    vault = Vault.load(tmp_path / "other.json")
    vault.path = path
    vault.add("g", "algol", DEP)
    with pytest.raises(VaultError, match="cannot write the vault"):
        vault.save()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vault.json"]
    assert (path / "keep").read_text() == "x"


@pytest.mark.parametrize(
    "content, words",
    [
        ("{not json", "not valid JSON"),
        ('{"pbem_vault": 2}', "version-1"),
        ('{"pbem_vault": 1, "games": []}', "mapping"),
        ('{"pbem_vault": 1, "games": {"g": {"algol": {"departures": [{"turn": 1}]}}}}',
         "malformed"),
        ('{"pbem_vault": 1, "games": {"g": {"algol": {"departures": [{"turn": 1, "slot": 1, '
         '"from": "Vega", "value": "Mira", "nonce": "xx", "commitment": "yy"}]}}}}',
         "64 lower-case hex"),
    ],
)
def test_bad_vault_files(tmp_path, content, words):
    path = tmp_path / "vault.json"
    path.write_text(content)
    with pytest.raises(VaultError, match=words):
        Vault.load(path)


def test_default_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_VAULT", str(tmp_path / "x.json"))
    assert default_path() == tmp_path / "x.json"
    monkeypatch.delenv("PBEM_VAULT")
    assert default_path().name == "vault.json"


def test_chance_marks_round_trip_and_malformed_ones_are_named(tmp_path):
    """The player's tool's records of fair chance (pbem.cli.entropy): the last step revealed
    with the checkpoint length then, and the step of the last view read."""
    import json

    import pytest

    from pbem.protocol.vault import Vault, VaultError

    path = tmp_path / "vault.json"
    vault = Vault.load(path)
    vault.note_chance("g#ab", "red", "chance_last", step=3, length=None)
    vault.note_chance("g#ab", "red", "chance_view", turn=4, step=5, length=20, setup=0)
    vault.save()
    again = Vault.load(path)
    assert again.chance_mark("g#ab", "red", "chance_last") == {"step": 3, "length": None}
    assert again.chance_mark("g#ab", "red", "chance_view") == {"turn": 4, "step": 5,
                                                                "length": 20, "setup": 0}
    data = json.loads(path.read_text())
    data["games"]["g#ab"]["red"]["chance_last"] = {"step": -1, "length": 2}
    path.write_text(json.dumps(data))
    with pytest.raises(VaultError, match="chance_last must hold step, length"):
        Vault.load(path)
