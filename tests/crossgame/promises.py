"""What pbem promises a player or game master, each checked the same way for any game, from a
:class:`tests.crossgame.support.Played` alone. A broken promise raises :class:`Broken`, whose
message starts ``promise "NAME" broken by GAME:`` so a failing game is named with what it
broke. tests/crossgame/test_promises.py runs each check for every game; test_omitted_promise.py
proves a game that omits a promise fails its check by name.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

from pbem.game import registry
from tests.crossgame.support import (
    EXTEND_STEP,
    REPO,
    Mail,
    Played,
    attachment,
    everything,
    parts,
    utc_words,
)
from tests.support.browser import console_problems, url_of

#: An event written as a generic dump (``battle: attacker_dice=[4, 5]``) instead of a sentence.
GENERIC_EVENT = re.compile(r"<li>[a-z_]+: [a-z_]+=")
#: What a mail sent after the game ended must not say.
REPLY_PROMPT = "Reply with your signed orders"


class Broken(AssertionError):
    """A promise a game does not keep."""


def expect(ok: object, p: Played, promise: str, detail: str) -> None:
    if not ok:
        raise Broken(f'promise "{promise}" broken by {p.game}: {detail}')


def named(power: str, text: str) -> bool:
    """Whether ``text`` names ``power`` (``earth-alliance`` as "Earth Alliance" too)."""
    def norm(s: str) -> str:
        return re.sub(r"[\s-]+", " ", s.lower())
    return norm(power) in norm(text)


def section(text: str, heading: str) -> bool:
    """A text part's section heading: a line of its own."""
    return re.search(rf"^{re.escape(heading)}\s*$", text, re.MULTILINE) is not None


def html_heading(html: str, heading: str) -> bool:
    return re.search(rf">\s*{re.escape(heading)}\s*</h[1-6]>", unescape(html),
                     re.IGNORECASE) is not None


def reports(p: Played) -> list[Mail]:
    """Every turn report to a player: a mail of a run carrying his view."""
    return [m for m in p.to_players() if m.moment != "welcome" and m.has_view()]


def summaries(p: Played) -> list[Mail]:
    """Every game master's summary (the mail with the whole state attached)."""
    return [m for m in p.to_gm() if attachment(m.msg, "state.json") is not None]


# -- 1 ---------------------------------------------------------------------------------------
def welcome(p: Played) -> None:
    name = "pbem new and the welcome mail"
    expect(p.new is not None and p.new.returncode == 0, p, name,
           f"pbem new failed: {p.new.stderr.decode() if p.new else 'not run'}")
    title = p.plugin.title
    for power in p.powers:
        got = [m for m in p.to(power) if m.moment == "welcome"]
        expect(len(got) == 1, p, name, f"{power} got {len(got)} welcome mails, not 1")
        text, html = parts(got[0].msg)
        expect(text and html, p, name, f"{power}'s welcome lacks a text or an HTML part")
        expect(got[0].deadline, p, name, "the new game has no deadline")
        when = utc_words(str(got[0].deadline))
        for part, body in (("text", text), ("HTML", unescape(html))):
            expect(p.game_id in body, p, name, f"{power}'s welcome {part} part does not name "
                   f"the game {p.game_id}")
            expect(title in body, p, name, f"{power}'s welcome {part} part does not say it is "
                   f"{title}")
            expect(when in body, p, name, f"{power}'s welcome {part} part does not give the "
                   f"deadline {when}")
            flat = " ".join(body.split())
            mine = f"{power.replace('_', ' ').capitalize()}: reminder "
            expect(mine in flat and "tell when due" in flat and "pbem vote prefs" in flat, p,
                   name, f"{power}'s welcome {part} part has no settings line (reminder, quiet "
                   "hours and zone, digest, tell when due) and how to change them")


