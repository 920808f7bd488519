"""TI4 by mail: the pure foundations (stand-in pack, galaxy, board and tactical action). Not
yet a playable game: no game.yaml and no PLUGIN, so the registry does not list it (RULES.md)."""
