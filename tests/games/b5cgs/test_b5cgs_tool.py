"""The player's tool for Babylon 5 CGS, run as a player runs it (subprocesses): start an order
file from the report's view (``pbem orders new`` writes the pre-filled sections and lists the
player's units), write each section with ``pbem orders b5`` (checked offline with the referee's
own check: ``normalize_orders`` on the view), ``pbem orders check``; a wrong order is refused in
one line naming the problem and its place, and leaves the file as it was."""

from __future__ import annotations

import importlib

import yaml

from pbem import canonical
from tests.support.b5cgs_driver import PLUGIN, dealt, new_game
from tests.support.run import pbem_ok as pbem

tool = importlib.import_module("b5cgs.tool")
demo = importlib.import_module("b5cgs.demo")
hx = importlib.import_module("b5cgs.hexes")


def table(tmp_path, variant="basic-3", version=None, fleet=False):
    """A player's view.json: the first player's first turn, or (``fleet``, rules version 3)
    his starting-fleet step."""
    st = dealt(variant, version=version) if fleet else new_game(variant, version=version)
    power = st["current"]
    # as the referee attaches it: with the game instance every order file names
    view = {**PLUGIN.view(st, power), "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
    path = tmp_path / "view.json"
    path.write_bytes(canonical.encode(view) + b"\n")
    return st, view, path


def test_write_check_and_refuse_b5_orders_offline(tmp_path):
    st, view, path = table(tmp_path, fleet=True)
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", path, "-o", orders)
    text = orders.read_text()
    # the starting-fleet step (rules version 3, ruling R7) asks for the fleet alone
    assert "# your units:" in text and "start: []" in text and "move: []" not in text
    fleet = demo.start_fleet(view)
    assert fleet
    out = pbem("orders", "b5", orders, "--start", *fleet, "--view", path)
    assert "checked" in out
    doc = yaml.safe_load(orders.read_text())
    token, rest = fleet[0].split("@")
    hex_, facing = rest.split("/")
    assert doc["orders"]["start"][0] == {"token": token, "hex": hex_, "facing": int(facing)}
    assert "ok" in pbem("orders", "check", orders, "--view", path)
    before = orders.read_text()
    b5 = view["map"]["b5_hex"]
    out = pbem("orders", "b5", orders, "--start", f"{token}@{b5}/1", "--view", path, ok=False)
    assert "start[0]" in out and len(out.strip().splitlines()) == 1
    assert orders.read_text() == before


def test_check_refuses_what_the_referee_refuses(tmp_path):
    """Written without --view (not checked), then ``pbem orders check`` finds the problem with
    its path, as the referee would."""
    st, view, path = table(tmp_path)
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", path, "-o", orders)
    enemy = next(t for t, tok in st["tokens"].items() if tok["owner"] != st["current"])
    pbem("orders", "b5", orders, "--move", f"{enemy}@0,1/1")
    out = pbem("orders", "check", orders, "--view", path, ok=False)
    assert "orders.move[0]" in out


def test_every_section_is_written_in_the_order_file_shapes():
    """STATE.md, "The order file": the tool writes exactly those shapes."""
    assert tool.move(["t7@3,-3/2", "t8@-4,3/1/2", "jump:t10@5,-6/3+t11+t12", "sweep:t12"]) == [
        {"unit": "t7", "to": "3,-3", "facing": 2},
        {"unit": "t8", "to": "-4,3", "facing": 1, "flip": 2},
        {"unit": "t10", "jump": "5,-6", "fleet": ["t11", "t12"], "flip": 3},
        {"sweep": "t12"}]
    assert tool.fire(["t20=t7,t8/t21,t22", "t30=t9"]) == [
        {"target": "t20", "with": ["t7", "t8"], "else": ["t21", "t22"]},
        {"target": "t30", "with": ["t9"]}]
    assert tool.build(["base-4@2,1/t7", "ea-hyperion@1,3/t1/t9"]) == [
        {"token": "base-4", "hex": "2,1", "by": "t7"},
        {"token": "ea-hyperion", "hex": "1,3", "by": "t1", "from_scrap": "t9"}]
    assert tool.repair(["t9/t3"]) == [{"token": "t9", "by": "t3"}]
    assert tool.start(["ea-omega@-4,3/2"]) == [{"token": "ea-omega", "hex": "-4,3",
                                                  "facing": 2}]


def test_a_malformed_option_is_a_one_line_error(tmp_path):
    st, view, path = table(tmp_path)
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", path, "-o", orders)
    before = orders.read_text()
    for flag, item in (("--move", "t7 to 3,-3"), ("--fire", "t20"), ("--build", "base-4"),
                       ("--repair", "t9"), ("--start", "x@1,2/north")):
        out = pbem("orders", "b5", orders, flag, item, ok=False)
        assert len(out.strip().splitlines()) == 1 and flag in out, out
    assert orders.read_text() == before


def test_contested_answer_and_declaration(tmp_path):
    st, view, path = table(tmp_path, "modular-3")  # contested space is modular (E4)
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", path, "-o", orders)
    other = next(p for p in st["seats"] if p != st["current"])
    pbem("orders", "b5", orders, "--contested", "deny", "--allow", other, "--view", path)
    doc = yaml.safe_load(orders.read_text())
    assert doc["orders"]["contested"] == {"default": "deny", "allow": [other]}


def test_b5_subcommand_has_help():
    out = pbem("orders", "b5", "--help")
    assert "--move" in out and "--fire" in out and "--start" in out


def test_check_warns_of_a_first_turn_without_a_starting_fleet(tmp_path):
    """Rules version 2: in the first turn; version 3: in the starting-fleet step (R7)."""
    st, view, path = table(tmp_path, fleet=True)
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", path, "-o", orders)
    out = pbem("orders", "check", orders, "--view", path)
    assert "warning: no starting fleet bought (your starting-fleet step)" in out
    assert "nothing is built, moved or fired" not in out
    st, view, path = table(tmp_path, version=2)
    assert view["you"]["first_turn"]
    pbem("orders", "new", "--view", path, "-o", orders, "--force")
    out = pbem("orders", "check", orders, "--view", path)
    assert "warning: no starting fleet bought (your first turn)" in out
    assert "warning: nothing is built, moved or fired" in out
    pbem("orders", "b5", orders, "--start", *demo.start_fleet(view), "--view", path)
    out = pbem("orders", "check", orders, "--view", path)
    assert "warning" not in out and "ok" in out


def test_the_tool_prints_each_purchase_id_and_refuses_what_the_referee_voids(tmp_path):
    """The tool runs the referee's check on the file's whole turn: a two-hex move of a ship
    bought in the same file, and a volley at a base five hexes away, are refused with the
    referee's sentences (by the tool and by ``pbem orders check``); a good purchase prints the
    id it will get. Rules version 2, whose first turn buys the starting fleet (ruling R7)."""
    st, view, path = table(tmp_path, version=2)
    assert st["current"] == "earth-alliance"
    line = ["1,3"]
    for _ in range(5):
        line.append(hx.key(hx.neighbour(hx.parse(line[-1]), 1)))
    bought = f"t{view['next_token']}"
    orders = tmp_path / "orders.yaml"
    pbem("orders", "new", "--view", path, "-o", orders)
    out = pbem("orders", "b5", orders, "--start", f"ea-hyperion@{line[0]}/1", "--view", path)
    assert f"bought: {bought} (ea-hyperion, start[0])" in out
    out = pbem("orders", "b5", orders, "--move", f"{bought}@{line[2]}/1", "--view", path,
               ok=False)
    assert f"move[0]: {bought} cannot move to {line[2]} facing 1 in one standard movement" in out
    base = next(t for t, tok in view["tokens"].items() if tok["owner"] == "minbari")
    out = pbem("orders", "b5", orders, "--fire", f"{base}={bought}", "--view", path, ok=False)
    assert f"{base} is out of range or arc of every firing token (D5.41)" in out
    doc = yaml.safe_load(orders.read_text())
    doc["orders"]["move"] = [{"unit": bought, "to": line[2], "facing": 1}]
    doc["orders"]["fire"] = [{"target": base, "with": [bought]}]
    orders.write_text(yaml.safe_dump(doc, sort_keys=False))
    out = pbem("orders", "check", orders, "--view", path, ok=False)
    assert "in one standard movement" in out and "out of range or arc" in out