# -- 2 ---------------------------------------------------------------------------------------
def players_tool(p: Played) -> None:
    name = "the player's tool"
    expect(p.tool_power is not None, p, name, "no player used the tool: the adapter's edits "
           "gave no player anything to write in the whole game")
    assert p.tool_view is not None
    words = [cmd[1] for cmd, _ in p.tool]
    expect(words[0] == "new" and words[-2:] == ["check", "sign"], p, name,
           f"the tool ran {words}, not new ... check, sign")
    edits = [w for w in words if w not in ("new", "check", "sign")]
    expect(edits or p.plugin.tool is None, p, name, "no edit command of the game's tool was used")
    expect(p.tool[0][0][3] == str(p.tool_view) and p.tool_view.suffix == ".eml", p, name,
           "pbem orders new was not given the saved mail as its view")
    for cmd, done in p.tool:
        expect(done.returncode == 0, p, name,
               f"pbem {' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()}")
    expect(p.tool[-2][1].stdout == b"ok\n", p, name,
           f"pbem orders check printed {p.tool[-2][1].stdout!r}, not ok")
    signed = Path(p.tool[-1][0][p.tool[-1][0].index("-o") + 1]).read_text()
    expect("BEGIN" in signed and "SIGNATURE" in signed.upper(), p, name,
           "pbem orders sign wrote no signed block")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    doc, where = (readme, "README.md") if (REPO / "games") in p.plugin_dir().parents else (
        (REPO / "docs" / "plugins.md").read_text(encoding="utf-8"), "docs/plugins.md")
    for line in ("pbem orders new --view", "pbem orders check", "pbem orders sign"):
        expect(line in readme, p, name, f"README.md no longer tells a player {line!r}")
    for edit in edits:
        expect(f"pbem orders {edit}" in doc, p, name,
               f"{where} never tells a player of this game to use `pbem orders {edit}`")


# -- 3 ---------------------------------------------------------------------------------------
def orders_by_mail(p: Played) -> None:
    name = "orders by mail, a receipt back"
    done = p.stdin
    expect(done is not None and done.returncode == 0, p, name,
           f"pbem ingest --stdin failed: {done.stderr.decode() if done else 'not run'}")
    assert done is not None and p.tool_power is not None
    out = done.stdout.decode()
    expect(f"accepted: {p.game_id}/{p.tool_power}" in out, p, name,
           f"pbem ingest --stdin did not accept the mail: {out}")
    later = [m for m in p.to(p.tool_power) if m.step == p.tool_step
             and "Orders received" in m.subject]
    expect(later, p, name, f"{p.tool_power} got no receipt for his mailed orders")
    text, html = parts(later[0].msg)
    expect(text and html, p, name, "the receipt lacks a text or an HTML part")
    for m in p.mails:
        if "Orders received" in m.subject:
            expect(m.to != "gm@example.org" and m.to.split("@")[0] in p.powers, p, name,
                   f"a receipt went to {m.to}, not to the power's registered address")


# -- 5 ---------------------------------------------------------------------------------------
def missed_turn(p: Played) -> None:
    name = "a missed turn in the report and the GM summary"
    expect(p.missed is not None, p, name, "no player missed a turn (the game ended first?)")
    assert p.missed is not None
    report = [m for m in reports(p) if m.to.startswith(p.missed + "@")
              and m.step == p.missed_step]
    expect(report, p, name, f"{p.missed} got no report after the turn he missed")
    text, html = parts(report[0].msg)
    expect(section(text, "MISSED TURN"), p, name,
           f"{p.missed}'s report has no MISSED TURN section in its text part")
    expect(html_heading(html, "Missed turn"), p, name,
           f"{p.missed}'s report has no 'Missed turn' heading in its HTML part")
    summary = [m for m in summaries(p) if m.step == p.missed_step]
    expect(summary, p, name, "the game master got no summary of the missed turn")
    text, html = parts(summary[0].msg)
    expect(section(text, "MISSED THIS TURN"), p, name,
           "the GM summary has no MISSED THIS TURN section in its text part")
    expect(html_heading(html, "Missed this turn"), p, name,
           "the GM summary has no 'Missed this turn' heading in its HTML part")
    block = text.split("MISSED THIS TURN", 1)[1].split("\n\n", 1)[0]
    expect(named(p.missed, block), p, name, f"the GM summary's missed section does not name "
           f"{p.missed}: {block.strip()!r}")


def gm_voice(p: Played) -> None:
    """The game master reads a private event as whose it was: a line of his summary marked
    private never speaks to him as the player ("You were dealt ...")."""
    name = "the GM summary names whose private event it was"
    for summary in summaries(p):
        text, _html = parts(summary.msg)
        for line in text.splitlines():
            if "[private" in line:
                expect(not re.match(r"\s*-?\s*(You|Your)\b", line), p, name,
                       f"the GM summary of step {summary.step} says {line.strip()!r}")


