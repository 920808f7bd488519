"""The suite fails a game that omits a promise, naming the promise and the game: a copy of the
toy game whose HTML turn report lost its deadline is played by the same driver and checked by
the same promise function as every game."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from pbem.game import registry
from tests.crossgame import adapters, promises
from tests.crossgame.support import play

TOY = Path(__file__).resolve().parents[1] / "toygame" / "highcard"


def test_a_game_whose_report_lacks_the_deadline_fails_by_name_and_a_leak_is_found(
        tmp_path, monkeypatch, smtp):
    root = tmp_path / "games"
    copy = root / "omitcard"
    shutil.copytree(TOY, copy, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = (copy / "game.yaml").read_text()
    (copy / "game.yaml").write_text(manifest.replace("id: highcard", "id: omitcard"))
    for module in copy.glob("*.py"):
        module.write_text(module.read_text().replace('"highcard"', '"omitcard"'))
    report = copy / "templates" / "turn_report.html"
    html = report.read_text()
    cut = html.replace("{{ game.deadline.utc }}", "soon")
    assert cut != html, "the toy game's HTML report no longer shows game.deadline.utc"
    report.write_text(cut)
    # In place of the toy game (both add `pbem orders play`).
    roots = [str(r) for r in registry.roots() if r != TOY.parent]
    monkeypatch.setenv("PBEM_GAMES_DIR", os.pathsep.join([*roots, str(root)]))
    monkeypatch.setitem(adapters.ADAPTERS, "omitcard",
                        dataclasses.replace(adapters.ADAPTERS["highcard"], steps=2))
    registry._manifests.cache_clear()  # the games roots changed for this test
    try:
        played = play("omitcard", tmp_path / "play", smtp)
        with pytest.raises(promises.Broken) as broken:
            promises.deadlines(played)
        promises.welcome(played)  # the promises it keeps still pass
        assert promises.leaks(played) > 0
        # The sweep has teeth: south's hand pasted into a mail to north is found.
        mail = next(m for m in played.to("north") if played.plugin.secrets(m.state, "south"))
        secret = played.plugin.secrets(mail.state, "south")[0]
        played.mails.append(dataclasses.replace(
            mail, raw=f"X-Note: {secret}\r\n".encode() + mail.raw))
        with pytest.raises(promises.Broken, match=f"holds south's secret '{secret}'"):
            promises.leaks(played)
    finally:
        registry._manifests.cache_clear()
    assert str(broken.value).startswith(
        'promise "the deadline in both parts of every report" broken by omitcard:')
    assert "in its HTML part" in str(broken.value)


def test_a_game_without_an_adapter_row_fails_loudly():
    with pytest.raises(AssertionError, match="no adapter for game 'newgame'.*ADAPTERS"):
        adapters.adapter("newgame")
