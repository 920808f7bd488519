"""Issue 11 point 3 (poison order): any order body, however hostile, gives a list of problems
from the 4000 A.D. validator and normaliser, never an exception (an exception there would be
retried forever by the referee and crash the player's own ``pbem orders check``)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.errors import Problem
from tests.support.ad_driver import AD, Table

KEYS = ["warps", "depart", "permit", "resources", "alliance", "withdraw", "surrender",
        "concede", "vote_end", "warp", "from", "ships", "commitment", "with", "escrow", "to",
        "else", "arrive", "nonce", "on_tie", "home", "lend", "star", "propose", "accept", "end"]
NEIGHBOUR = AD.board.other_star("Algol")  # Algol's sector-mate, whatever the board calls it
WORDS = ["all", "continue", "stay", "divert", "Algol", "algol", "Hamal", NEIGHBOUR, "pavo",
         "regulus", "1", "2", "²", "١", "٣", "0", "-1", "⁹", "𝟙", "1" * 60, "a" * 64]

# integers beyond Python's 4300-digit str() limit (built lazily: hypothesis cannot repr them)
HUGE = st.sampled_from([4400, 5000]).map(lambda n: 10**n * (1 if n % 2 == 0 else -1))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    HUGE,
    st.sampled_from([2**64, -(2**63), 0, 1, 2, 3]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WORDS),
    st.text(max_size=12),
)
keys = st.one_of(st.sampled_from(KEYS), st.sampled_from(WORDS), st.integers(-3, 5),
                 HUGE, st.sampled_from([1.5, True, None]))
bodies = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(keys, inner, max_size=5)),
    max_leaves=25,
)
top = st.dictionaries(st.sampled_from(KEYS[:9] + ["warpz", "²"]), bodies, max_size=6)

TABLE = Table("wild-4", mode="simultaneous")
TABLE.play(algol=TABLE.body("algol", ("Algol", 5, "Hamal")))
VIEWS = [TABLE.view("algol"), Table("alliances-2").view("pavo"),
         Table(destinations="free").view("regulus")]


def _only_problems(body: Any) -> None:
    for view in VIEWS:
        normalized, problems = AD.normalize_orders(body, view)
        assert isinstance(normalized, dict)
        assert all(isinstance(p, Problem) for p in problems)
        for p in problems:
            str(p)  # every problem can be printed


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.one_of(top, bodies))
def test_any_order_body_gives_problems_never_an_exception(body):
    _only_problems(body)


def test_unicode_digit_warp_keys_are_problems_not_crashes():
    """The poison order of issue 11: '²' passes str.isdigit() and then fails int()."""
    for key in ("²", "١", "⁹", "𝟙", 10**5000, -1, 1.0):
        body = {"warps": {key: "continue"}, "surrender": {key: "Hamal"},
                "depart": {"warp": key, "from": "Algol", "ships": 1, "to": NEIGHBOUR}}
        _, problems = AD.normalize_orders(body, VIEWS[0])
        assert any(p.code == "warp" for p in problems), (key, problems)
