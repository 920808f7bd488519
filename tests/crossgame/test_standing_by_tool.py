"""Promise 21, the player's tool and a standing file, for every game (docs/protocol.md, "Standing
files"; README, "Play"): from his welcome mail a player starts a standing file with `pbem orders
new --standing --view MAIL.eml`, checks it and signs it, without --view and with it, as
subprocesses. In a game that draws dice the signed file carries no chance value (a value belongs
to one step: the referee refuses a standing file that carries one), and the signature made
without --view is accepted by `pbem ingest --stdin` with a receipt listing "Your standing
answers" (the game master's ingest line: "accepted: GAME/POWER standing file"). In a game that
takes no standing files, the tool refuses to start one, and `check` and `sign --view` refuse a
hand-written one with the referee's own sentence, so nothing is mailed that the referee would
refuse. (His turn's file, written and signed first so that his vault knows its chance, is made by
the same command lines in the test process: tests.support.run, ``pbem_here``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game import registry
from tests.crossgame.adapters import adapter
from tests.support.ingest_helpers import queued_to, texts_to
from tests.support.pbem_host import Host
from tests.support.run import pbem_here, pbem_ok
from tests.support.votes import mail_block

GAMES = registry.available()
#: The game's tool writing standing answers into the file at the game's start, where its rules
#: take them then (B5 takes no orders before play; the others' standing sections have no tool
#: option).
TOOL = {"ti4": ["ti4", "--hits", "wing,sustain", "--standing-default", "decline"]}
REFUSED = "takes no standing files: give the turn your orders are for"


@pytest.mark.parametrize("game", GAMES)
def test_the_players_tool_writes_checks_and_signs_a_standing_file(tmp_path: Path,
                                                                  game: str) -> None:
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"tool-{game}")
    power = host.powers[-1]
    (welcome,) = queued_to(host.root, power)
    mail = tmp_path / "welcome.eml"
    mail.write_bytes(welcome.as_bytes())
    key = tmp_path / "keys" / f"tool-{game}-{power}.key"
    env = {"PBEM_VAULT": str(tmp_path / "vault.json")}
    step, standing = tmp_path / "turn.yaml", tmp_path / "standing.yaml"
    # His turn's file first, signed (not mailed): in a game with dice the vault now knows its
    # chance, which a standing file must still be signed without.
    for prep in (("new", "--view", mail, "-o", step),
                 ("sign", step, "--key", key, "--view", mail, "-o", tmp_path / "t.signed")):
        done = pbem_here("orders", *prep, env=env)
        assert done.returncode == 0, (game, prep[0], done.stdout + done.stderr)
    sections = tuple(getattr(host.plugin, "standing_sections", ()) or ())
    if not sections:
        said = pbem_ok("orders", "new", "--standing", "--view", mail, "-o", standing, ok=False,
                       env=env)
        assert "takes no standing files" in said and "without --standing" in said, (game, said)
        standing.write_text(step.read_text().replace("\nturn: 1\n", "\nturn: standing\n"))
        assert "turn: standing" in standing.read_text(), game
        for args in (("check", standing, "--view", mail),
                     ("sign", standing, "--key", key, "--view", mail, "-o", tmp_path / "s")):
            said = pbem_ok("orders", *args, ok=False, env=env)
            assert REFUSED in said, (game, args[0], said)
        assert not (tmp_path / "s").exists(), game
        return
    pbem_ok("orders", "new", "--standing", "--view", mail, "-o", standing, env=env)
    assert "\nturn: standing\n" in standing.read_text(), game
    if game in TOOL:
        tool, *options = TOOL[game]
        pbem_ok("orders", tool, standing, "--view", mail, *options, env=env)
    assert pbem_ok("orders", "check", standing, "--view", mail, env=env).strip() == "ok", game
    blocks = {}
    for name, view in (("bare", ()), ("viewed", ("--view", mail))):
        out = tmp_path / f"{name}.signed"
        pbem_ok("orders", "sign", standing, "--key", key, *view, "-o", out, env=env)
        blocks[name] = out.read_text()
        assert "entropy" not in blocks[name], (game, name)
    before = len(host.entries("orders"))
    line = mail_block(host, power, blocks["bare"])
    # the game master's ingest line names the file as a standing file, not as a turn
    assert f"accepted: {host.game_id}/{power} standing file" in line, (game, line)
    assert len(host.entries("orders")) == before + 1, (game, "\n".join(texts_to(host.root, power)))
    said = " ".join(" ".join(texts_to(host.root, power)).split())  # the receipt's lines unwrapped
    assert "Your standing answers" in said, (game, said[-600:])
