"""Played games shared by the tests that read them: each is played once per process (a
finished 4000 A.D. game: pbem new, signed orders with real commitments and an escrow, the real
cron job, a key replaced by ``pbem gm replace``, concessions ending it; exported full and
public). A test that writes to one copies it first."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.audit.export import export_game
from pbem.cli.main import main as pbem_main
from pbem.host import gmops
from pbem.protocol import escrow
from pbem.protocol.keys import PrivateKey
from tests.support.pbem_host import Host, at


@dataclass(frozen=True)
class Played:
    host: Host
    export: bytes  # the full export
    public: bytes  # the --public export
    key_seq: int  # seq of the key replacement
    escrow_seq: int  # seq of the resolve entry that opened pavo's escrow
    battle_seq: int  # seq of a resolve entry with a battle


_CACHE: dict[str, Played] = {}


def play(tmp: Path) -> Played:
    host = Host(tmp, "independents-4")
    assert pbem_main(["keygen", "--x25519", str(host.root / "referee")]) == 0
    referee_x = escrow.load_public(host.root / "referee.x25519.pub")
    # Turn 1: algol and regulus both head for Schedar (a battle on turn 2); pavo departs for
    # Spica with its reveal escrowed to the referee; antares stays home.
    pavo = host.depart("pavo", "Pavo", 4, "Spica")
    star, nonce = host.vault[("pavo", "1", 1)]
    pavo["escrow"] = escrow.seal(referee_x, host.game_id, "pavo", 1, 1, star, nonce)
    bodies = {"algol": {"depart": host.depart("algol", "Algol", 5, "Schedar")},
              "regulus": {"depart": host.depart("regulus", "Regulus", 6, "Schedar")},
              "pavo": {"depart": pavo}, "antares": {}}
    for power in host.powers:
        assert host.submit(power, bodies[power], at(1)).verdict == "accepted"
    assert host.run(at(2))[0].status == "resolved"
    # A new player takes over antares (pbem gm replace): a referee-signed key entry.
    new_key = PrivateKey.generate()
    key_seq = gmops.replace(host.path, at(3), "antares", "antares2@example.org",
                            new_key.public).entry_seq
    host.keys["antares"] = new_key
    # Turn 2: arrivals revealed from the vault; pavo sends nothing, so at the deadline the cron
    # job opens its escrow and the fleet arrives at Spica.
    for power in ("algol", "regulus", "antares"):
        assert host.submit(power, {}, at(4)).verdict == "accepted"
    assert host.run(at(51))[0].status == "resolved"
    resolves = host.entries("resolve")
    assert resolves[-1].body["escrow"]["pavo"]["1"]["used"] is True
    assert any(e["type"] == "battle" for e in resolves[-1].body["events"])
    # Turn 3: three powers concede; algol is the last power standing.
    for power in ("pavo", "antares", "regulus"):
        assert host.submit(power, {"concede": True}, at(52)).verdict == "accepted"
    assert host.submit("algol", {}, at(52)).verdict == "accepted"
    # algol corrects its orders (a higher seq): the resolution must use the correction.
    assert host.submit("algol", {}, at(52.5)).verdict == "accepted"
    host.run(at(53))
    assert host.state()["result"]["winners"] == ["algol"]
    full, public = tmp / "game.export", tmp / "game.public"
    export_game(host.path, full)
    export_game(host.path, public, public=True)
    return Played(host, full.read_bytes(), public.read_bytes(), key_seq, resolves[-1].seq,
                  resolves[-1].seq)


def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    if "game" not in _CACHE:
        _CACHE["game"] = play(tmp_path_factory.mktemp("audit-game"))
    return _CACHE["game"]
