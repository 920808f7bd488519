"""What players read, said plainly (issue 13, cosmetic points): names where ids were, the map
titled for the turn it shows, power colours a colour-blind reader can tell apart (with their text
labels kept), ``pbem distance`` from a star to itself explained, the order form unwrapped."""

from __future__ import annotations

import importlib
import itertools
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from pbem.game import registry
from pbem.render import mails
from tests.support.pbem_host import Host, at, instance_of
from tests.support.run import pbem_text as pbem

AD = registry.load("4000ad")


def presenter() -> Any:
    return mails.presenter(AD)


def played(tmp_path: Path) -> Host:
    """A game after turn 1, in which Algol sent 5 ships from Algol towards Hamal."""
    host = Host(tmp_path)
    for power in host.powers:
        body = {"depart": host.depart("algol", "Algol", 5, "Hamal")} if power == "algol" else None
        assert host.submit(power, body, at(1)).verdict == "accepted"
    host.run(at(2))
    return host


# -- names, not ids ------------------------------------------------------------------------------
def test_no_production_names_the_power_not_its_id() -> None:
    pres = presenter()
    event = {"type": "no_production", "turn": 4, "slot": 0, "power": "regulus",
             "reason": "Regulus is not held by regulus"}
    own = pres.sentence(event, pres.Voice(["regulus"]), "independents")
    other = pres.sentence(event, pres.Voice(["algol"]), "independents")
    assert own == "Production: you built nothing (your home star Regulus is held by another power)."
    assert other == ("Production: Regulus built nothing (Regulus's home star Regulus is held by "
                     "another power).")
    assert "regulus" not in own + other


def test_the_order_forms_warp_comment_counts_ships_and_names_owners(tmp_path: Path) -> None:
    host = played(tmp_path)
    (tmp_path / "view.json").write_text(json.dumps({**AD.view(host.state(), "algol"),
                                                    "instance": instance_of(host.path)}))
    done = pbem("orders", "new", "--view", "view.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [line] = [ln for ln in done.stdout.splitlines() if ln.startswith("# warp 1:")]
    assert line == "# warp 1: 5 ships, left Algol on turn 1, travelled 1 sector", line


# -- the map's title -----------------------------------------------------------------------------
def test_the_map_of_a_turn_report_is_titled_for_the_turn_reported(tmp_path: Path) -> None:
    host = played(tmp_path)
    reports = [m for m in host.sent("algol@") if "Turn 1 report" in str(m["Subject"])]
    assert reports
    for msg in reports:
        [svg] = [p for p in msg.iter_attachments() if p.get_filename() == "map.svg"]
        root = ET.fromstring(svg.get_payload(decode=True))
        title = root.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and str(title.text).endswith("after turn 1"), title.text
    gm = [m for m in host.sent("gm@") if "turn 1" in str(m["Subject"]).lower()]
    for msg in gm:
        for part in msg.iter_attachments():
            if part.get_filename() == "map.svg":
                assert b"after turn 1</title>" in part.get_payload(decode=True)


# -- colours -------------------------------------------------------------------------------------
# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
CVD = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(hex_colour: str) -> list[float]:
    out = []
    for i in (1, 3, 5):
        c = int(hex_colour[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out


def _lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _seen(matrix: Any, hex_colour: str) -> tuple[float, float, float]:
    rgb = _linear(hex_colour)
    return _lab([min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
                 for row in matrix])


def test_power_colours_stay_apart_for_colour_blind_readers() -> None:
    """Every pair of power colours differs by at least 15 (CIE ΔE 1976) as seen with normal
    vision and simulated protanopia, deuteranopia and tritanopia. The old red, orange and green
    came within 6 under deuteranopia."""
    package = type(presenter()).__module__.rsplit(".", 1)[0]
    colours = importlib.import_module(f"{package}.presenter").COLOURS
    strong = {name: pair[0] for name, pair in colours.items()}
    for vision, matrix in CVD.items():
        for (a, ca), (b, cb) in itertools.combinations(strong.items(), 2):
            d = sum((p - q) ** 2 for p, q in zip(_seen(matrix, ca), _seen(matrix, cb),
                                                 strict=True)) ** 0.5
            assert d >= 15, f"{a} and {b} are {d:.1f} apart under {vision}"


def test_powers_keep_text_labels_beside_their_colours(tmp_path: Path) -> None:
    host = played(tmp_path)
    [msg] = [m for m in host.sent("algol@") if "Turn 1 report" in str(m["Subject"])]
    html = msg.get_body(("html",)).get_content()
    for name, abbr in (("Algol", "ALG"), ("Pavo", "PAV"), ("Antares", "ANT"),
                       ("Regulus", "REG")):
        assert f"{abbr} {name}</span>" in html  # the legend names every colour


# -- the order form at 420 px --------------------------------------------------------------------
def test_the_html_order_form_scrolls_instead_of_wrapping_its_comments(tmp_path: Path) -> None:
    host = played(tmp_path)
    [msg] = [m for m in host.sent("algol@") if "Turn 1 report" in str(m["Subject"])]
    html = msg.get_body(("html",)).get_content()
    [style] = re.findall(r'<pre style="([^"]*)"># Orders of', html)
    assert "white-space:pre;" in style and "overflow-x:auto" in style, style
    assert "pre-wrap" not in style


# -- pbem distance -------------------------------------------------------------------------------
def test_distance_from_a_star_to_itself_is_explained() -> None:
    """The rulebook counts sectors both ends included, so a star's own sector is 1 away: a
    fleet can leave and come back. The bare number stays on stdout for scripts."""
    done = pbem("distance", "Pavo", "pavo")
    assert done.returncode == 0 and done.stdout == "1\n"
    assert "same star" in done.stderr and "Pavo" in done.stderr
    other = pbem("distance", "Vega", "Mira")
    assert other.stdout == "5\n" and other.stderr == ""
