"""``pbem distance`` run as a real subprocess."""

from __future__ import annotations

from tests.support.run import pbem_text as pbem


def test_distance_prints_bare_integer():
    out = pbem("distance", "--game", "4000ad", "vega", "MIRA")
    assert out.returncode == 0, out.stderr
    assert out.stdout == "5\n"


def test_unknown_star_exits_nonzero_with_suggestion():
    out = pbem("distance", "Vgea", "Mira")
    assert out.returncode == 1
    assert 'no star named "Vgea"' in out.stderr and "Vega" in out.stderr
    assert out.stdout == ""


def test_help_and_version():
    assert "journey length" in pbem("distance", "--help").stdout
    assert pbem("--version").stdout.startswith("pbem ")