# -- 12 --------------------------------------------------------------------------------------
#: gm status's size line (pbem.host.retention.status_lines): the root, its sent and handled mail.
DISK_LINE = re.compile(r"disk: the root (?P<root>\S+) holds (?P<total>[0-9.]+ \w+); of it sent "
                       r"mail (?P<sent>[0-9.]+ \w+) \(every game's outbox/sent\), handled mail "
                       r"(?P<handled>[0-9.]+ \w+) \(inbox/handled\)")


def _size(text: str) -> float:
    number, unit = text.split()
    return float(number) * 1024 ** ["bytes", "KB", "MB", "GB"].index(unit)


def gm_status_size(p: Played) -> None:
    """``pbem gm status`` tells the game master how much disk the root holds, and how much of
    it is the sent mail and the handled mail that retention prunes; a played game has both."""
    name = "gm status shows the root's size"
    done = subprocess.run([sys.executable, "-m", "pbem", "gm", "status", str(p.path)],
                          capture_output=True, text=True, cwd=REPO, check=False, timeout=120)
    expect(done.returncode == 0, p, name, f"pbem gm status failed: {done.stderr[-300:]}")
    found = DISK_LINE.search(done.stdout)
    expect(found, p, name, f"no size line in {done.stdout!r}")
    assert found is not None
    total, sent, handled = (_size(found[k]) for k in ("total", "sent", "handled"))
    expect(found["root"] == str(p.root), p, name, f"the line names {found['root']}")
    expect(0 < sent < total and 0 < handled < total, p, name,
           f"sizes {found['total']}, sent {found['sent']}, handled {found['handled']}")


# -- 6 ---------------------------------------------------------------------------------------
def gm_notice(p: Played) -> None:
    name = "a game master's operation in the next report"
    expect(p.extend is not None and p.extend.returncode == 0, p, name,
           f"pbem gm extend failed: {p.extend.stderr.decode() if p.extend else 'not run'}")
    for power in p.powers:
        notice = [m for m in p.to(power) if m.moment == "gm extend" or (
            m.step == EXTEND_STEP and "New deadline" in m.subject)]
        expect(notice, p, name, f"{power} got no notice of the new deadline")
        nxt = [m for m in reports(p) if m.to.startswith(power + "@") and m.step == EXTEND_STEP]
        expect(nxt, p, name, f"{power} got no report after the game master's operation")
        text, html = parts(nxt[0].msg)
        expect(section(text, "GAME MASTER NOTICES"), p, name,
               f"{power}'s next report has no GAME MASTER NOTICES section in its text part")
        expect(html_heading(html, "Game master notices"), p, name,
               f"{power}'s next report has no 'Game master notices' heading in its HTML part")
        block = text.split("GAME MASTER NOTICES", 1)[1].split("\n\n", 1)[0]
        expect("deadline" in block, p, name,
               f"{power}'s notices do not tell of the moved deadline: {block.strip()!r}")


# -- 7 ---------------------------------------------------------------------------------------
def deadlines(p: Played) -> None:
    name = "the deadline in both parts of every report"
    due = [m for m in reports(p) if m.deadline and not p.plugin.is_over(m.state)]
    expect(due, p, name, "no report with orders due was sent")
    for m in due:
        when = utc_words(str(m.deadline))
        text, html = parts(m.msg)
        expect(when in text, p, name, f"{m.to}'s report of step {m.step} lacks the deadline "
               f"{when} in its text part")
        expect(when in unescape(html), p, name, f"{m.to}'s report of step {m.step} lacks the "
               f"deadline {when} in its HTML part")


# -- 8 ---------------------------------------------------------------------------------------
def game_end(p: Played) -> None:
    """Every mail sent once the game is over (not a receipt written before the end and
    delivered with the last reports) tells the end without asking for orders."""
    name = "the end of the game, with consistent notices"
    final = [m for m in p.to_players()
             if p.plugin.is_over(m.state) and "Orders received" not in m.subject]
    for power in p.powers:
        expect([m for m in final if m.to.startswith(power + "@")], p, name,
               f"{power} got no mail telling that the game is over")
    for m in final:
        expect(REPLY_PROMPT not in everything(m.msg), p, name,
               f"{m.to}'s mail {m.subject!r}, sent after the end, says {REPLY_PROMPT!r}")
        if p.ended_by_gm and "ended the game" in m.subject:
            expect("follows" not in everything(m.msg), p, name, f"the game master's end "
                   f"notice to {m.to} says the final report 'follows': it came first")
    if p.ended_by_gm:
        expect([m for m in final if "ended the game" in m.subject], p, name,
               "no notice told the players that the game master ended the game")


