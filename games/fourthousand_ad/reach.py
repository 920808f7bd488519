"""Reach, so a player can plan without ``pbem distance``: for every warp in hyperspace (the
reader's own and the other powers' of the threat list), the sectors it can come out in next
turn; and for each sector holding a star of the reader's, the sectors 2 and 3 turns away.

Everything about the game comes from the reader's view: a warp's next sectors are the sectors of
its ``could_arrive_next`` stars (what the view computed from the public departure sector and
distance travelled), the reader's stars are ``stars_held``. Only the distance table reads the
board, and only its geometry (``Board.sector_distance``, the rules' own count), which is public
and the same for every game and reader. Sectors are written short: the area letter with ▲ for
the upper (yellow) level, ▼ for the lower (red), as on the text map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .board import default_board
from .starmap import area_grid, upper_level
from .view import Shared
from .words import HOME_MARK, LOWER, UPPER, abbr, colours, plural, power_name

View = Mapping[str, Any]

WIDTH = 79  # text columns (the reports' 80 with the newline)
TURNS = (2, 3)  # the distance table's columns; 1 turn is the star's own sector


def sector_order(view: View) -> list[str]:
    """Every sector, area by area in board order, upper level first."""
    return list(_layout(view).order)


def short(view: View, sector: str) -> str:
    """"A▲" for A-yellow, "A▼" for A-red."""
    return _layout(view).shorts.get(sector, sector)


class _Layout:
    """The sectors of a view's stars: in sector order, each one's short name and rank, each
    star's position (the order of the view's stars), and the distance table's sectors by turns
    away per sector (made as asked: ``_away``)."""

    __slots__ = ("order", "shorts", "rank", "position", "away")

    def __init__(self, view: View) -> None:
        upper = upper_level(view)
        areas = [a for row in area_grid(view) for a in row]
        rank: dict[str, tuple[int, bool]] = {}
        shorts: dict[str, str] = {}
        for s in view["stars"].values():
            if s["sector"] not in shorts:
                shorts[s["sector"]] = s["area"] + (UPPER if s["level"] == upper else LOWER)
                rank[s["sector"]] = (areas.index(s["area"]), s["level"] != upper)
        self.order = sorted(rank, key=rank.__getitem__)
        self.shorts = shorts
        self.rank = {sector: i for i, sector in enumerate(self.order)}
        self.position = {name: i for i, name in enumerate(view["stars"])}
        self.away: dict[str, dict[int, list[str]]] = {}


#: The stars object of the view read last, the key of its stars' names, sectors, areas and
#: levels, and the ``_Layout`` made of them.
_LAST: list[Any] = [None, None, None]


def _layout(view: View) -> _Layout:
    """The sectors of the view's stars (``_Layout``), from one pass over the stars (a report
    asks for them for every warp and every row of the distance table). Only the stars' names,
    sectors, areas and levels count, which are the board's and the same in every view of a
    game: made once while they are equal to the last view's, and found without comparing
    them for the very stars object read last when it is one the views share (view.Shared,
    which refuses writes). Callers never change what they get."""
    stars = view["stars"]
    last = _LAST
    if last[0] is stars and isinstance(stars, Shared):
        return last[2]  # type: ignore[no-any-return]
    key = [(n, s["sector"], s["area"], s["level"]) for n, s in stars.items()]
    if last[1] != key:
        last[1:] = [key, _Layout(view)]
    last[0] = stars  # held: its id is not reused while remembered
    return last[2]  # type: ignore[no-any-return]


def _away(layout: _Layout, sector: str) -> dict[int, list[str]]:
    """The short names of the sectors ``TURNS`` turns away from ``sector``, in sector order
    (board geometry: once per sector for the views that share their stars)."""
    hit = layout.away.get(sector)
    if hit is None:
        board = default_board()
        here = board.sector(sector)
        away = {s: board.sector_distance(here, board.sector(s)) for s in layout.order}
        hit = layout.away[sector] = {t: [layout.shorts[s] for s in layout.order if away[s] == t]
                                     for t in TURNS}
    return hit


def _your_sectors(view: View, readers: Sequence[str],
                  layout: _Layout) -> dict[str, list[str]]:
    """The sectors holding a star a reader holds, each with those stars (home marked), the
    stars in the order of the view's."""
    powers = view["powers"]
    held = {n for p in readers if p in powers for n in powers[p]["stars_held"]}
    stars = view["stars"]
    out: dict[str, list[str]] = {}
    for name in sorted((n for n in held if n in stars), key=layout.position.__getitem__):
        s = stars[name]
        out.setdefault(s["sector"], []).append(name + (HOME_MARK if s["home_of"] else ""))
    return out


def warp_reach(view: View, readers: Sequence[str]) -> list[dict[str, Any]]:
    """Each warp in hyperspace, the reader's first: where it left, the step it makes next turn
    and the sectors that step can end in (flagged where a star of the reader's lies)."""
    layout = _layout(view)
    return _warp_reach(view, readers, layout, _your_sectors(view, readers, layout))


