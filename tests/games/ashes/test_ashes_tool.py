"""The player's tool for The Ashes of Empire, run as a player runs it (subprocesses): start an
order file from the report's view, write the orders with ``pbem orders ashes`` (checked offline
with the referee's own check), ``pbem orders check``; a wrong order is refused in one line,
naming the problem and its place, and leaves the file as it was."""

from __future__ import annotations

import yaml

from pbem import canonical
from tests.support.ashes_driver import PLUGIN, arranged
from tests.support.run import pbem_ok as pbem


def table(tmp_path):
    state = arranged(hands={"red": {"D4": 0, "C2": 2, "G3": 0}}, colonies={"red": {"A2": 5}},
                     galaxy={"E4": 0})
    view = tmp_path / "view.json"
    # as the referee attaches it: with the game instance every order file names
    view.write_bytes(canonical.encode({**PLUGIN.view(state, "red"),
                                       "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}) + b"\n")
    return state, view


def test_write_check_and_refuse_ashes_orders_offline(tmp_path):
    state, view = table(tmp_path)
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", view, "-o", orders)
    assert "reinforcements this turn: 4" in orders.read_text()
    out = pbem("orders", "ashes", orders, "--place", "D4=1", "--conquer", "E4", "--from", "A2",
               "--ships", "3", "--retreat", "C2", "--view", view)
    assert "checked" in out
    doc = yaml.safe_load(orders.read_text())
    assert doc["orders"] == {"place": {"D4": 1}, "move": {"conquer": "E4", "from": "A2",
                                                          "ships": 3}, "retreat": ["C2"]}
    pbem("orders", "check", orders, "--view", view)
    before = orders.read_text()
    out = pbem("orders", "ashes", orders, "--conquer", "E4", "--from", "A2", "--ships", "7",
               "--view", view, ok=False)
    assert "move.ships" in out and "at most 6" in out and len(out.strip().splitlines()) == 1
    assert orders.read_text() == before


def test_check_refuses_an_order_against_the_rules(tmp_path):
    state, view = table(tmp_path)
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", view, "-o", orders)
    pbem("orders", "ashes", orders, "--exchange", "K1")  # not checked without --view
    out = pbem("orders", "check", orders, "--view", view, ok=False)
    assert "move.exchange" in out and "K1 is not in your hand" in out


def test_ashes_subcommand_has_help():
    out = pbem("orders", "ashes", "--help")
    assert "--conquer" in out and "--reorganise" in out
