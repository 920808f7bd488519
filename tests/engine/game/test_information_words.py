"""pbem.game.Information keeps the manifest's words (``information:``), and the registry answers
with a member for every game under the roots."""

from __future__ import annotations

from pbem.game import Information, registry


def test_the_members_are_the_manifest_words() -> None:
    assert [m.value for m in Information] == ["hidden", "simultaneous", "perfect"]
    assert tuple(Information) == registry.INFORMATION


def test_every_game_declares_a_member() -> None:
    found = {game: registry.information(game) for game in registry.available()}
    assert all(isinstance(value, Information) for value in found.values()), found
    assert found["rps"] == "simultaneous" and found["ttt"] == Information.PERFECT
