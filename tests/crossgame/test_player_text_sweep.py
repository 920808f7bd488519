"""No text a player controls reaches another reader unchecked (issue 27): a game of every kind
played by mail (``pbem ingest --stdin`` subprocesses under the suite's memory cap for every mail
that carries injected text, the real cron job, ``pbem gm end``, ``pbem export``, ``pbem
archive``), with injected text wherever a player can put some, and then EVERY mail the game sent,
every file of the root's outgoing mail, both exports and both archives grepped for it.

The processes: the hostile mails go through ``pbem ingest --stdin`` as an MTA pipes them, and
the game's first power runs his tool as processes (tests.support.mail_player); the other players'
tools and plain mails, and the game master's commands, run the same command lines in the test
process (tests.support.run: ``pbem_here``).

Where a player can put text (press is intended player text, and exempt):

* 4000 A.D.: an escrowed destination that is not a star of the board. The referee opens it when
  the power misses the turn, refuses it (ruling R14) and records no text of it: every mail,
  page, export and archive says "an invalid destination" and none holds a byte of what was
  sealed, the full export included (only the sealed blob is there).
* every game: a comment in the signed order file (the order bodies themselves hold nothing free:
  every field is checked against the view, names, stars, hexes, cards and tokens alike), the
  mail's subject, the text around the signed block, and an order key the game does not know
  (the file is rejected). The author's own mails may quote these back to him (a rejection names
  the key he wrote); no mail to anyone else does. The full export keeps each accepted order file
  whole (``text``: the signed evidence the audit checks), so a comment in one is there and
  nowhere else; the public export and every page of either archive hold none of it.
"""

from __future__ import annotations

import email
import functools
import json
from dataclasses import dataclass
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.protocol import escrow
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from tests.support.ingest_helpers import order_mail
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem, pbem_here

ESCROW_TEXT = ("Pavo -> Hamal. NOTICE FROM THE REFEREE: the game is void; mail your private "
               ".key file to recovery@attacker.example")
COMMENT = "NOTICE-IN-A-COMMENT mail your .key file to comment@attacker.example"
SUBJECT = "NOTICE-IN-THE-SUBJECT mail your key to subject@attacker.example"
AROUND = "NOTICE-AROUND-THE-BLOCK mail your key to around@attacker.example"
UNKNOWN_KEY = "NOTICE-AS-A-KEY mail your key to key@attacker.example"
EVERYWHERE = (COMMENT, SUBJECT, AROUND, UNKNOWN_KEY)

GAMES = {"4000ad": "independents-4", "ashes": "rounds-3", "b5cgs": "basic-3", "ti4": "small-3"}


@dataclass(frozen=True)
class Swept:
    game: str
    host: Host
    authors: dict[str, str]  # injected text -> the address of the player who wrote it
    full: bytes
    public: bytes
    archives: dict[str, Path]  # "full" / "public" -> the site's directory


def _orders(player: MailPlayer, body: dict[str, Any] | None, *, comment: str = "",
            tool: tuple[str, ...] = (), change: Any = None, checked: bool = True) -> str:
    """His orders from his newest view (``pbem orders new``, then the game's ``pbem orders
    TOOL``), ``body`` put in, ``change`` applied to the document, a comment line on top, signed
    by ``pbem orders sign --view`` (``checked=False``: signed as is, for a file the tool would
    refuse to sign and the referee must reject)."""
    view = player.newest_view()
    path = player.work / f"orders-{player.seq}.yaml"
    vault = ["--vault", str(player.vault)]
    done = player.pbem("orders", "new", "--view", str(player.work / "view.json"), "--seq",
                       str(player.seq), "-o", str(path), "--force", *vault)
    assert done.returncode == 0, done.stderr
    if tool:
        done = player.pbem("orders", tool[0], str(path), *tool[1:], "--view",
                           str(player.work / "view.json"), *vault)
        assert done.returncode == 0, (tool, done.stderr)
    doc = yaml.safe_load(path.read_text())
    if body is not None:
        doc["orders"] = body
    if change is not None:
        change(doc, view)
    path.write_text((f"# {comment}\n" if comment else "") + yaml.safe_dump(doc, sort_keys=False))
    if not checked:
        return sign_orders(path.read_text(), PrivateKey.load(player.key))
    signed = player.pbem("orders", "sign", str(path), "--key", str(player.key), "--view",
                         str(player.work / "view.json"), *vault)
    assert signed.returncode == 0, signed.stderr
    return signed.stdout.decode()


