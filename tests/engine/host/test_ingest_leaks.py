"""Receipts and rejections tell a player nothing it may not know.

A Wild Alliance game (``wild-1``) plays turn 1 with secrets: Algol and Regulus ally in secret,
Antares proposes to Pavo, Pavo departs with an escrowed reveal, Algol and Pavo have warps in
hyperspace to committed destinations. In turn 2 every power mails an accepted order file (a new
committed departure) and a rejected one through ``pbem ingest``. Every mail queued is searched,
headers, text, HTML and attachments, for what belongs to the other powers:

* ``plugin.secrets`` of every other power the reader is not party to (escrow blobs, secret
  alliances and proposals as the plugin spells them);
* the other powers' nonces (hex) and destinations of their warps, phrased as a destination
  ("to Caph", "→ Caph", "destination Caph", "arrive: Caph");
* the other powers' order texts (their commitments and signatures).
"""

from __future__ import annotations

import re

import pytest

from pbem.game import registry
from tests.support.ingest_helpers import (
    HOME,
    deliver,
    everything_in,
    ingest_maildir,
    maildir,
    order_mail,
    queued,
    registered,
)
from tests.support.pbem_host import Host, at

AD = registry.load("4000ad")
ESCROW = "ESCROW-pavo-" + "Zm9vYmFy" * 8


def destination_claim(star: str) -> re.Pattern[str]:
    words = r"(?:to|towards|bound for|heading for|destination:?|arrive:?|arrives at|->|→)"
    return re.compile(rf"{words}\s+{re.escape(star)}\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Host, dict[str, list[str]]]:
    host = Host(tmp_path_factory.mktemp("leaks"), "wild-4", game_id="wild-1")
    turn1 = {
        "algol": {"depart": host.depart("algol", "Algol", 6, "Caph"),
                  "alliance": {"propose": ["regulus"]}},
        "regulus": {"alliance": {"accept": ["algol"]}},
        "pavo": {"depart": {**host.depart("pavo", "Pavo", 7, "Sirius"), "escrow": ESCROW}},
        "antares": {"alliance": {"propose": ["pavo"]}},
    }
    for power, body in turn1.items():
        verdict = host.submit(power, body, at(1))
        assert verdict.verdict == "accepted", verdict.line()
    host.run(at(2))
    assert host.state()["turn"] == 2
    texts: dict[str, list[str]] = {}
    box = maildir(host.tmp / "Maildir")
    for power in host.powers:
        body = {"depart": host.depart(power, HOME[power], 2, "Mira", warp=2)}
        good = host.orders_text(power, body)
        bad = host.orders_text(power, {"bogus": 1, "permit": ["nobody"]})
        texts[power] = [good, bad]
        for n, text in enumerate((good, bad)):
            deliver(box, f"{power}-{n}", order_mail(text, msgid=f"<{power}.{n}@example.org>",
                                                    sender=registered(power)))
    report = ingest_maildir(host.root, box, at(3))
    assert sorted(v.verdict for v in report.verdicts) == ["accepted"] * 4 + ["rejected"] * 4
    return host, texts


def test_every_power_got_a_receipt_and_a_rejection(played) -> None:
    host, _ = played
    got = sorted((str(m["To"]), str(m["Subject"]).split("]")[1].split(":")[0].strip())
                 for _, m in queued(host.root))
    assert got == sorted((registered(p), kind) for p in host.powers
                         for kind in ("Orders received", "Orders rejected"))


def test_no_receipt_or_rejection_leaks_another_powers_secrets(played) -> None:
    host, texts = played
    state = host.state()
    secrets = {p: set(AD.secrets(state, p)) for p in host.powers}
    assert any(ESCROW in s for s in secrets["pavo"]), "the escrow blob is a secret"
    alliance = '{"members":["algol","regulus"],"public":false,"since":1}'  # as a view shows it
    assert alliance in secrets["algol"] & secrets["regulus"]
    checked = 0
    for _game, msg in queued(host.root):
        reader = str(msg["To"]).split("@")[0]
        blob = everything_in(msg)
        for other in host.powers:
            if other == reader:
                continue
            for secret in secrets[other] - secrets[reader]:
                assert secret not in blob, (reader, other, secret)
            for (power, _warp, _turn), (star, nonce) in host.vault.items():
                if power != other:
                    continue
                assert nonce not in blob and nonce[:16] not in blob, (reader, other)
                assert not destination_claim(star).search(blob), (reader, other, star)
            for text in texts[other]:
                for line in text.splitlines():
                    if line.startswith(("sig:", "    commitment:")):
                        assert line.split(":", 1)[1].strip() not in blob, (reader, other)
            checked += 1
    assert checked == 8 * 3
