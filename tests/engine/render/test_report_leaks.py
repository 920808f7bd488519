"""No mail tells a player what it may not know.

Whole scripted games (Independents 4 and Wild Alliance 4 with a secret alliance, a secret
proposal and an escrowed departure) are rendered for every power after every round: turn
report, receipt, reminder, welcome and the end-of-game mail is checked apart (it reveals all).
For each mail, its text, HTML and every attachment are searched for the other powers'

* nonces (from the test vault), in hex, whole or as a 16-digit prefix;
* destinations of warps still in hyperspace, phrased as a destination ("to Hamal", "→ Hamal",
  "destination Hamal", "arrive: Hamal") — the stars themselves are on every map;
* secrets (``plugin.secrets``: secret alliances, proposals, escrow blobs) it is not party to;
* private events: the sentence the presenter would write for an event the reader may not see.

The game master's summary is the one mail with every secret.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from pbem import canonical
from pbem.render import mails
from tests.support.ad_driver import AD
from tests.support.report_scenario import (
    ESCROW,
    GAME,
    PLAYERS,
    Round,
    golden_game,
    wild_game,
)

PRES = mails.presenter(AD)


def _blob(mail: mails.RenderedMail) -> str:
    parts = [mail.subject, mail.text, mail.html]
    parts += [data.decode("utf-8") for _, _, data in mail.attachments]
    return "\n".join(parts)


def _destination_claims(star: str) -> re.Pattern[str]:
    words = r"(?:to|towards|bound for|heading for|destination:?|arrive:?|arrives at|->|→)"
    return re.compile(rf"{words}\s+{re.escape(star)}\b", re.IGNORECASE)


def _in_flight(state: dict, power: str, departed: int, key: str) -> bool:
    warp = state["warps"][power].get(key)
    return warp is not None and warp["departed"] == departed


@cache
def games() -> dict[str, list[Round]]:
    return {"independents-4": golden_game()[1], "wild-4": wild_game()[1]}


def _mails_for(power: str, rounds: list[Round]):
    """(label, round, state the mail shows, mail) for every mail this power gets."""
    r = mails.Renderer("4000ad")
    player = PLAYERS[power]
    yield "welcome", rounds[0], rounds[0].before, mails.welcome(
        r, AD, rounds[0].before, [power], player, GAME)
    for i, rd in enumerate(rounds):
        yield f"turn {i + 1}", rd, rd.after, mails.turn_report(
            r, AD, rd.before, rd.after, rd.events, [power], player, GAME)
        if power in rd.orders:
            yield f"receipt {i + 1}", rd, rd.before, mails.receipt(
                r, AD, rd.before, power, rd.orders[power], player, GAME, seq=1)
        if power in AD.powers_due(rd.after):
            yield f"reminder {i + 2}", rd, rd.after, mails.reminder(
                r, AD, rd.after, [power], player, GAME)


CASES = [(g, p) for g in ("independents-4", "wild-4") for p in ("pavo", "antares", "regulus",
                                                                 "algol")]


@pytest.mark.parametrize(("variant", "reader"), CASES)
def test_no_mail_leaks_another_powers_secrets(variant, reader):
    rounds = games()[variant]
    for label, rd, state, mail in _mails_for(reader, rounds):
        blob = _blob(mail)
        where = f"{variant}, {reader}'s {label}"
        # nonces and destinations from every other power's vault
        for (owner, key, departed), (star, nonce) in rd.vault.items():
            if owner == reader:
                continue
            if nonce:
                assert nonce not in blob and nonce[:16] not in blob, f"{where}: nonce"
            if _in_flight(state, owner, departed, key) or _in_flight(rd.after, owner,
                                                                       departed, key):
                found = _destination_claims(star).search(blob)
                assert not found, f"{where}: {owner}'s destination: {found.group(0)!r}"
        # secrets of powers the reader is not party to
        for st in (rd.before, rd.after):
            mine = set(AD.secrets(st, reader))
            for other in st["powers"]:
                for secret in set(AD.secrets(st, other)) - mine:
                    assert secret not in blob, f"{where}: {other}'s secret {secret[:40]}"
        # private events the reader may not see, in any phrasing the presenter has
        hidden = [e for e in rd.events if e not in AD.view_events(rd.events, reader)]
        for e in hidden:
            for voice in ([reader], [], [p for p in e.get("to", [])][:1]):
                text = PRES.sentence(e, PRES.Voice(voice), state["version"])
                assert text not in blob, f"{where}: private event {text!r}"


@pytest.mark.parametrize(("variant", "reader"), CASES)
def test_own_warps_never_claim_a_destination(variant, reader):
    """The referee does not know where a fleet goes: not even its owner's report says it."""
    rounds = games()[variant]
    r = mails.Renderer("4000ad")
    for rd in rounds:
        mail = mails.turn_report(r, AD, rd.before, rd.after, rd.events, [reader],
                                  PLAYERS[reader], GAME)
        blob = _blob(mail)
        for (owner, key, departed), (star, _) in rd.vault.items():
            if owner == reader and _in_flight(rd.after, owner, departed, key):
                assert not _destination_claims(star).search(blob)


