"""Where the bundled games and templates live: the source checkout or the installed wheel."""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _locate(env: str, checkout_name: str, installed_name: str) -> Path:
    override = os.environ.get(env)
    if override:
        return Path(override)
    checkout = _HERE.parent / checkout_name
    if checkout.is_dir():
        return checkout
    return _HERE / installed_name


def games_root() -> Path:
    """Directory holding one sub-directory per game (plugin code plus data)."""
    return _locate("PBEM_GAMES_DIR", "games", "_games")


def templates_root() -> Path:
    """Directory holding the default Jinja templates."""
    return _locate("PBEM_TEMPLATES_DIR", "templates", "_templates")
