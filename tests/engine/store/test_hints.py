"""The one MAC'd hint file (pbem.store.hints): what it writes it reads back; a missing file is
None; a torn, forged or foreign one (another kind's key, another file's name, the root index's
former key derivation) is refused, and its owner rebuilds it."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path

import pytest

from pbem.host import rootindex
from pbem.store import hints, trusted

A = b"pbem-root-index-v1"
B = b"pbem-trusted-point-v1"


def root_with_key(tmp_path: Path) -> Path:
    (tmp_path / hints.KEY_FILE).write_bytes(os.urandom(32))
    return tmp_path


def test_a_hint_reads_back_and_a_missing_one_is_none(tmp_path: Path) -> None:
    root = root_with_key(tmp_path)
    key = hints.key(root, A)
    assert key is not None and len(key) == 32
    hints.write(root / "h.json", key, "h.json", b'{"x": 1}')
    assert hints.read(root / "h.json", key, "h.json") == b'{"x": 1}'
    assert oct((root / "h.json").stat().st_mode & 0o777) == "0o600"
    assert hints.read(root / "other.json", key, "other.json") is None
    assert sorted(p.name for p in root.iterdir()) == sorted([hints.KEY_FILE, "h.json"])


def test_a_rewrite_in_place_reads_back_and_never_writes_through_a_link(tmp_path: Path) -> None:
    """``rewrite`` writes over the plain file it finds (same inode, longer or shorter), creates
    a missing one, and replaces a symbolic link or a second name of another file by rename:
    the other file keeps its bytes."""
    root = root_with_key(tmp_path)
    key = hints.key(root, B)
    assert key is not None
    path = root / "t.json"
    hints.rewrite(path, key, "t.json", b'{"x": 1}')  # none yet: created
    assert hints.read(path, key, "t.json") == b'{"x": 1}'
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    ino = path.stat().st_ino
    for payload in (b'{"x": 12345678}', b'{"y": 2}'):  # longer, then shorter: cut to size
        hints.rewrite(path, key, "t.json", payload)
        assert hints.read(path, key, "t.json") == payload
        assert path.stat().st_ino == ino
    other = root / "other"
    other.write_bytes(b"not yours")
    for plant in ("hard link", "symlink"):
        path.unlink()
        if plant == "hard link":
            os.link(other, path)
        else:
            path.symlink_to(other)
        hints.rewrite(path, key, "t.json", b'{"z": 3}')
        assert not path.is_symlink() and path.stat().st_ino != other.stat().st_ino
        assert hints.read(path, key, "t.json") == b'{"z": 3}'
        assert other.read_bytes() == b"not yours"
    assert sorted(p.name for p in root.iterdir()) == sorted([hints.KEY_FILE, "t.json", "other"])


def test_a_rewrite_half_done_fails_the_mac(tmp_path: Path) -> None:
    """What a reader or a crash meets in the middle of a rewrite in place — the new bytes over
    the old, not cut to length yet, or cut short — is refused, never trusted."""
    root = root_with_key(tmp_path)
    key = hints.key(root, B)
    assert key is not None
    path = root / "t.json"
    hints.rewrite(path, key, "t.json", b'{"x": "a long first payload"}')
    old = path.read_bytes()
    hints.rewrite(path, key, "t.json", b'{"x": 2}')
    new = path.read_bytes()
    for mix in (new + old[len(new):], new[: len(new) // 2] + old[len(new) // 2:]):
        path.write_bytes(mix)
        with pytest.raises(hints.Unfit):
            hints.read(path, key, "t.json")


def test_no_referee_key_no_hints(tmp_path: Path) -> None:
    assert hints.key(tmp_path, A) is None


def test_one_derivation_labels_keep_kinds_apart(tmp_path: Path) -> None:
    root = root_with_key(tmp_path)
    assert hints.key(root, A) != hints.key(root, B)
    assert trusted.mac_key(root) == hints.key(root, B)


@pytest.mark.parametrize("how", ["torn", "other kind", "other name", "forged"])
def test_a_torn_foreign_or_forged_hint_is_unfit(tmp_path: Path, how: str) -> None:
    root = root_with_key(tmp_path)
    key, other = hints.key(root, A), hints.key(root, B)
    assert key is not None and other is not None
    path = root / "h.json"
    if how == "torn":
        hints.write(path, key, "h.json", b'{"x": 1}')
        path.write_bytes(path.read_bytes()[:-3])
    elif how == "other kind":
        hints.write(path, other, "h.json", b'{"x": 1}')
    elif how == "other name":
        hints.write(path, key, "g.json", b'{"x": 1}')
    else:
        path.write_bytes(b"00" * 32 + b'\n{"x": 1}')
    with pytest.raises(hints.Unfit):
        hints.read(path, key, "h.json")


def test_a_root_index_under_the_former_derivation_is_rebuilt(tmp_path: Path) -> None:
    """The root index's files were MAC'd under HMAC(trusted key, label); such a file is
    foreign now: a look-up rebuilds the index from the (empty) root, under the one key."""
    root = root_with_key(tmp_path)
    index_dir = root / rootindex.DIR
    index_dir.mkdir()
    base = trusted.mac_key(root)
    assert base is not None
    former = hmac.new(base, A, hashlib.sha256).digest()
    payload = json.dumps({"ours": [], "root": None}, sort_keys=True).encode()
    (index_dir / "meta.json").write_bytes(hints.mac(former, "meta.json", payload).hex().encode()
                                          + b"\n" + payload)
    parts = rootindex.directory_parts(root)
    assert parts["ours"] == set() and dict(parts["games"]) == {}
    key = hints.key(root, A)
    assert key is not None
    meta = json.loads(hints.read(index_dir / "meta.json", key, "meta.json") or b"null")
    assert meta["ours"] == []
