"""A 4000 A.D. game in progress (at turn 2, built once per process) for the archive tests, and
the export an archive site embeds."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from pbem.audit.export import export_game
from pbem.cli.main import main as pbem_main
from pbem.protocol import escrow
from tests.support.pbem_host import Host, at

EMBEDDED = re.compile(rb'<script type="application/octet-stream" id="pbem-export">([^<]*)'
                      rb"</script>")


@dataclass
class Running:
    host: Host
    full: bytes
    public: bytes


_RUNNING: dict[str, Running] = {}


def running(tmp_path_factory: pytest.TempPathFactory) -> Running:
    """A Wild Alliance game in progress: turn 1 resolved with a secret alliance proposal (a
    private event), two fleets in hyperspace (one with its reveal escrowed to the referee);
    turn 2's order files accepted, with the reveals' nonces, and not yet resolved."""
    if "game" in _RUNNING:
        return _RUNNING["game"]
    tmp = tmp_path_factory.mktemp("archive-running")
    host = Host(tmp, "wild-4")
    assert pbem_main(["keygen", "--x25519", str(host.root / "referee")]) == 0
    referee_x = escrow.load_public(host.root / "referee.x25519.pub")
    algol = host.depart("algol", "Algol", 5, "Schedar")
    star, nonce = host.vault[("algol", "1", 1)]
    algol["escrow"] = escrow.seal(referee_x, host.game_id, "algol", 1, 1, star, nonce)
    bodies = {"algol": {"depart": algol, "alliance": {"propose": ["regulus"]}},
              "regulus": {"depart": host.depart("regulus", "Regulus", 4, "Adhara")},
              "pavo": {}, "antares": {}}
    for power in host.powers:
        assert host.submit(power, bodies[power], at(1)).verdict == "accepted"
    assert host.run(at(2))[0].status == "resolved"
    for power in ("algol", "regulus"):
        assert host.submit(power, {}, at(3)).verdict == "accepted"
    full, public = tmp / "full.export", tmp / "public.export"
    export_game(host.path, full)
    export_game(host.path, public, public=True)
    _RUNNING["game"] = Running(host, full.read_bytes(), public.read_bytes())
    return _RUNNING["game"]
