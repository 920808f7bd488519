"""What is where on the board: the lookups movement, the order checks and the econ modules share.

Plain reads of a state's (or a player's view's) ``pack``, ``map``, ``hexes`` and ``tokens``
(STATE.md): which unit is in a hex (B4.35: at most one), mines and jumpgates (B4.4), the map slot
of a hex, the Babylon 5 hex (B1.16), a token's side, jump engine and docking (B4.33), and the
Empire Control Sheet a ship moves by (D4.15).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import hexes as hx

Board = Mapping[str, Any]
"""A state, or a player's view of one: both have ``pack``, ``map``, ``hexes``, ``tokens``."""


def ttype(board: Board, tid: str) -> Mapping[str, Any]:
    return board["pack"]["tokens"][board["tokens"][tid]["type"]]  # type: ignore[no-any-return]


def kind(board: Board, tid: str) -> str:
    return str(ttype(board, tid)["kind"])


def is_unit(board: Board, tid: str) -> bool:
    tok = board["tokens"].get(tid)
    return tok is not None and tok["hex"] is not None and kind(board, tid) in ("ship", "base")


def unit_at(board: Board, h: str) -> str | None:
    """The unit (ship or base) in hex ``h`` (B4.35: at most one)."""
    for tid, tok in board["tokens"].items():
        if tok["hex"] == h and kind(board, tid) in ("ship", "base"):
            return str(tid)
    return None


def occupied(board: Board, h: str) -> bool:
    return unit_at(board, h) is not None


def mine_at(board: Board, h: str) -> str | None:
    for tid, tok in board["tokens"].items():
        if tok["hex"] == h and kind(board, tid) == "mine":
            return str(tid)
    return None


def slot_of(board: Board, h: str) -> int | None:
    """The map slot holding hex ``h`` (None: off the map)."""
    for s in board["map"]["slots"]:
        if h in s["hexes"]:
            return int(s["slot"])
    return None


def on_map(board: Board, h: str) -> bool:
    return slot_of(board, h) is not None


def is_b5_hex(board: Board, h: str) -> bool:
    """B1.16, D4.65: the Babylon 5 hex can never be entered, exposed or not."""
    return bool(h == board["map"]["b5_hex"])


def is_gate(board: Board, h: str) -> bool:
    """A jumpgate hex: printed on an exposed piece, or a built jumpgate token (B4.42)."""
    if board["hexes"].get(h, {}).get("jumpgate"):
        return True
    return any(tok["hex"] == h and kind(board, tid) == "jumpgate"
               for tid, tok in board["tokens"].items())


def side(board: Board, tid: str) -> int:
    """0 for the undamaged side, 1 for the crippled side (index into the pack's pairs)."""
    return 1 if board["tokens"][tid]["crippled"] else 0


def has_jump_engine(board: Board, tid: str) -> bool:
    return bool(ttype(board, tid).get("jump", [False, False])[side(board, tid)])


def docked_to(board: Board, tid: str) -> str | None:
    """B4.33: the hex of the base (or Babylon 5) a ship is adjacent to and facing, or None."""
    tok = board["tokens"][tid]
    if kind(board, tid) != "ship" or tok["hex"] is None:
        return None
    h = hx.parse(tok["hex"])
    assert h is not None
    ahead = hx.key(hx.front(h, tok["facing"]))
    if is_b5_hex(board, ahead):
        return ahead
    other = unit_at(board, ahead)
    return ahead if other is not None and kind(board, other) == "base" else None


def empire_sheet(board: Board, tid: str) -> Mapping[str, Any]:
    """The Empire Control Sheet whose movement chart a ship obeys (D4.15: its own empire's;
    a generic ship its controller's: ruling R9)."""
    tok = board["tokens"][tid]
    emp = ttype(board, tid)["empire"]
    if emp not in board["pack"]["empires"]:
        emp = board["powers"][tok["owner"]]["empire"]
    return board["pack"]["empires"][emp]  # type: ignore[no-any-return]
