"""Hex geometry of the Babylon 5 CGS map: hexes, directions, arcs, map pieces and their layout.

Hexes are flat-topped, in axial coordinates ``(q, r)`` (q a column, r a row); a hex is named in
states, views and orders by the string ``"q,r"`` (``key``/``parse``). The six directions are
numbered 1..6 clockwise from north, the numbers printed around the Babylon 5 hex for Random
Direction Rolls (B1.16, H4; ruling R2 in RULES.md: the rulebook's diagram is not in the text).
A facing is a direction: the hex side the token's forward edge points at.

A map piece is a flower of 7 hexes (B1): the centre and one hex in each direction. Printed hexes
are named ``c`` (centre) and ``1``..``6`` in the piece's own frame; a piece on the board has a
rotation ``rho`` (0..5 steps of 60 degrees clockwise): printed hex ``d`` lies in board direction
``turn(d, rho)`` from the piece's centre. Flowers tile the plane on the lattice spanned by the
six rotations of ``(2, 1)`` (norm 7), which is where piece centres go (``layout``).

Arcs (D5.4, D4.64): the 60-degree arc of a hex side is bounded by the two spine lines through
that side's corners; a hex whose centre lies on a spine line is in the arc (D5.43: "intersected
by a spine line may be targeted"). With this, a jump's forward arc holds exactly the 7 hexes of
the rulebook's Example E within 3 hexes.
"""

from __future__ import annotations

from collections.abc import Iterable

Hex = tuple[int, int]

#: Direction number -> axial step (flat-topped: 1 north, then clockwise).
DIRS: dict[int, Hex] = {1: (0, -1), 2: (1, -1), 3: (1, 0), 4: (0, 1), 5: (-1, 1), 6: (-1, 0)}
#: Firing-arc sides relative to the facing (D5.45): F, FR, AR, A, AL, FL, clockwise.
SIDES = {"F": 0, "FR": 1, "AR": 2, "A": 3, "AL": 4, "FL": 5}
#: The vector between the centres of two adjacent map pieces (the flower lattice).
PIECE_STEP: Hex = (2, 1)
CENTRE: Hex = (0, 0)


def key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse(text: object) -> Hex | None:
    """``"q,r"`` (or a ``[q, r]`` list) -> (q, r); None if it is not a hex name."""
    if isinstance(text, (list, tuple)) and len(text) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in text):
        q, r = text
    elif isinstance(text, str):
        parts = text.replace(" ", "").split(",")
        if len(parts) != 2:
            return None
        try:
            q, r = int(parts[0]), int(parts[1])
        except ValueError:
            return None
    else:
        return None
    if abs(q) > 999 or abs(r) > 999:
        return None
    return (q, r)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Hex, k: int) -> Hex:
    return (a[0] * k, a[1] * k)


def turn(direction: int, steps: int) -> int:
    """``direction`` turned ``steps`` x 60 degrees clockwise (negative: anticlockwise)."""
    return (direction - 1 + steps) % 6 + 1


def neighbour(h: Hex, direction: int) -> Hex:
    return add(h, DIRS[direction])


