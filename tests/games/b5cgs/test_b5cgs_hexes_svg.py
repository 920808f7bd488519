"""The hexes of B5's map.svg are written in Python (hexmap_svg.hexes_svg, for speed): the text is
what the template's own loop wrote, for boards with face-down pieces, exposed ones, marks and
Babylon 5, and for no board at all."""

from __future__ import annotations

import json

from pbem.game import registry
from pbem.game.practice import PracticeChance
from pbem.render import mails

LOOP = """<g class="hexes" stroke="#cbd5e1" stroke-width="0.8">
{% for h in hexes %}
<polygon points="{{ h.points }}" fill="{{ '#fde68a' if h.b5 else ('#f8fafc' if h.exposed else '#9ca3af') }}" class="{{ 'hex' if h.exposed else 'hex facedown' }}"/>
{% endfor %}
</g>
<g class="hex-names" font-size="11" text-anchor="middle">
{% for h in hexes %}
<text x="{{ h.name_x }}" y="{{ h.name_y }}" fill="{{ '#4b5563' if h.exposed else '#f9fafb' }}">{{ h.name }}</text>
{% if h.marks %}<text x="{{ h.marks_x }}" y="{{ h.marks_y }}" font-weight="bold" fill="#1e40af" class="marks">{{ h.marks }}</text>{% endif %}
{% endfor %}
</g>
"""  # noqa: E501 - the template's loop as it was, line for line


def test_the_hexes_are_what_the_templates_loop_wrote():
    plugin = registry.load("b5cgs")
    pres = mails.presenter(plugin)
    # as map.svg is rendered: autoescaped (a string template is not, unless told)
    loop = mails.Renderer("b5cgs").env.from_string(
        "{% autoescape true %}" + LOOP + "{% endautoescape %}")
    state = plugin.setup("basic-4", {"game_id": "hexes"})
    seen = set()
    for step in range(40):
        drawing = pres.map_context(plugin.view(dict(state), None), [], None)
        hexes = drawing["hexes"]
        seen |= {(h["exposed"], bool(h["marks"]), h["b5"]) for h in hexes}
        assert str(drawing["hexes_svg"]) == loop.render(hexes=hexes)
        orders = {p: plugin.default_orders(state, p) for p in plugin.powers_due(state)}
        result = plugin.resolve(json.loads(json.dumps(state)), orders,
                                PracticeChance("b5cgs", "hexes", step))
        if plugin.is_over(result.state):
            break
        state = result.state
    assert {(False, False, False), (True, True, False), (True, True, True)} <= seen