def test_the_leak_test_would_catch_a_leak():
    """The checks above find what they look for (a report with a destination and a secret
    pasted in fails them)."""
    rounds = games()["wild-4"]
    rd = rounds[0]
    (owner, key, departed), (star, nonce) = next(
        (k, v) for k, v in rd.vault.items() if k[0] == "pavo")
    assert _in_flight(rd.after, owner, departed, key)
    assert _destination_claims(star).search(f"Pavo's warp {key} is bound for {star}.")
    secrets = AD.secrets(rd.after, "antares")
    assert '["antares","pavo"]' in secrets  # the proposal, as a leaked view would hold it
    leaked = canonical.dumps({"proposals": rd.after["proposals"]})
    assert any(secret in leaked for secret in secrets)
    assert ESCROW in AD.secrets(rd.after, "pavo")


def test_secrets_reach_their_owners_only():
    """Sanity of the scenario: the escrow is in Pavo's own view.json, the secret alliance in
    Algol's and Regulus's reports."""
    rounds = games()["wild-4"]
    rd = rounds[0]
    r = mails.Renderer("4000ad")
    pavo = _blob(mails.turn_report(r, AD, rd.before, rd.after, rd.events, ["pavo"],
                                    PLAYERS["pavo"], GAME))
    assert ESCROW in pavo
    algol = mails.turn_report(r, AD, rd.before, rd.after, rd.events, ["algol"],
                               PLAYERS["algol"], GAME)
    assert "Regulus: allied since turn 1 (secret: only its members know)" in algol.text


@pytest.mark.parametrize("variant", ["independents-4", "wild-4"])
def test_gm_summary_is_the_one_mail_with_everything(variant):
    r = mails.Renderer("4000ad")
    for rd in games()[variant]:
        mail = mails.gm_summary(r, AD, rd.before, rd.after, rd.events, GAME)
        blob = _blob(mail)
        for power in rd.after["powers"]:
            for secret in AD.secrets(rd.after, power):
                assert secret in blob
        flat = re.sub(r"\s+", " ", mail.text)
        for e in rd.events:
            text = PRES.sentence(e, PRES.Voice([]), rd.after["version"])
            if "_visible_to" in e:
                text += " [private to"
            assert text in flat, text


def test_game_end_reveals_every_destination_and_nonce():
    from tests.support.report_scenario import reveal

    t, rounds = golden_game()
    end = AD.end_game(t.state, "ended by agreement")
    mail = mails.game_end(mails.Renderer("4000ad"), AD, end.state, end.events, ["pavo"],
                           PLAYERS["pavo"], GAME, reveal(rounds))
    blob = _blob(mail)
    for item in reveal(rounds):
        assert f"-> {item['destination']}" in mail.text.replace("\n    ", " ")
        assert item["nonce"] in blob
