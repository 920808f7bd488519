"""A game's own data files (game.yaml, variants, component packs): YAML the project ships, read
with libyaml's safe loader where PyYAML was built with it (the pure-Python one otherwise; both
give the same data). Every process that loads a game reads some of them: the pure-Python loader
took ~8 ms CPU of a one-mail ``pbem ingest`` (four small files), libyaml ~1 ms. Hostile input
(a player's orders) is never read here: pbem.protocol.safeyaml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.protocol.pyyaml import yaml

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse(text: str) -> Any:
    """The data of a YAML document (raises yaml.YAMLError)."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader, C or Python


def load(path: Path) -> Any:
    """The data of a YAML file, read as UTF-8 (raises OSError, UnicodeDecodeError,
    yaml.YAMLError)."""
    return parse(Path(path).read_text(encoding="utf-8"))
