"""4000 A.D.'s declared presenter (pbem.game.presentation.Presenter): the object the plugin hands
the mail renderer. The building blocks live in the modules presenter.py indexes (star map,
sentences, threats, reach, powers, order form, contexts); this module wires them to the
contract's mails and holds the one piece of presentation computed from the log: the end-of-game
reveal (which departure each opened destination belongs to)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import presenter as p
from . import starmap_svg
from . import writers as report_writers

View = dict[str, Any]


def reveal_rows(log: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every destination opened in the game, with its departure: from the arrival reveals in
    the orders each resolution used and the escrows the referee opened, matched to the
    departure events of the resolutions before (warp numbers are reused, so the latest
    departure of that warp before the arrival is the one). Destinations of fleets still in
    flight stay secret: nobody but their owner ever had them. An escrowed destination that was
    not a star of the board has ``destination`` None (and no nonce): only "an invalid
    destination" is ever shown, never what the player sealed."""
    submitted: dict[str, Mapping[str, Any]] = {}
    departures: dict[tuple[str, str], Mapping[str, Any]] = {}
    rows: list[dict[str, Any]] = []

    def row(power: str, warp: str, arrived: int, destination: str | None, nonce: Any,
            escrow: bool) -> dict[str, Any]:
        dep = departures.get((power, warp), {})
        return {"power": power, "warp": warp, "turn": dep.get("turn", "?"),
                "origin": dep.get("origin"), "destination": destination, "nonce": nonce,
                "commitment": dep.get("commitment"), "arrived": arrived, "escrow": escrow}

    for record in log:
        body = record["body"]
        if record["kind"] == "orders":
            submitted[str(body["sha256"])] = body
        elif record["kind"] == "resolve":
            turn = int(body["turn"])
            for power, sha in body["used"].items():
                orders = submitted.get(str(sha), {}).get("orders") or {}
                warps = orders.get("warps") if isinstance(orders, Mapping) else None
                for warp, order in (warps or {}).items():
                    if isinstance(order, Mapping) and order.get("arrive"):
                        rows.append(row(power, str(warp), turn, str(order["arrive"]),
                                        order.get("nonce"), False))
            for power, opened in (body.get("escrow") or {}).items():
                for warp, item in opened.items():
                    # destination None: refused when opened, not a star (orders.nmr_orders)
                    star = item["value"]
                    rows.append(row(power, str(warp), turn, None if star is None else str(star),
                                    item["nonce"], True))
            for event in body.get("events") or []:
                if event.get("type") == "departure" and not event.get("same_sector"):
                    departures[(str(event["power"]), str(event["warp"]))] = {
                        "turn": event.get("turn", turn), "origin": event["origin"],
                        "commitment": event.get("commitment")}
    return rows


class StarFieldPresenter:
    """The presentation of 4000 A.D.: a star-field map, the threat lists, the order form."""

    map_kind = "stars"

    # The building blocks, for the tests and tools that check one of them.
    Voice = p.Voice
    sentence = staticmethod(p.sentence)
    sentences = staticmethod(p.sentences)
    star_map = staticmethod(p.star_map)
    star_map_text = staticmethod(p.star_map_text)
    map_notes = staticmethod(p.map_notes)
    legend = staticmethod(p.legend)
    own_warps = staticmethod(p.own_warps)
    other_warps = staticmethod(p.other_warps)
    threats = staticmethod(p.threats)
    reach_of = staticmethod(p.reach)
    COLOURS = p.COLOURS
    order_form = staticmethod(p.order_form)
    receipt_lines = staticmethod(p.receipt_lines)
    report = staticmethod(p.report)
    shared = staticmethod(p.shared)
    welcome = staticmethod(p.welcome)
    gm = staticmethod(p.gm)
    reveal = staticmethod(reveal_rows)
    # the turn report written without Jinja while its templates are the ones it was written
    # from (pbem.render.plain; games/fourthousand_ad/writers.py)
    writers = report_writers.WRITERS

    @staticmethod
    def title(view: Mapping[str, Any]) -> str:
        return str(view["variant_title"])

    @staticmethod
    def game_end(view: View, events: Sequence[Mapping[str, Any]], readers: Sequence[str],
                 reveal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        readers = list(readers)
        return {"result": p.result_context(view, readers),
                "events": p.sentences(events, readers, view["version"]),
                "map_text": p.star_map_text(view, readers),
                "map": p.star_map(view, readers), **p.star_field_parts(view, readers),
                "powers": p.powers_table(view, readers),
                "reveal": p.reveal_lines(reveal)}

    @staticmethod
    def map_context(view: View, readers: Sequence[str],
                    shared: Mapping[str, Any] | None) -> dict[str, Any]:
        """The star field for map.svg (the reader's own stars are marked by a CSS rule the
        renderer adds) with the reach: each warp's tag in the sectors it can come out in next
        turn, and the distances from the reader's stars. The star field is the same for every
        reader; the reach names "yours", so readers of different powers get different drawings
        (the renderer caches each drawing by its content). The SVG elements are written by
        starmap_svg (the star field once per star field); ``map.svg`` puts them together."""
        if shared is not None and "legend" in shared:  # a report's or the summary's context
            legend = shared["legend"]
            reach = shared["reach"] if "reach" in shared else p.reach(view, readers)
        else:
            legend, reach = p.legend(view), p.reach(view, readers)
        # the star field without the readers' ``mine``: one object for every reader
        grid = p.neutral_grid(view)
        width, height = starmap_svg.size(reach)
        return {"map": grid, "legend": legend, "reach": reach, "width": width,
                "height": height, "field_svg": starmap_svg.field(grid),
                "reach_svg": starmap_svg.reach_badges(grid, reach),
                "legend_svg": starmap_svg.legend(legend),
                "reach_legend_svg": starmap_svg.reach_legend(reach)}


PRESENTER = StarFieldPresenter()
