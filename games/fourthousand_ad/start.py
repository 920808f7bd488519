"""The initial state of every variant (rulebook: "Starships", "Hyperspace Warps", "Number of
Players and Distribution of Home Stars")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .board import Board, board_of, board_problems, default_board_data, normal_form
from .variants import VariantError, load_variant, resolve_options

SCHEMA = 1
GAME_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,62}")


def initial_state(
    variant_name: str, options: Mapping[str, Any], board: Board | None = None
) -> dict[str, Any]:
    """``options`` may carry ``components`` (the board data the game is played on: recorded in
    the state, so the rules, the views and the audit use it and never the host's board file) and
    ``rules_version`` (the version the game was started under: recorded in the state for the
    rules to branch on where an older version is still played)."""
    options = dict(options)
    data = options.pop("components", None)
    rules_version = options.pop("rules_version", None)
    if data is None:
        data = default_board_data()
    problems = board_problems(data)
    if problems:
        raise VariantError("the board: " + "; ".join(map(str, problems)))
    board = board or board_of(data)
    variant = load_variant(variant_name)
    game_id = options.get("game_id")
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise VariantError(
            f"game_id must be a lower-case slug (letters, digits, . _ -), not {game_id!r}"
        )
    opts = resolve_options(options)
    ships = int(opts["ships_at_start"])
    stars: dict[str, Any] = {}
    for power in variant.powers:
        home = variant.homes[power]
        if home not in board.stars:
            raise VariantError(f"home star {home} of {power} is not on the board")
        stars[home] = {"holder": power, "ships": {power: ships}, "arrived": [power]}
    return {
        "schema": SCHEMA,
        "game": "4000ad",
        "game_id": game_id,
        "variant": variant.name,
        "version": variant.version,
        "options": opts,
        "slots": variant.slots,
        "turn": 1,
        "slot": 0,
        "powers": {
            p: {
                "home": variant.homes[p],
                "colour": variant.colours[p],
                "status": "active",
                "home_lost": None,
                "conceded": False,
                "vote_end": False,
                "permit_home": [],
                "permit_lend": [],
            }
            for p in variant.powers
        },
        "alliances": [
            {"members": sorted(team), "public": True, "since": 0} for team in variant.alliances
        ],
        "proposals": [],
        "withdrawals": [],
        "stars": stars,
        "warps": {p: {str(k): None for k in range(1, int(opts["warps"]) + 1)}
                  for p in variant.powers},
        "round": {"fought": {}, "moved": []},
        "tally": {
            "initial": {p: ships for p in variant.powers},
            "produced": {},
            "destroyed": {},
            "lost": {},
        },
        "result": None,
        "board": normal_form(data),
        **({"rules_version": rules_version} if rules_version is not None else {}),
    }
