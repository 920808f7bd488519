"""The audit of press entries: a lying referee who rewrites a press entry (and recomputes every
hash after it and re-signs the export) is caught by the sender's signature, and the entry is
named. Press is relayed in-process here (the mail path is tests/engine/host/test_press_e2e.py)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes
from pbem.audit.export import make_header
from pbem.cli.main import main as pbem_main
from pbem.host import rootindex
from pbem.host.press import handle_press_block
from pbem.mail.outbox import Outbox
from pbem.protocol.pressdoc import sign_press
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.log import Entry
from pbem.store.referee import referee_key
from tests.support.pbem_host import Host, at

A, B = "pavo", "antares"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Host, bytes, int]:
    """A wild-4 game with one press entry; its full export and the entry's log seq."""
    tmp = tmp_path_factory.mktemp("press-audit")
    host = Host(tmp, "wild-4", game_id="wild-1", extra=["--deadline", "48h"])
    doc = {"pbem": 1, "game": "wild-1", "power": A, "turn": 1,
           "press": [{"to": B, "text": "Meet at Hamal."}]}
    block = sign_press(yaml.safe_dump(doc, sort_keys=False), host.keys[A])
    verdict = handle_press_block(host.root, block, received=at(1),
                                 ring=rootindex.keyring(host.root), message_id="<p@example.org>",
                                 reply=True, now=at(1))
    assert verdict.verdict == "press"
    [entry] = host.entries(replay.PRESS)
    out = tmp / "full.jsonl"
    assert pbem_main(["export", str(host.path), "-o", str(out)]) == 0
    data = out.read_bytes()
    assert audit_bytes(data, "full.jsonl", []).lines()  # sound as exported
    return host, data, entry.seq


def lying_referee(host: Host, data: bytes,
                  change: Callable[[list[dict[str, Any]]], None]) -> bytes:
    lines = data.split(b"\n")[1:-1]
    entries = [glog.parse_entry(raw, n + 2) for n, raw in enumerate(lines)]
    items = [{"kind": e.kind, "time": e.time, "body": copy.deepcopy(e.body)} for e in entries]
    change(items)
    chain: list[Entry] = []
    for item in items:
        chain.append(glog.make_entry(chain[-1] if chain else None, item["kind"], item["time"],
                                     item["body"]))
    key, _ = referee_key(host.root)
    header = make_header(key, host.game_id, chain, False, {})
    return b"".join(line + b"\n" for line in
                    [canonical.encode(header), *(e.line().rstrip(b"\n") for e in chain)])


def fails(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as info:
        audit_bytes(data, "game.export", [])
    return info.value


def test_changed_press_text_breaks_the_senders_signature(
        exported: tuple[Host, bytes, int]) -> None:
    host, data, seq = exported

    def change(items: list[dict[str, Any]]) -> None:
        body = items[seq]["body"]
        body["text"] = body["text"].replace("Meet at Hamal.", "Meet at Vega.")

    failure = fails(lying_referee(host, data, change))
    assert failure.seq == seq and failure.field == "text"
    assert "press" in str(failure) and "signature" in str(failure)


def test_changed_parsed_message_differs_from_the_signed_file(
        exported: tuple[Host, bytes, int]) -> None:
    host, data, seq = exported

    def change(items: list[dict[str, Any]]) -> None:
        items[seq]["body"]["messages"][0]["to"] = ["regulus"]

    failure = fails(lying_referee(host, data, change))
    assert failure.seq == seq and failure.field == "messages"


def test_press_put_in_another_powers_name_is_caught(
        exported: tuple[Host, bytes, int]) -> None:
    host, data, seq = exported

    def change(items: list[dict[str, Any]]) -> None:
        items[seq]["body"]["power"] = B

    failure = fails(lying_referee(host, data, change))
    assert failure.seq == seq and "antares" in str(failure)


def test_the_relay_went_to_the_recipient_only(exported: tuple[Host, bytes, int]) -> None:
    """Besides the four welcome mails: the relay to B and the receipt to A, nothing else."""
    host, _data, _seq = exported
    counts = Counter(r for e in Outbox(host.path / "outbox").pending() for r in e.recipients)
    assert counts == {f"{p}@example.org": 1 + (p in (A, B)) for p in host.powers}
