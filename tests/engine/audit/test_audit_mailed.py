"""The audit holds each resolve entry's ``mailed`` record (pbem.audit._mailed) to the window's
``notify`` policy, on a relay toy game played by the real turn job (baton legs with
``notify="due"``, every player at his own digest pace): the honest log passes; a referee who
records the next runner as not mailed, a bare report to a player from whom steps were held back,
or a ``mailed`` record on a step of the 4000 A.D. game whose window mails everyone, is named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from pbem.audit import AuditFailure, audit_bytes
from pbem.audit.export import export_game
from tests.support.lying import lying_referee
from tests.support.pbem_host import Host
from tests.support.played import Played, played
from tests.support.relay_legs import six_legs


@dataclass(frozen=True)
class Relay:
    host: Host
    export: bytes


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Relay:
    tmp = tmp_path_factory.mktemp("relay")
    host = six_legs(tmp, "relay-m")
    out = tmp / "relay.jsonl"
    export_game(host.path, out)
    return Relay(host, out.read_bytes())


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory)


def _fails(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as caught:
        audit_bytes(data, "full")
    return caught.value


def _resolves(items: list[dict[str, Any]]) -> list[int]:
    return [i for i, item in enumerate(items) if item["kind"] == "resolve"]


def test_the_honest_record_passes(relay: Relay) -> None:
    audit_bytes(relay.export, "full")  # raises AuditFailure on the first lie
    bodies = [e for e in relay.export.split(b"\n") if b'"kind":"resolve"' in e]
    assert len(bodies) == 6 and all(b'"mailed"' in b for b in bodies)


def test_the_next_runner_recorded_as_not_mailed_is_caught(relay: Relay) -> None:
    seen: dict[str, Any] = {}

    def change(items: list[dict[str, Any]]) -> None:
        first, second = _resolves(items)[:2]
        body = items[first]["body"]
        [runner] = items[second]["body"]["due"]  # due next: the window names him
        body["mailed"][runner] = "later"
        seen.update(seq=first, power=runner)

    failure = _fails(lying_referee(relay, change))
    assert failure.seq == seen["seq"] and failure.field == f"mailed.{seen['power']}", failure
    assert "notify due names this power" in str(failure)


def test_a_report_where_steps_were_held_back_is_caught(relay: Relay) -> None:
    seen: dict[str, Any] = {}

    def change(items: list[dict[str, Any]]) -> None:
        seqs = _resolves(items)
        for before, after in zip(seqs, seqs[1:], strict=False):
            said = items[after]["body"]["mailed"]
            for power, value in items[before]["body"]["mailed"].items():
                if value == "later" and said[power] == "digest":
                    said[power] = "report"
                    seen.update(seq=after, power=power)
                    return

    failure = _fails(lying_referee(relay, change))
    assert failure.seq == seen["seq"] and failure.field == f"mailed.{seen['power']}", failure


def test_a_mailed_record_on_a_step_that_mails_everyone_is_caught(game: Played) -> None:
    def change(items: list[dict[str, Any]]) -> None:
        body = items[game.battle_seq]["body"]
        body["mailed"] = {p: "later" for p in body["used"]}

    failure = _fails(lying_referee(game, change))
    assert failure.seq == game.battle_seq and failure.field == "mailed", failure

