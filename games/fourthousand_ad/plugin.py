"""The GamePlugin object for 4000 A.D.: the engine's one handle on this game (the contract is
pbem.game.plugin: rules here, the presenter in present.py, the player's tool in tool.py).

``orders.py`` (order checks, standing orders) is declared once below and pbem.game.base.Game
forwards to it; the steps, the views and the leak tests' data are written here (they read the
board and the world, and the referee holds no hidden string of its own)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pbem.errors import Problem
from pbem.game import datafile
from pbem.game.base import Game, lazy_parts
from pbem.game.chance import NO_CHANCE, Chance
from pbem.game.plugin import Resolution, SealedOpener, VariantInfo, Variation, Window

from . import ending, orders, resolve, sample, secrecy, start, view
from .board import Board, board_of, board_problems, default_board, default_board_data
from .variants import load_variant, variant_names
from .world import World, canonical_copy

HERE = Path(__file__).resolve().parent


@cache
def manifest() -> dict[str, Any]:
    data: dict[str, Any] = datafile.load(HERE / "game.yaml")
    return data


class FourThousandAD(Game):
    id = "4000ad"
    title = "4000 A.D."
    modes: tuple[str, ...] = tuple(manifest()["modes"])  # pbem new --mode (the first: default)
    # imported when first used: judging an order mail needs none of them
    presenter, tool, archive = lazy_parts(__package__)
    orders = orders
    counted = {"battles": ("battle",)}
    sample_orders = staticmethod(sample.sample_orders)  # random legal play (conformance)
    rules_version: int = int(manifest()["rules_version"])
    rules_versions_supported: tuple[int, ...] = tuple(manifest()["rules_versions_supported"])

    @property
    def board(self) -> Board:
        """The stand-in board new games take (a running game plays on its own: its state's)."""
        return default_board()

    def board_of_view(self, view_: Mapping[str, Any] | None) -> Board:
        """The board a view was made on (the player's tool reads no host file given one)."""
        return board_of(view_.get("board") if view_ else None)

    def default_components(self) -> tuple[str, Any]:
        """The project-authored stand-in pack: the reconstructed board (board.yaml)."""
        return str(manifest()["components"]), default_board_data()

    def check_components(self, data: Any) -> list[Problem]:
        """Every problem of a board file (the 4000 A.D. component pack), each with its path."""
        return board_problems(data)

    def data_files(self) -> dict[str, Any]:
        """Data the rules read from the host besides the pack, as parsed (a comment edited in
        the file does not count as a change)."""
        return {name: datafile.load(HERE / name)
                for name in manifest().get("data", [])}

    def variants(self) -> Mapping[str, VariantInfo]:
        out = {}
        for name in variant_names():
            v = load_variant(name)
            out[name] = VariantInfo(name, v.title, v.powers, f"{v.version}, {v.players} players")
        return out

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return start.initial_state(variant, options)

    def window(self, state: dict[str, Any]) -> Window | None:
        """Every step is a turn; in sequential play one slot of powers moves at a time."""
        due = resolve.due_powers(state)
        if not due:
            return None
        return Window("turn", f"Turn {state['turn']}", tuple(due))

    def nmr_orders(
        self,
        state: dict[str, Any],
        power: str,
        open_sealed: SealedOpener | None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Standing orders: warps continue, no departure. A warp whose departure carried an
        escrow (slot: the warp number, value: the destination) is opened by the referee
        (docs/protocol.md, "Escrow"); if its destination is due this turn and opens the
        commitment, the fleet arrives (ruling R14)."""
        return orders.nmr_orders(state, power, open_sealed)

    def concede(self, state: dict[str, Any], power: str) -> Resolution:
        w = World(state)
        if w.alive(power) and state["result"] is None:
            w.s["powers"][power]["conceded"] = True
            w.emit("concession", power=power)
            ending.check_victory(w)
        return Resolution(w.state, w.events)

    def resolve(self, state: dict[str, Any], orders_: Mapping[str, Any],
                chance: Chance = NO_CHANCE) -> Resolution:
        """4000 A.D. has no dice: ``chance`` is never drawn from. The state is taken in its
        canonical (sorted) key order, so the order of the events never depends on how the state
        was read (a state.json cache and a fresh replay resolve alike)."""
        new, events = resolve.resolve(canonical_copy(state), orders_, copy=False)
        return Resolution(new, events)

    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        return view.view(state, power)

    def order_view(self, state: dict[str, Any], power: str) -> dict[str, Any]:
        """What ``normalize_orders`` reads of ``view`` (pbem.game.views): the order checks'
        view, a fraction of the report view's cost."""
        return view.order_view(state, power)

    def secrets(self, state: dict[str, Any], power: str) -> list[str]:
        return secrecy.secrets(state, power)

    def variations(self, state: dict[str, Any], power: str) -> list[Variation]:
        return secrecy.variations(state, power)

    # hidden(): the base's []: the referee holds no secret of its own (destinations live in
    # the players' vaults, and an escrow blob is its sender's: ``secrets``).

    def end_game(self, state: dict[str, Any], reason: str) -> Resolution:
        """End now by agreement (game-master operation): most stars, then most ships."""
        if state["result"] is not None:
            return Resolution(state, [])
        w = World(state)
        ending.end_by_agreement(w, reason)
        return Resolution(w.state, w.events)
