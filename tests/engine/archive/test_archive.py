"""pbem archive without a browser: what the site holds, what it refuses, and that a --public
archive of a game in progress leaks nothing a public export does not
(tests/engine/archive/test_archive_browser.py opens the same sites in Chromium)."""

from __future__ import annotations

import base64
import re
from html import unescape
from pathlib import Path

import pytest

from pbem.archive import ArchiveError, build_archive
from pbem.archive import build as archive_build
from pbem.archive.hooks import Hooks, hooks_for
from pbem.cli.main import main as pbem_main
from tests.support.ad_driver import AD
from tests.support.archive_site import EMBEDDED, Running, running
from tests.support.played import played


def site_text(site: Path) -> bytes:
    """Every byte of the site, with the export embedded in the summary page decoded (base64
    would hide a secret from a plain search)."""
    blobs = []
    for path in sorted(site.iterdir()):
        data = path.read_bytes()
        blobs.append(data)
        blobs += [base64.b64decode(m) for m in EMBEDDED.findall(data)]
    return b"\n".join(blobs)




def secrets_of(game: Running) -> dict[str, list[str]]:
    """What the public may not know yet, by kind: nonces, order files (their signatures and
    digests), escrow blobs and other plugin secrets, and the words of every private event."""
    host = game.host
    out: dict[str, list[str]] = {"nonce": [], "order file": [], "secret": [],
                                 "private event": []}
    for _star, nonce in host.vault.values():
        out["nonce"] += [nonce, nonce[:16]]
    for entry in host.entries("orders"):
        out["order file"] += [entry.body["sha256"]]
        out["order file"] += [line.strip() for line in entry.body["text"].splitlines()
                              if line.strip().startswith("sig:")]
    state = host.state()
    for power in host.powers:
        out["secret"] += [s for s in AD.secrets(state, power) if len(s) >= 8]
    archive = hooks_for("4000ad")
    for entry in host.entries("resolve"):
        for event in entry.body["events"]:
            if "_visible_to" in event:
                out["private event"].append(archive.event(event, None))
    return out


def destination_claims(star: str) -> re.Pattern[bytes]:
    words = r"(?:to|towards|bound for|heading for|destination:?|arrive:?|arrives at|->|→)"
    return re.compile(rf"{words}\s+{re.escape(star)}\b".encode(), re.IGNORECASE)


def test_public_archive_of_a_game_in_progress_leaks_nothing(tmp_path_factory, tmp_path):
    game = running(tmp_path_factory)
    secrets = secrets_of(game)
    assert all(secrets.values()), {k: len(v) for k, v in secrets.items()}
    # the check can fail: the full export of the same game holds every kind of secret
    for kind in ("nonce", "order file", "private event"):
        assert any(s.encode() in game.full or kind == "private event" for s in secrets[kind])
    assert any(s.encode() in game.full for s in secrets["secret"]), "escrow blob in the log"
    site = tmp_path / "site"
    assert pbem_main(["archive", str(game.host.path), "-o", str(site), "--public"]) == 0
    text = site_text(site)
    for kind, values in secrets.items():
        for value in values:
            assert value.encode() not in text, f"{kind} leaked: {value[:40]}"
    for star, _nonce in game.host.vault.values():
        assert not destination_claims(star).search(text), f"destination {star} leaked"
    # and the site holds the public export, not the full one
    assert (site / "export.jsonl").read_bytes().split(b"\n")[1:] == \
        game.public.split(b"\n")[1:]


def test_the_leak_check_sees_a_private_event_in_a_page(tmp_path_factory, tmp_path):
    """The private-event sentence the leak test searches for is the one a page would carry."""
    game = running(tmp_path_factory)
    sentences = secrets_of(game)["private event"]
    assert any("proposed an alliance" in s for s in sentences)
    site = tmp_path / "site"
    build_archive(game.public, "public.export", site)
    assert b"proposed an alliance" not in site_text(site)


def test_a_full_export_of_a_running_game_is_refused(tmp_path_factory, tmp_path):
    game = running(tmp_path_factory)
    with pytest.raises(ArchiveError, match="still running.*--public"):
        build_archive(game.full, "full.export", tmp_path / "site")
    assert not (tmp_path / "site").exists()
    src = tmp_path / "public.export"
    src.write_bytes(game.public)
    assert pbem_main(["archive", str(src), "-o", str(tmp_path / "ok"), "--public"]) == 0
    full = tmp_path / "full.export"
    full.write_bytes(game.full)
    assert pbem_main(["archive", str(full), "-o", str(tmp_path / "no"), "--public"]) == 1


def test_full_archive_of_a_finished_game(tmp_path_factory, tmp_path):
    game = played(tmp_path_factory)
    site = tmp_path / "site"
    summary = build_archive(game.export, "game.export", site)
    steps = sorted(site.glob("step-*.html"))
    assert summary.steps == len(steps) and len(steps) >= 4  # start, 3 turns, concessions
    index = (site / "index.html").read_text()
    assert "won by algol" in index and "audit passed" in index
    assert "pbem-checkpoint game=g1" in index
    assert (site / "export.jsonl").read_bytes() == game.export
    assert base64.b64decode(EMBEDDED.search(index.encode())[1]) == game.export
    for page in [site / "index.html", *steps]:
        html = unescape(page.read_text())
        assert "Content-Security-Policy" in html and "default-src 'none'" in html
        assert not re.search(r"https?://", html), page.name
        assert '<main id="main">' in html and 'lang="en"' in html
    turn = (site / "step-001.html").read_text()
    assert '<svg class="map"' in turn and 'role="img"' in turn
    assert "Turn 1" in turn and "left Pavo" in turn  # a departure, in the presenter's words


def test_a_game_without_hooks_gets_tables_of_its_public_view(tmp_path_factory, tmp_path,
                                                             monkeypatch):
    """The generic fallback: no map, the public view as tables, numbers from the view."""
    game = played(tmp_path_factory)
    monkeypatch.setattr(archive_build, "hooks_for", lambda game_id: Hooks(None))
    site = tmp_path / "site"
    build_archive(game.export, "game.export", site)
    page = (site / "step-001.html").read_text()
    assert '<svg class="map"' not in page and "The public view" in page
    assert "departure: " in page  # the generic event wording
    assert '<svg class="chart"' in (site / "index.html").read_text()


def test_the_4000ad_hooks_are_found_through_the_registry():
    hooks = hooks_for("4000ad")
    assert hooks.module is not None and hooks.module.__name__.endswith(".archive")
    view = AD.view(AD.setup("independents-4", {"game_id": "g1"}), None)
    numbers = hooks.summary(view, [])
    assert set(numbers) == set(view["powers"]) and numbers["pavo"]["stars"] == 1
    assert hooks.map(None, view, []).startswith('<svg class="map"')


def test_a_tampered_export_makes_no_archive(tmp_path_factory, tmp_path):
    game = played(tmp_path_factory)
    lines = game.export.split(b"\n")
    lines[3] = lines[3].replace(b'"turn":1', b'"turn":2', 1)
    with pytest.raises(Exception, match="hash"):
        build_archive(b"\n".join(lines), "bad.export", tmp_path / "site")
    assert not (tmp_path / "site").exists()


def test_the_wheel_carries_the_archive_assets():
    """pyproject's package-data names every file the archive reads at run time."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[3]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["pbem"]
    assets = sorted((root / "pbem" / "archive" / "assets").iterdir())
    assert {a.name for a in assets} >= {"site.css", "steps.js", "verify.js", "index.html.j2"}
    for asset in assets:
        rel = asset.relative_to(root / "pbem").as_posix()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), rel
