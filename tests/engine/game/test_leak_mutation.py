"""The leak tests must be able to fail: a copy of 4000 A.D. whose view lost one of its filters
is loaded as a game, and the conformance suite's structural leak test must catch it.

Each mutation removes one filter from the copy's view.py (the secret-alliance filter, the
proposal filter, the withdrawal filter, the permissions filter). If view.py is rewritten so the
filter's line is no longer there, the test fails on the missing line rather than passing
silently: update the mutation with the view."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from pbem.game import registry
from tests.support.conformance import structural_leaks

GAME = Path(__file__).resolve().parents[3] / "games" / "fourthousand_ad"

MUTATIONS = {
    "secret_alliances": ('            if sees(a["members"], a["public"])\n', ""),
    "proposals": ('[pr for pr in state["proposals"] if sees(pr, False)]',
                  '[pr for pr in state["proposals"]]'),
    "withdrawals": ('for d in state["withdrawals"] if sees([d["from"], d["to"]], False)\n',
                    'for d in state["withdrawals"]\n'),
    "permissions": ('if sees([p, *info["permit_home"], *info["permit_lend"]], False):',
                    "if True:"),
}


def mutant(tmp_path: Path, name: str) -> Path:
    """A copy of the 4000 A.D. package with one filter removed from its view."""
    old, new = MUTATIONS[name]
    copy = tmp_path / f"mutant_{name}"
    shutil.copytree(GAME, copy, ignore=shutil.ignore_patterns("__pycache__"))
    view = copy / "view.py"
    text = view.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the {name} filter is no longer in view.py: update MUTATIONS"
    view.write_text(text.replace(old, new), encoding="utf-8")
    return copy


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_the_structural_leak_test_catches_a_view_without_its_filter(tmp_path, name):
    path = mutant(tmp_path, name)
    try:
        plugin = registry.load_path(path)
        assert plugin.id == "4000ad"
        with pytest.raises(AssertionError, match="view changed with"):
            structural_leaks(plugin, "wild-4", states=1)
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == path.name]:
            del sys.modules[module]


def test_the_unmutated_copy_passes(tmp_path):
    """The same copy without a mutation passes: the failures above are the mutation's."""
    copy = tmp_path / "unmutated_ad"
    shutil.copytree(GAME, copy, ignore=shutil.ignore_patterns("__pycache__"))
    try:
        assert structural_leaks(registry.load_path(copy), "wild-4", states=1) > 0
    finally:
        for module in [m for m in sys.modules if m.split(".")[0] == copy.name]:
            del sys.modules[module]
