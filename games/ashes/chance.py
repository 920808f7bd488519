"""The dice The Ashes of Empire rolls, and a practice chance source for tests and try-outs.

The rules never call ``random``: the one shuffle (``secret("shuffle:deck")``), the first player
(``public("first-player")``) and every battle's dice (``public("battle:turn<T>:<power>:attacker")``
and ``...:defender``) come from the ``chance`` argument of ``resolve``. The fair source is
pbem.chance (every player contributes; the referee commits at genesis; public draws can be
rechecked from the report, the shuffle at the end); the engine passes it in.

The shape of ``chance`` is pbem.game.chance.Chance. ``PracticeChance`` is a deterministic
source from SHA-256 of the game id, the step and the label, for tests and try-outs: it replays
exactly, but anybody can compute it, so it is NOT fair; every draw's event made with it says
``"chance": "practice"``. The engine never falls back to it.
"""

from __future__ import annotations

from pbem.game import practice

DIE = (1, 2, 3, 4, 5, 6)


class PracticeChance(practice.PracticeChance):
    """Deterministic chance from (game id, step), seeded as "ashes-practice": see
    pbem.game.practice (NOT fair; every draw's event made with it says ``"chance":
    "practice"``)."""

    def __init__(self, game_id: str, step: int) -> None:
        super().__init__("ashes", game_id, step)
