"""Who is mailed after a step (pbem.host.mailpolicy): a window's ``notify`` and each power's
digest pace, decided by the real turn job and recorded in the resolve entry, on the relay toy
(tests/games/relay: baton legs with ``notify="due"``)."""

from __future__ import annotations

from typing import Any

from pbem.game.events import private
from pbem.game.plugin import Window
from pbem.host import mailpolicy
from tests.support.pbem_host import Host
from tests.support.relay_legs import six_legs


def _played(tmp_path: Any) -> tuple[Host, list[dict[str, Any]]]:
    """Six baton legs, each runner sending his pace; a day passes before leg 4."""
    host = six_legs(tmp_path, "relay-2")
    return host, [e.body for e in host.entries("resolve")]


def test_each_power_gets_what_its_pace_and_the_window_say(tmp_path) -> None:
    host, bodies = _played(tmp_path)
    said = [b[mailpolicy.MAILED] for b in bodies]
    # the next runner (green, blue, red, green, blue, red) is always mailed
    for leg, mailed in enumerate(said, start=1):
        nxt = host.plugin.powers_due({**host.state(), "turn": leg + 1, "result": None})[0]
        assert mailed[nxt] in (mailpolicy.REPORT, mailpolicy.DIGEST), (leg, mailed)
    assert {m["blue"] for m in said} <= {mailpolicy.REPORT, mailpolicy.DIGEST}  # every step
    assert said[0]["green"] == mailpolicy.REPORT and said[1]["green"] == mailpolicy.LATER
    assert said[2]["green"] == mailpolicy.LATER and said[3]["green"] == mailpolicy.DIGEST
    assert said[0]["red"] == said[1]["red"] == mailpolicy.LATER
    assert said[2]["red"] == mailpolicy.DIGEST  # due at leg 4: legs 1 and 2 were not mailed
    assert said[3]["red"] == mailpolicy.DIGEST  # not named, but a day after his last mail
    assert said[4]["red"] == mailpolicy.LATER  # and then not again the same day


def test_a_player_not_mailed_gets_no_report_and_a_digest_lists_what_he_missed(tmp_path) -> None:
    host, bodies = _played(tmp_path)
    green = [str(m["Subject"]) for m in host.sent("green@example.org")
             if "report" in str(m["Subject"])]
    assert len(green) == sum(b[mailpolicy.MAILED]["green"] != mailpolicy.LATER for b in bodies)
    digest = next(m for m in host.sent("green@example.org") if "Turn 4 report" in str(
        m["Subject"]))
    body = digest.get_body(("plain",))
    assert body is not None
    text = str(body.get_content())
    assert "SINCE YOUR LAST MAIL" in text
    assert "Step 2: Green ran at pace 2 on leg 2." in text
    assert "Step 3: Blue ran at pace 2 on leg 3." in text
    assert "SPLIT-blue" not in text and "Green's split on leg 2" in text


def test_touched_names_the_next_due_and_every_power_an_event_names() -> None:
    window = Window("vote", "A vote", ("red",), notify="touched")
    events = [{"type": "said", "power": "green"}, private({"type": "note"}, "blue"),
              {"type": "public"}]
    assert mailpolicy.named(window, events, ["red"]) == {"red", "green", "blue"}
    due = Window("vote", "A vote", ("red",), notify="due")
    assert mailpolicy.named(due, events, ["red"]) == {"red"}