def neighbours(h: Hex) -> list[Hex]:
    return [neighbour(h, d) for d in range(1, 7)]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` to an adjacent ``b`` (None if not adjacent)."""
    step = sub(b, a)
    for d, v in DIRS.items():
        if v == step:
            return d
    return None


def rotate_vec(v: Hex, steps: int) -> Hex:
    """An axial vector turned ``steps`` x 60 degrees clockwise."""
    x, z = v
    y = -x - z
    for _ in range(steps % 6):
        x, y, z = -z, -x, -y
    return (x, z)


def in_arc(origin: Hex, direction: int, target: Hex) -> bool:
    """Is ``target`` in the 60-degree arc of ``direction`` seen from ``origin`` (spines in)?
    The origin itself is in no arc."""
    v = sub(target, origin)
    if v == (0, 0):
        return False
    q, r = rotate_vec(v, -(direction - 1))  # turn so that the arc's direction is north (1)
    # between the spine vectors (1,-2) and (-1,-1) inclusive: exact integer test
    return -2 * q - r >= 0 and q - r >= 0


def side_direction(facing: int, side: str) -> int:
    """The board direction of a token side (F, FR, AR, A, AL, FL) for a token facing ``facing``."""
    return turn(facing, SIDES[side])


def in_firing_arc(origin: Hex, facing: int, sides: Iterable[str], target: Hex) -> bool:
    """Is ``target`` in any of the token's arcs ``sides`` (D5.4)?"""
    return any(in_arc(origin, side_direction(facing, s), target) for s in sides)


def forward_arc(origin: Hex, facing: int, reach: int) -> list[Hex]:
    """The hexes of the forward 60-degree arc within ``reach`` (D4.64: where a jump may go)."""
    out = []
    for q in range(-reach, reach + 1):
        for r in range(-reach, reach + 1):
            h = add(origin, (q, r))
            if 0 < distance(origin, h) <= reach and in_arc(origin, facing, h):
                out.append(h)
    return sorted(out, key=lambda h: (distance(origin, h), h))


def front(h: Hex, facing: int) -> Hex:
    """The hex directly in front of a token (docking, jumpgate building, minesweeping)."""
    return neighbour(h, facing)


# -- map pieces ------------------------------------------------------------------------------
#: Printed hex names of a piece: the centre and the six directions in the piece's own frame.
PRINTED = ("c", "1", "2", "3", "4", "5", "6")


def printed_to_board(centre: Hex, printed: str, rotation: int) -> Hex:
    """Where a piece's printed hex lies on the board for a piece centred at ``centre``."""
    if printed == "c":
        return centre
    return neighbour(centre, turn(int(printed), rotation))


def piece_hexes(centre: Hex, rotation: int) -> dict[str, Hex]:
    """Printed name -> board hex for a piece placed at ``centre`` with ``rotation``."""
    return {p: printed_to_board(centre, p, rotation) for p in PRINTED}


def flower(centre: Hex) -> list[Hex]:
    """The 7 board hexes of the piece slot centred at ``centre`` (any rotation)."""
    return [centre, *neighbours(centre)]


def exposed_rotation(back: int, axis: int) -> int:
    """The rotation a face-down piece shows when flipped about ``axis`` (1..3, D4.21).

    Ruling R3 (RULES.md): a flip shows the printed face, never its mirror image (the art is
    printed on one side); the piece lies face down with a rotation ``back`` (0..5, drawn in
    secret at the deal). Flipping about the flat-edge axis ``axis`` turns the face by 120
    degrees per axis step, so the three axes give three different rotations, and which ones
    depends on ``back``, which nobody knows: the choice is made before seeing the other side."""
    return (back + 2 * (axis - 1)) % 6


def piece_centre(ring_index: int) -> Hex:
    """Centre of the ring-1 piece ``ring_index`` (0..5): the flower lattice's six steps."""
    return rotate_vec(PIECE_STEP, ring_index)


def _ring2() -> list[Hex]:
    """Ring 2 of the piece lattice, clockwise from the corner 2 x step 0: corner, edge, ..."""
    out: list[Hex] = []
    for k in range(6):
        a, b = piece_centre(k), piece_centre((k + 1) % 6)
        out += [scale(a, 2), add(a, b)]
    return out


def layout(pieces: int) -> list[Hex]:
    """Piece centres by slot for a map of 13 or 19 pieces (C2.1; ruling R4): slot 0 is the
    Babylon 5 piece at the centre, slots 1..6 the ring around it (clockwise from step 0);
    the 13-piece map adds the six edge positions of ring 2, the 19-piece map all of ring 2
    (corner, edge, corner, ... clockwise from the corner 2 x step 0)."""
    ring1 = [piece_centre(k) for k in range(6)]
    ring2 = _ring2()
    if pieces == 13:
        return [CENTRE, *ring1, *ring2[1::2]]
    if pieces == 19:
        return [CENTRE, *ring1, *ring2]
    raise ValueError(f"no map layout of {pieces} pieces (13 or 19)")


#: Homeworld positions 1, 2, ... (C2.32) as slots, by number of players (ruling R4).
HOMEWORLD_SLOTS: dict[int, tuple[int, ...]] = {
    2: (7, 10),          # 13 pieces, opposite outer pieces
    3: (7, 9, 11),       # 13 pieces, every other outer piece
    4: (7, 9, 13, 15),   # 19 pieces, four of the six ring-2 corners
}
MAP_PIECES: dict[int, int] = {2: 13, 3: 13, 4: 19}


def piece_distance(a: Hex, b: Hex) -> int:
    """How many map pieces apart two piece centres are (D4.61: gate to gate within 2): the
    distance on the piece lattice."""
    v = sub(b, a)
    # solve v = x * step0 + y * step1 (a basis of the lattice), then the hex-lattice distance
    s0, s1 = piece_centre(0), piece_centre(1)
    det = s0[0] * s1[1] - s0[1] * s1[0]
    x_num = v[0] * s1[1] - v[1] * s1[0]
    y_num = s0[0] * v[1] - s0[1] * v[0]
    if x_num % det or y_num % det:
        raise ValueError(f"{key(a)} and {key(b)} are not both piece centres")
    x, y = x_num // det, y_num // det
    # step1 is step0 turned 60 degrees clockwise, as direction 2 is direction 1 turned: the
    # piece lattice is a hex grid where x * step0 + y * step1 sits at x * DIRS[1] + y * DIRS[2]
    return distance((0, 0), add(scale(DIRS[1], x), scale(DIRS[2], y)))