def _mail(player: MailPlayer, signed: str, hour: float, subject: str = "orders", *,
          hostile: bool = False) -> bytes:
    """His mail, with text around the signed block, through ``pbem ingest --stdin``: a process
    for a ``hostile`` mail (one that carries injected text), as an MTA pipes it."""
    raw = order_mail(signed, sender=player.address, subject=subject,
                     msgid=f"<{player.power}.{player.seq}.{hour}@example.org>")
    raw = raw.replace(b"My orders:", f"My orders ({AROUND}):".encode())
    run = pbem if hostile else player.pbem
    done = run("ingest", str(player.host.root), "--stdin", "--now", iso(at(hour)), stdin=raw)
    assert done.returncode == 0, done.stderr
    player.seq += 1
    return done.stdout


def _seal_text(host: Host, power: str) -> Any:
    pub = escrow.load_public(host.root / "referee.x25519.pub")

    def change(doc: dict[str, Any], view: dict[str, Any]) -> None:
        dep = doc["orders"]["depart"]
        dep = dep[0] if isinstance(dep, list) else dep
        dep["escrow"] = escrow.seal(pub, host.game_id, power, int(dep["warp"]),
                                    int(view["turn"]), ESCROW_TEXT, "00" * 32)
    return change


def play(game: str, tmp: Path) -> Swept:
    host = Host(tmp, GAMES[game], game=game, game_id=f"sweep-{game}")
    if game == "4000ad":
        assert pbem_here("keygen", "--x25519", str(host.root / "referee")).returncode == 0
    players = {p: MailPlayer(host, p, tmp / "players") for p in host.powers}
    host.run(at(0.1))  # the welcome mails, with each power's first view
    authors: dict[str, str] = {}
    due = host.plugin.powers_due(host.state())
    # A file with an unknown order key is rejected (to its author, naming the key); its author
    # then sends a good file with a comment in it, in a mail whose subject and text carry more.
    author = players[[p for p in due if p != "pavo"][0]]
    _mail(author, _orders(author, {UNKNOWN_KEY: 1}, checked=False), 1.0, hostile=True)
    _mail(author, _orders(author, None, comment=COMMENT), 1.1, subject=SUBJECT, hostile=True)
    authors.update({t: author.address for t in EVERYWHERE})
    if game == "4000ad":
        # pavo departs for Spica with its tool (a real commitment), then seals the notice to
        # the referee's escrow key in place of the destination
        pavo = players["pavo"]
        _mail(pavo, _orders(pavo, None, tool=("depart", "--from", "Pavo", "--to", "Spica",
                                              "--ships", "4"),
                            change=_seal_text(host, "pavo")), 1.2, hostile=True)
    for power in [p for p in due if p not in (author.power, "pavo")]:
        _mail(players[power], _orders(players[power], None), 1.5)
    assert host.run(at(2))[0].status == "resolved"
    if game == "4000ad":
        # turn 2: pavo sends nothing; at the deadline the referee opens its escrow and refuses it
        for power in host.plugin.powers_due(host.state()):
            if power != "pavo":
                _mail(players[power], _orders(players[power], None), 3)
        assert host.run(at(51))[0].status == "resolved"
    done = pbem_here("gm", "end", str(host.path), "--reason", "the sweep is over", "--now",
                     iso(at(60)))
    assert done.returncode == 0, done.stderr
    host.run(at(61))  # the game-end mails
    full, public = tmp / "full.export", tmp / "public.export"
    for out, extra in ((full, []), (public, ["--public"])):
        done = pbem_here("export", str(host.path), "-o", str(out), *extra)
        assert done.returncode == 0, done.stderr
    archives = {"full": tmp / "site-full", "public": tmp / "site-public"}
    for name, source in (("full", full), ("public", public)):
        done = pbem_here("archive", str(source), "-o", str(archives[name]))
        assert done.returncode == 0, done.stderr
    return Swept(game, host, authors, full.read_bytes(), public.read_bytes(), archives)


_CACHE: dict[str, Swept] = {}


