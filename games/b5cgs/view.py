"""What one power may see: the only way hidden information leaves a Babylon 5 CGS state.

Public (it is a board game on a table): the map's geometry, every exposed piece and its hexes,
every token on the map and in the Scrap Yards, the Economy Reserves and banks, the War Tokens,
victory declarations, every roll. Private to its owner: the standing answer to contested-space
requests (ruling R12). Nobody but the referee: the face-down pieces (C1.42, "so no player has
viewed any of the map pieces"), the pieces set aside, their face-down rotations and the salt.
At the end of the game every piece is revealed.

The view has the state's own keys and shapes for ``pack`` (pieces: exposed only), ``map``,
``hexes``, ``tokens`` and the rest (STATE.md), so movement's and the econ checkers run on a
view exactly as on a state. Every part of a view but the reader's own (``you``) is public and
the same in every view of a state: the views of equal states share those parts as one copy
each (never the state's own objects; views are never changed), so the renderer encodes each
part once per resolution for every view.json.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from . import economy
from .frozen import freeze
from .setup import piece_name
from .turn import plain_copy, window


def _exposed_pieces(state: Mapping[str, Any], reveal: bool) -> dict[str, Any]:
    names = {s["piece"] for s in state["map"]["slots"] if s["exposed"]}
    if reveal:
        names |= set(state["referee"]["pieces"].values()) | set(state["referee"]["aside"])
    return {p: v for p, v in state["pack"]["pieces"].items() if p in names}


def view(state: Mapping[str, Any], power: str | None) -> dict[str, Any]:
    if power is not None and power not in state["powers"]:
        raise ValueError(f"no power {power!r} in this game")
    over = state["result"] is not None
    step = window(state)
    pieces = _exposed_pieces(state, over)
    tables = _pack_tables(state["pack"])
    tokens = _board_copy("tokens", state["tokens"])
    # Every part but ``you`` is public and the same in every view of a state: the parts that
    # are containers are copies shared by the views made from equal ones (``_board_copy``),
    # so nothing of the state leaves in a view and the renderer encodes each once; the rest
    # are strings, numbers and None.
    out: dict[str, Any] = {
        "game": "b5cgs", "game_id": state["game_id"], "viewer": power, "turn": state["turn"],
        "variant": state["variant"], "options": _board_copy("options", state["options"]),
        "phase": state["phase"], "round": state["round"],
        "seats": _board_copy("seats", state["seats"]),
        "order": _board_copy("order", state["order"]), "current": state["current"],
        "window": None if step is None else _board_copy(
            "window", {"kind": step.kind, "label": step.label, "due": list(step.due)}),
        "map": _board_copy("map", state["map"]), "hexes": _board_copy("hexes", state["hexes"]),
        "tokens": tokens, "next_token": state["next_token"],
        "powers": _powers(state, tokens, tables), "result": _board_copy("result", state["result"]),
    }
    if power is not None:
        me = state["powers"][power]
        out["you"] = {"contested": plain_copy(me["contested"]),
                      "first_turn": me["turns"] == 0}
    if over:
        out["revealed"] = {s: piece_name(p) for s, p in sorted(state["referee"]["pieces"].items())}
        out["aside"] = [piece_name(p) for p in state["referee"]["aside"]]
    out["pack"] = _pack_view(tables, pieces)
    return out


#: The views' ``powers`` as last made: the tokens and pack tables they were made with (the
#: objects views share), the seats and a copy of the state's powers, and the part itself.
_POWERS: list[Any] = [None, None, None, None, None]


def _powers(state: Mapping[str, Any], tokens: Any, tables: Any) -> dict[str, Any]:
    """Every power's public part (the same in every view of a state: empire, Reserve, banks,
    War Tokens, ...), made once for the views of a state and shared by them, as the board
    is: found while the tokens and pack tables are the objects views share for equal ones
    (``_board_copy``, ``_pack_tables``) and the seats and powers equal a copy of what it was
    made from."""
    kept = _POWERS
    if (kept[0] is tokens and kept[1] is tables and kept[2] == state["seats"]
            and kept[3] == state["powers"]):
        return kept[4]  # type: ignore[no-any-return]
    powers = {}
    for p in state["seats"]:
        me = state["powers"][p]
        emp = me["empire"]
        powers[p] = {"empire": emp, "title": state["pack"]["empires"][emp]["title"],
                     "reserve": me["reserve"], "war_tokens": list(me["war_tokens"]),
                     "surrendered": me["surrendered"], "declared": me["declared"],
                     "turns": me["turns"], "homeworld_slot": me["homeworld_slot"]}
        powers[p]["banks"] = dict(economy.banks(state, p))
    copied = plain_copy({"seats": state["seats"], "powers": state["powers"], "part": powers})
    kept[:] = [tokens, tables, copied["seats"], copied["powers"], copied["part"]]
    return copied["part"]  # type: ignore[no-any-return]


#: The pack's tables (all but its pieces) as the last state had them (its own objects), and
#: the read-only copy views share.
_PACK: list[Any] = [None, None]


def _pack_tables(pack: Mapping[str, Any]) -> dict[str, Any]:
    """The pack's tables but ``pieces`` (the token types, empires, dice: 11 KB of a 18 KB
    view, the same in every view of a game), copied once, read-only (``frozen.freeze``: the
    renderer encodes them once per process, not per resolution; a state's tables read-only
    already, turn.shared_pack, are taken as they are), and shared by the views made
    from equal tables: views are never changed (docs/plugins.md, "The rules"). The same objects
    as last time are taken for the same tables (states are never changed either, and a
    resolution's new state shares its pack with the old: turn.working_copy), so every view
    of a step costs an identity check; other objects are compared with the shared copy (it
    cannot change), so a state whose pack differs (another pack, or another copy of it
    changed) gets its own copy."""
    tables = {k: v for k, v in pack.items() if k != "pieces"}
    seen = _PACK[0]
    if seen is not None and seen.keys() == tables.keys() and all(
            seen[k] is v for k, v in tables.items()):
        return _PACK[1]  # type: ignore[no-any-return]
    if _PACK[1] != tables:
        _PACK[1] = freeze(tables)
    _PACK[0] = tables  # (holding its objects: their ids are not reused while kept)
    return _PACK[1]  # type: ignore[no-any-return]


#: The public parts (the board's map, hexes and tokens; the options, seats, order, window and
#: result) as the last state had them, and the copies views share.
_BOARD: dict[str, list[Any]] = {}


def _board_copy(key: str, value: Any) -> Any:
    """A copy of the state's ``key`` (public: the board on the table, the seats, the window,
    ...) shared by every view made from an equal one (every power's view of a state and the
    public view), as the pack's tables are: views are never changed (docs/plugins.md, "The
    rules"; the order checks copy a view before they play on it). Found by equality with a
    copy of what it was made from."""
    kept = _BOARD.get(key)
    if kept is None or kept[0] != value:
        kept = [plain_copy({key: value})[key], plain_copy({key: value})[key]]
        _BOARD[key] = kept
    return kept[1]


#: The pack as the last views showed it: its tables (the object of ``_PACK``), its exposed
#: pieces (a copy), and the pack dict made of them.
_PACK_VIEW: list[Any] = [None, None, None]


def _pack_view(tables: dict[str, Any], pieces: Mapping[str, Any]) -> dict[str, Any]:
    """The view's ``pack``: the shared tables with the exposed ``pieces`` (the state's own
    objects: copied here, once), one object for every view whose pieces are equal (every
    power's view of one state: the exposed pieces are public), so the renderer encodes it
    once per resolution (pbem.render.cache)."""
    if _PACK_VIEW[0] is not tables or _PACK_VIEW[1] != pieces:
        copied = plain_copy(pieces)
        _PACK_VIEW[:] = [tables, copied, {**tables, "pieces": copied}]
    return _PACK_VIEW[2]  # type: ignore[no-any-return]


def secrets(state: Mapping[str, Any], power: str) -> list[str]:
    """No string is one power's alone: the contested answer is a choice among public words
    (its structural leak test is ``variations``)."""
    return []


def hidden(state: Mapping[str, Any]) -> list[str]:
    """The referee's secrets as a leaked view would name them: every face-down and set-aside
    piece by its id (which ``piece:<id>`` in events contains) and its title, and the salt.
    Nothing once the game is over (all revealed)."""
    if state["result"] is not None:
        return []
    ref = state["referee"]
    ids = sorted(set(ref["pieces"].values()) | set(ref["aside"]))
    titles = sorted({state["pack"]["pieces"][p]["title"] for p in ids})
    return ids + titles + ([ref["salt"]] if ref.get("salt") else [])


def variations(state: Mapping[str, Any], power: str) -> list[tuple[dict[str, Any],
                                                                   tuple[str, ...]]]:
    """``power``'s standing contested-space answer turned the other way: only he may notice."""
    if state["result"] is not None:
        return []
    new = copy.deepcopy(dict(state))
    answer = new["powers"][power]["contested"]
    answer["default"] = "allow" if answer["default"] == "deny" else "deny"
    return [(new, (power,))]