def _warp_reach(view: View, readers: Sequence[str], layout: _Layout,
                yours: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    shorts, rank = layout.shorts, layout.rank
    owners = [p for p in view["warps"] if p in readers]
    owners += [p for p in view["warps"] if p not in readers]
    out = []
    for owner in owners:
        mine = owner in readers
        for key, w in sorted(view["warps"][owner].items(), key=lambda kv: int(kv[0])):
            if w is None:
                continue
            sectors = sorted({view["stars"][n]["sector"] for n in w["could_arrive_next"]},
                             key=rank.__getitem__)
            cells = [{"sector": s, "short": shorts[s],
                      "yours": s in yours and not mine} for s in sectors]
            words = " ".join(c["short"] + ("!" if c["yours"] else "") for c in cells)
            strong, light = colours(view, owner)
            out.append({
                "owner": owner, "name": power_name(owner), "abbr": abbr(owner), "key": str(key),
                "mine": mine, "tag": f"{abbr(owner)} {key}",
                "label": f"{abbr(owner)} warp {key}" + (" (yours)" if mine else ""),
                "ships": w["ships_total"], "from": w["from"], "sector": w["sector"],
                "from_short": shorts.get(w["sector"], w["sector"]),
                "step": w["next_distance"],
                "sectors": cells,
                "text": words or "nowhere: it is lost in hyperspace next turn",
                "strong": strong, "light": light,
            })
    return out


def distances(view: View, readers: Sequence[str]) -> list[dict[str, Any]]:
    """For each sector holding a star of the reader's: the sectors 2 and 3 turns away."""
    layout = _layout(view)
    return _distances(layout, _your_sectors(view, readers, layout))


def _distances(layout: _Layout, yours: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    rank, shorts = layout.rank, layout.shorts
    out = []
    for sector, stars in sorted(yours.items(), key=lambda kv: rank[kv[0]]):
        by_turns = {t: list(sectors) for t, sectors in _away(layout, sector).items()}
        out.append({"sector": sector, "short": shorts.get(sector, sector), "stars": stars,
                    "stars_text": ", ".join(stars),
                    "turns": [{"turns": t, "sectors": by_turns[t],
                               "text": " ".join(by_turns[t]) or "-"} for t in TURNS]})
    return out


def _row(cells: Sequence[tuple[str, int]], width: int = WIDTH) -> list[str]:
    """Columns of (text, width); the last column's words wrap under it if the line is long."""
    head = "".join(f"{text:<{w}}" for text, w in cells[:-1])
    indent = len(head)
    lines: list[str] = []
    line = head
    for word in cells[-1][0].split(" "):
        if len(line) > indent and len(line) + 1 + len(word) > width:
            lines.append(line.rstrip())
            line = " " * indent
        line += ("" if len(line) == indent else " ") + word
    lines.append(line.rstrip())
    return lines


def reach_text(warps: Sequence[Mapping[str, Any]]) -> list[str]:
    """The warps' reach as 80-column lines, one row per warp."""
    if not warps:
        return ["  No warp is in hyperspace."]
    lines = _row([("  warp", 22), ("ships", 7), ("left", 18), ("step", 6),
                  ("can come out in", 0)])
    for w in warps:
        left = f"{w['from']} ({w['from_short']})"
        lines += _row([("  " + w["label"], 22), (f"{w['ships']:>5}", 7), (left, 18),
                       (f"{w['step']:>4}", 6), (w["text"], 0)])
    return lines


def distances_text(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The distance table as 80-column lines, one row per sector of the reader's stars."""
    if not rows:
        return ["  You hold no star."]
    name_w = max(20, max(len(r["stars_text"]) for r in rows) + 2)
    lines = _row([("  your stars", name_w), ("sector", 8), ("2 turns", 17), ("3 turns", 0)])
    for r in rows:
        two, three = (t["text"] for t in r["turns"])
        if len(two) > 15:  # never on the 12-area board (at most 5 sectors); kept readable
            lines += _row([("  " + r["stars_text"], name_w), (r["short"], 8), (two, 0)])
            lines += _row([("", name_w + 8 + 17), (three, 0)])
        else:
            lines += _row([("  " + r["stars_text"], name_w), (r["short"], 8), (two, 17),
                           (three, 0)])
    return lines


def reach(view: View, readers: Sequence[str]) -> dict[str, Any]:
    """The reach section of a report (text and HTML) and of the map: the warps' next sectors,
    the distance table, and per sector the warps that can come out there (for the map)."""
    layout = _layout(view)
    yours = _your_sectors(view, readers, layout)
    warps = _warp_reach(view, readers, layout, yours)
    rows = _distances(layout, yours)
    tags: dict[str, list[dict[str, Any]]] = {}
    for w in warps:
        for c in w["sectors"]:
            tags.setdefault(c["sector"], []).append(
                {"tag": w["tag"], "mine": w["mine"], "strong": w["strong"],
                 "light": w["light"], "yours": c["yours"]})
    return {
        "warps": warps, "distances": rows, "sector_tags": tags, "for_power": bool(readers),
        "warps_text": reach_text(warps), "distances_text": distances_text(rows),
        "summary": (f"{plural(len(warps), 'warp')} in hyperspace"
                    if warps else "no warp in hyperspace"),
    }
