"""The commands games add to the player's tool (pbem.game.tool.Tool), e.g. 4000 A.D.'s
``pbem distance`` and ``pbem orders depart|reveal``.

pbem's own commands know no game. Each game's manifest lists the commands its tool adds, with
their lines of help (pbem.game.registry.declared): the command line lists them from there and
imports a game only to run one of its commands (pbem.cli.commands.words), so ``pbem
--help``, ``pbem orders --help`` and ``pbem orders new`` import no game, and ``pbem orders
depart`` imports 4000 A.D. alone. The tool of the game loaded must add exactly the commands its
manifest lists, with the same lines (checked here, where both are at hand).

A game that cannot be loaded adds none of its commands: its error is reported when it is used
(``pbem new --game``), and after any usage error of the command line (``unloadable``), so
``pbem orders b5`` from an install that lost B5's templates says why ``b5`` is not a choice
instead of only that it is not.
"""

from __future__ import annotations

import argparse

from pbem.cli import commands
from pbem.game import registry
from pbem.game.tool import Tool

#: Games whose tool did not add what their manifest lists (said after a usage error).
_mismatched: list[str] = []


def _chosen(kind: str) -> str | None:
    """The game command of ``kind`` the command line being parsed names, if any (the game
    whose command it is is loaded and registers its real parser; every other game's commands
    are listed only)."""
    words = commands.words
    if kind == "commands":
        return words[0] if words else None
    if len(words) >= 2 and words[0] == "orders":
        return words[1]
    return None


def _register(kind: str, sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    try:
        listed = registry.declared(kind)
    except registry.UnknownGame:  # a broken manifest: reported by the command that needs it
        return
    chosen = _chosen(kind)
    owner = listed[chosen][0] if chosen in listed else None
    if owner is not None:
        try:
            tool = registry.load(owner).tool
        except registry.UnknownGame:
            tool = None  # its commands are missing: a usage error names the game (unloadable)
        if tool is not None:
            mine = {name: text for name, (game, text) in listed.items() if game == owner}
            try:
                _add_checked(owner, kind, tool, sub, mine)
            except registry.UnknownGame as exc:
                _mismatched.append(f"{exc}; its commands are missing")
    for name, (game, text) in listed.items():
        if game != owner:
            sub.add_parser(name, help=text, add_help=False)  # listed; not run in this process


def _add_checked(game: str, kind: str, tool: Tool,
                 sub: argparse._SubParsersAction[argparse.ArgumentParser],
                 declared: dict[str, str]) -> None:
    """The tool's real commands of ``kind``, which must be the ones its manifest declares."""
    scratch = argparse.ArgumentParser(add_help=False).add_subparsers()
    (tool.register_commands if kind == "commands" else tool.register_orders)(scratch)
    added = {a.dest: a.help or "" for a in scratch._choices_actions}
    if added != declared:
        raise registry.UnknownGame(
            f"game {game!r}: its tool adds {kind} {_names(added)} but its game.yaml lists "
            f"{_names(declared)} (each name with the same line of help: docs/plugins.md)")
    (tool.register_commands if kind == "commands" else tool.register_orders)(sub)


def _names(commands: dict[str, str]) -> str:
    return ", ".join(f"{k} ({v!r})" for k, v in sorted(commands.items())) or "none"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The games' top-level commands (``pbem distance``)."""
    _register("commands", sub)


def register_orders(cmds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The games' subcommands of ``pbem orders``."""
    _register("orders", cmds)


def unloadable() -> list[str]:
    """One sentence per game under the games roots that cannot be loaded (its commands are
    missing), in game id order; [] when every game loads."""
    try:
        ids = registry.available()
    except registry.UnknownGame as exc:
        return [str(exc)]
    out = list(_mismatched)
    for game_id in ids:
        try:
            registry.load(game_id)
        except registry.UnknownGame as exc:
            out.append(f"{exc}; its commands are missing")
    return out