# -- 9 ---------------------------------------------------------------------------------------
def audit(p: Played) -> None:
    name = "export and audit"
    done = p.audit
    expect(done is not None and done.returncode == 0 and b"audit passed" in done.stdout,
           p, name, f"pbem audit failed: {done.stderr.decode() if done else 'not run'}")
    assert p.export is not None
    header = json.loads(p.export.read_text().splitlines()[0])
    expect(header, p, name, "the export is empty")


def archive_pages(p: Played) -> Iterator[Path]:
    assert p.archive is not None
    yield p.archive / "index.html"
    yield from sorted(p.archive.glob("step-*.html"))


def archive(p: Played) -> None:
    """Every step page of the finished game's full archive: a state shown (the game's map or
    the public view's tables), the events as sentences, never the public-export banner."""
    name = "the archive of the finished game"
    steps = sorted(p.archive.glob("step-*.html")) if p.archive else []
    expect(len(steps) >= p.steps, p, name, f"{len(steps)} step pages for {p.steps} steps")
    for page in steps:
        html = unescape(page.read_text(encoding="utf-8"))
        expect("<svg" in html or "<table" in html, p, name,
               f"{page.name} shows no state (no map, no table)")
        expect("not in this export" not in html and "is withheld" not in html, p, name,
               f"{page.name} of the full export of a finished game withholds its state")
        found = GENERIC_EVENT.search(html)
        expect(found is None, p, name,
               f"{page.name} writes an event as a dump: {found.group(0) if found else ''}")


# -- 10 --------------------------------------------------------------------------------------
def leaks(p: Played) -> int:
    """No mail to a player, nor the public export or its archive, holds another power's
    secret or the referee's; the number of (secret, mail) pairs checked."""
    name = "the leak sweep"
    checked = 0
    plugin = p.plugin
    for m in p.to_players():
        reader = m.to.split("@")[0]
        blob = everything(m.msg)
        # (the sweep checks each mail against the state it was sent from)
        mine = set(plugin.secrets(m.state, reader))
        for other in p.powers:
            if other == reader:
                continue
            for secret in set(plugin.secrets(m.state, other)) - mine:
                checked += 1
                expect(secret not in blob, p, name, f"{reader}'s mail {m.subject!r} holds "
                       f"{other}'s secret {secret[:60]!r}")
        for secret in plugin.hidden(m.state):
            checked += 1
            expect(secret not in blob, p, name,
                   f"{reader}'s mail {m.subject!r} holds the referee's secret {secret[:60]!r}")
    assert p.public_export is not None and p.public_archive is not None
    secrets = {s for v in p.public_secrets.values() for s in v} | set(p.public_hidden)
    published = [p.public_export, *sorted(p.public_archive.rglob("*.html")),
                 *sorted(p.public_archive.rglob("*.jsonl"))]
    for path in published:
        blob = path.read_text(encoding="utf-8", errors="replace")
        for secret in secrets:
            checked += 1
            expect(secret not in blob, p, name,
                   f"the public {path.name} holds the secret {secret[:60]!r}")
    hidden = registry.information(p.game) == "hidden"  # else nothing is secret at rest
    expect(checked or not hidden, p, name, "no secret to look for: the adapter must play a "
           "variant in which some power holds a secret (plugin.secrets) or the referee does "
           "(plugin.hidden)")
    return checked


def archive_in_browser(p: Played, driver: Any) -> int:
    """The archive's index and every step page open in Chromium without a console warning or
    error, each showing a picture or a table; the number of pages opened."""
    name = "the archive in a browser"
    opened = 0
    for page in archive_pages(p):
        driver.get(url_of(page))
        shown = driver.execute_script(
            "return document.querySelectorAll('main svg, main table').length")
        problems = console_problems(driver)
        expect(not problems, p, name, f"{page.name}: {problems[:3]}")
        if page.name != "index.html":
            expect(shown, p, name, f"{page.name} shows no picture and no table in Chromium")
        opened += 1
    return opened
