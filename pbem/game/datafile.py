"""A game's own data files (game.yaml, variants, component packs): YAML the project ships, read
with libyaml's safe loader where PyYAML was built with it (the pure-Python one otherwise; both
give the same data). Every process that loads a game reads some of them: the pure-Python loader
took ~8 ms CPU of a one-mail ``pbem ingest`` (four small files), libyaml ~1 ms. Hostile input
(a player's orders) is never read here: pbem.protocol.safeyaml."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any, TypeGuard

from pbem.protocol.pyyaml import yaml

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse(text: str) -> Any:
    """The data of a YAML document (raises yaml.YAMLError)."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader, C or Python


def load(path: Path) -> Any:
    """The data of a YAML file, read as UTF-8 (raises OSError, UnicodeDecodeError,
    yaml.YAMLError)."""
    return parse(Path(path).read_text(encoding="utf-8"))


@functools.cache
def _mapping(path: Path) -> dict[str, Any]:
    data = load(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a mapping was expected")
    return data


def mapping(path: Path) -> dict[str, Any]:
    """The mapping a game ships at ``path`` (its stand-in component pack), read once per
    process; a fresh copy each call, so a caller may change it."""
    return copy.deepcopy(_mapping(Path(path)))


def is_whole(value: object) -> TypeGuard[int]:
    """Whether a loaded YAML value is a whole number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)