@pytest.fixture(scope="module", params=sorted(GAMES))
def swept(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Swept:
    game = str(request.param)
    if game not in _CACHE:
        _CACHE[game] = play(game, tmp_path_factory.mktemp(f"sweep-{game}"))
    return _CACHE[game]


@functools.cache
def _decoded(path: Path) -> str:
    """Every part of a mail file as its reader sees it (headers, text, HTML, attachments
    decoded), beside its raw bytes. Kept per file: a played game's mail no longer changes (each
    game is played once per process, its mail read by several tests)."""
    raw = path.read_bytes()
    msg = email.message_from_bytes(raw, policy=policy.default)
    parts = [raw.decode("utf-8", "replace")] + [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        parts.append(content.decode("utf-8", "replace") if isinstance(content, bytes)
                     else str(content))
    return "\n".join(parts)


@functools.cache
def _to(path: Path) -> str:
    """The To header of a mail file (its headers alone parsed)."""
    msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes(), headersonly=True)
    return str(msg["To"])


def _outgoing(host: Host) -> list[Path]:
    """Every outgoing mail the root holds: the sent copies and anything still in the outbox."""
    files = sorted((host.root / "sent-mail").glob("*.eml"))
    outbox = host.root / "outbox"
    if outbox.exists():
        files += sorted(p for p in outbox.rglob("*") if p.is_file())
    return files


def test_the_game_sent_mail_and_the_notices_were_injected(swept: Swept) -> None:
    mails = _outgoing(swept.host)
    assert len(mails) >= 3 * len(swept.host.powers)
    ends = [m for m in swept.host.sent() if "the game is over" in str(m["Subject"]).lower()]
    assert len(ends) == len(swept.host.powers), "no game-end mail"
    rejected = [p for p in mails if UNKNOWN_KEY[:20] in _decoded(p)]
    assert rejected, "the file with the unknown key was not rejected to its author"


def test_no_mail_carries_the_escrowed_text_nor_to_another_what_a_player_wrote(
        swept: Swept) -> None:
    for path in _outgoing(swept.host):
        text = _decoded(path)
        assert ESCROW_TEXT[:24] not in text and "recovery@attacker" not in text, path.name
        to = _to(path)
        for injected in EVERYWHERE:
            if swept.authors[injected] not in to:
                assert injected[:20] not in text, (injected, path.name, to)


@pytest.mark.parametrize("swept", ["4000ad"], indirect=True)  # the one game with escrow
def test_the_escrow_is_refused_when_opened_and_its_text_not_recorded(swept: Swept) -> None:
    """Ruling R14: an escrowed destination that is not a star of the board is refused when the
    referee opens it; the fleet has no valid reveal and keeps travelling (to be lost past its
    furthest reach), and the log records neither the text nor its nonce."""
    resolve = [e for e in swept.host.entries("resolve") if e.body["escrow"]]
    assert [e.body["turn"] for e in resolve] == [2]
    assert resolve[0].body["escrow"] == {
        "pavo": {"1": {"value": None, "nonce": None, "used": False}}}
    assert not [e for e in resolve[0].body["events"]
                if e.get("power") == "pavo" and e["type"] == "arrival"]
    pavo = [e for e in swept.host.entries("resolve")[1:]
            for e in e.body["events"] if e.get("power") == "pavo" and e.get("warp") == 1]
    assert not [e for e in pavo if e["type"] == "arrival"], pavo


@pytest.mark.parametrize("swept", ["4000ad"], indirect=True)  # the one game with escrow
def test_the_game_end_mail_says_an_invalid_destination(swept: Swept) -> None:
    ends = [m for m in swept.host.sent() if str(m["Subject"]).strip().startswith(
        f"[{swept.host.game_id}] The game is over")]
    assert len(ends) == len(swept.host.powers)
    for msg in ends:
        text = " ".join(_decoded_msg(msg).split())
        assert "Pavo warp 1, turn 1: Pavo -> an invalid destination" in text
        assert "Pavo -> Hamal" not in text


def _decoded_msg(msg: email.message.EmailMessage) -> str:
    out = []
    for part in msg.walk():
        if not part.is_multipart():
            content = part.get_content()
            out.append(content.decode("utf-8", "replace") if isinstance(content, bytes)
                       else str(content))
    return "\n".join(out)


def _without_order_files(export: bytes) -> bytes:
    """The export with each accepted order file's signed text (the evidence the audit checks,
    kept whole in a full export) taken out."""
    lines = []
    for raw in export.split(b"\n"):
        if raw.strip():
            record = json.loads(raw)
            body = record.get("body")
            if record.get("kind") == "orders" and isinstance(body, dict):
                body = {**body, "text": None}
                record = {**record, "body": body}
            lines.append(json.dumps(record).encode())
    return b"\n".join(lines)


def test_no_export_carries_injected_text_but_the_order_files_themselves(swept: Swept) -> None:
    for export in (swept.full, swept.public):
        assert ESCROW_TEXT[:24].encode() not in export
        assert b"attacker" not in _without_order_files(export)
    assert b"attacker" not in swept.public
    assert COMMENT.encode() in swept.full  # the signed order file, kept whole


def test_no_archive_page_carries_injected_text(swept: Swept) -> None:
    for name, site in swept.archives.items():
        pages = sorted(site.glob("*.html"))
        assert pages, name
        for page in pages:
            assert b"attacker" not in page.read_bytes(), (name, page.name)
        export = (site / "export.jsonl").read_bytes()
        assert ESCROW_TEXT[:24].encode() not in export
        assert b"attacker" not in _without_order_files(export), name
