"""The standing-file promise, for every game (docs/protocol.md, "Standing files"): a file that
says ``turn: standing``, signed and mailed through ``pbem ingest --stdin`` at the game's start,
gets a verdict that says what it is. A game that declares standing sections
(``standing_sections``) accepts a file of them and its receipt lists "Your standing answers"; a
game that declares none refuses it, naming the ``turn`` and why; a game that takes no orders
yet refuses it as it would any orders then. Nothing is logged for a refused file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.game import registry
from tests.crossgame.adapters import adapter
from tests.support.ingest_helpers import texts_to
from tests.support.pbem_host import Host
from tests.support.votes import mail_block

GAMES = registry.available()
#: A standing answer of the game's standing sections, where it declares some.
ANSWERS: dict[str, dict[str, Any]] = {
    "highcard": {"policy": "highest"},
    "relay": {"pace": 3},
    "b5cgs": {"contested": {"default": "allow", "allow": [], "deny": []}},
    "ti4": {"standing": {"combat": {"hits": ["wing", "sustain"]},
                         "secondaries": {"default": "decline"}}},
}
#: Games whose rules take no orders at the start (their set-up step): the file is refused
#: as any orders would be then, with the rule's own words.
NOT_YET = {"b5cgs": "nothing to order before play"}


@pytest.mark.parametrize("game", GAMES)
def test_a_standing_file_by_mail_gets_a_verdict_that_says_what_it_is(tmp_path: Path,
                                                                     game: str) -> None:
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"standing-{game}")
    sections = tuple(getattr(host.plugin, "standing_sections", ()) or ())
    assert bool(sections) == (game in ANSWERS), f"{game}: add its standing answer to ANSWERS"
    power = host.powers[-1]
    before = len(host.entries("orders"))
    text = host.orders_text(power, ANSWERS.get(game, {}), turn="standing")
    mail_block(host, power, text)
    said = "\n".join(texts_to(host.root, power))
    if sections and game not in NOT_YET:
        assert len(host.entries("orders")) == before + 1, game
        assert "Your standing answers" in said, (game, said[-600:])
        return
    assert len(host.entries("orders")) == before, f"{game}: a refused file was logged"
    if not sections:
        assert "takes no standing files" in said, (game, said[-600:])
    else:
        assert NOT_YET[game] in said, (game, said[-600:])
