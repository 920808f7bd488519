"""Issue 12 point 10: the home stars' production within reach, measured on the stand-in board.

Within 3 turns' journey of its home (the rulebook's distance: same sector 1), each power could
build min(circles, crosses) ships a production turn if it held every star there. The four-power
homes are equal by the board's symmetry; the three-power game's Mira is better placed, and
docs/rules.md (ruling R26) states the measured figures, which this test recomputes."""

from __future__ import annotations

from pathlib import Path

from tests.support.ad_driver import ad_module

REACH = 3
RULES = Path(__file__).resolve().parents[3] / "docs" / "rules.md"


def production_within(board, home: str, reach: int) -> int:
    stars = [s for s in board.stars.values() if board.distance(home, s.name) <= reach]
    return min(sum(s.circle for s in stars), sum(s.cross for s in stars))


def homes(variant: str) -> dict[str, int]:
    board = ad_module("board").default_board()
    v = ad_module("variants").load_variant(variant)
    return {v.homes[p]: production_within(board, v.homes[p], REACH) for p in v.powers}


def test_rule_r26_four_player_homes_have_equal_production_within_reach():
    for variant in ("independents-4", "alliances-4", "wild-4"):
        assert len(set(homes(variant).values())) == 1, homes(variant)


def test_rule_r26_the_three_player_imbalance_is_measured_and_stated_in_the_rules():
    measured = homes("independents-3")
    best = max(measured, key=measured.__getitem__)
    others = {h: n for h, n in measured.items() if h != best}
    assert best == "Mira" and len(set(others.values())) == 1
    text = " ".join(RULES.read_text(encoding="utf-8").split())
    other = next(iter(others.values()))
    assert (f"Mira can build {measured['Mira']} ships a production turn from the stars within "
            f"{REACH} turns of it, Antares and Regulus {other}") in text
