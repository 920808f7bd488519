"""The kit of the scripted demos (``make demo GAME=<game>``), which a game's ``demo.py`` may import.

Each game plays its own scripted demo by email in ``games/<package>/demo.py`` (a ``main() ->
int``), built from this kit: ``run`` prints and runs a pbem command as the person who types it,
``start_game`` makes the keys, the game and its welcome mails and returns the ``Table`` the rest
is played on (each player's orders, written with ``pbem orders new`` and the game's own order
command, checked, signed and mailed: ``Table.orders``; the referee's cron job: ``Table.cron``;
the ending, the export, its audit and the last lines: ``Table.finish``), ``latest_view`` saves
the view.json attached to a player's newest mail, ``mail_orders`` drops a signed order file
into the referee's Maildir as a player's mail would arrive, ``copy_report`` copies the newest
report out of the outbox with its HTML part beside it. Everything is real: keys, signatures,
the referee's cron job (``pbem ingest`` + ``pbem run``), the export and its audit.

A game imports only ``pbem.game``, ``pbem.protocol`` and ``pbem.errors``, so the command line
``run`` calls is handed in from above: ``python -m pbem.cli.demo GAME`` installs it
(:func:`use_command_line`) and then calls the game's ``demo.main()``.
"""

from __future__ import annotations

import email
import email.utils
import json
import os
import shlex
import shutil
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

#: The command line ``run`` calls (``pbem.cli.main.main``), installed by pbem.cli.demo.
_command_line: list[Callable[[list[str]], int]] = []


def use_command_line(main: Callable[[list[str]], int]) -> None:
    """Install the command line ``run`` calls (pbem.cli.demo does, before a game's demo)."""
    _command_line[:] = [main]


def pbem(argv: list[str]) -> int:
    """Run ``pbem ARGV`` with the installed command line."""
    if not _command_line:
        raise SystemExit("demo: no command line installed: run the demo with "
                         "`python -m pbem.cli.demo GAME` (make demo GAME=...)")
    return _command_line[0](argv)


OUT = Path("demo-output")
T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def when(hours: float) -> str:
    return (T0 + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


def say(who: str, text: str) -> None:
    """One step, as the person who does it would type or do it."""
    print(f"{who}$ {text}" if who else f"$ {text}", flush=True)


def run(*args: str, who: str = "referee") -> None:
    say(who, "pbem " + shlex.join(args))
    code = pbem(list(args))
    if code != 0:
        raise SystemExit(f"demo: pbem {' '.join(args)} failed with exit code {code}")


#: Per games root: the sent mails read so far (by file name) and each player's newest mail
#: with a view.json (date, view, raw mail). A sent mail is written once and never changed, so
#: :func:`latest_view` reads each one once however often it is called.
_SEEN: dict[Path, tuple[set[str], dict[str, tuple[datetime, bytes, bytes]]]] = {}


def latest_view(root: Path, power: str) -> Path:
    """The view.json attached to the newest mail the player got (welcome or turn report);
    the mail itself is saved beside it as ``report.eml`` (:func:`latest_mail`), which is what
    a player passes to ``pbem orders sign --view``: its signed checkpoint lets the tool reveal
    his chance value for a step past the next one."""
    read, newest = _SEEN.setdefault(root, (set(), {}))
    for path in sorted((root / "sent-mail").glob("*.eml")):
        if path.name in read:
            continue
        read.add(path.name)
        raw = path.read_bytes()
        msg = email.message_from_bytes(raw, policy=policy.default)
        for part in msg.iter_attachments():
            if part.get_filename() == "view.json":
                found = (email.utils.parsedate_to_datetime(str(msg["Date"])),
                         bytes(part.get_payload(decode=True)), raw)
                for _, address in email.utils.getaddresses([str(msg["To"])]):
                    who = address.split("@")[0]
                    if who not in newest or found > newest[who]:
                        newest[who] = found
    if power not in newest:
        raise SystemExit(f"demo: no mail with view.json for {power}")
    _, view, raw = newest[power]
    target = saved_view(power)
    target.write_bytes(view)
    (OUT / "players" / power / "report.eml").write_bytes(raw)
    return target


def saved_view(power: str) -> Path:
    """Where :func:`latest_view` saves ``power``'s view.json."""
    return OUT / "players" / power / "view.json"


def latest_views(root: Path, powers: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Every player's :func:`latest_view`, saved and read."""
    return {p: json.loads(latest_view(root, p).read_text()) for p in powers}


def players(game: str, variant: str) -> list[str]:
    """The powers of ``game``'s ``variant``, in the game's order."""
    from pbem.game import registry  # (loaded already: pbem.cli.demo loads the game)

    return list(registry.load(game).variants()[variant].powers)


def latest_mail(power: str) -> Path:
    """The newest mail of ``power`` as :func:`latest_view` saved it."""
    return OUT / "players" / power / "report.eml"


def mail_orders(maildir: Path, power: str, signed: Path, n: int) -> Path:
    msg = EmailMessage()
    msg["From"] = f"{power.capitalize()} <{power}@example.org>"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "my orders"
    msg["Message-ID"] = f"<orders-{power}-{n}@example.org>"
    msg.set_content("Orders attached.\n\n-- \nsent from my phone\n")
    msg.add_attachment(signed.read_bytes(), maintype="text", subtype="plain",
                       filename="orders.txt")
    path = maildir / "new" / f"{n:04d}.{power}.eml"
    path.write_bytes(bytes(msg))
    return path


class Table:
    """A demo game under way: its games root, its directory and the referee's Maildir (as
    :func:`start_game` made them), and the number of order mails sent so far."""

    def __init__(self, root: Path, game: Path, maildir: Path) -> None:
        self.root, self.game, self.maildir = root, game, maildir
        self.mailed = 0

    def mail(self, power: str, orders: Path, vault: str | None = None) -> None:
        """``power`` checks and signs ``orders`` against his saved view and mails them
        (:func:`check_sign_mail`, with his vault when given)."""
        self.mailed += 1
        check_sign_mail(self.maildir, power, orders, saved_view(power), self.mailed, vault)

    def orders(self, power: str, name: str, command: str, options: Sequence[str],
               seq: int | None = None) -> None:
        """``power``'s orders for a step, from the view :func:`latest_view` saved: his vault,
        ``pbem orders new`` into NAME.yaml (``--seq`` when given), the game's ``pbem orders
        COMMAND`` with ``options`` (none: the orders ``new`` wrote), then :meth:`mail`."""
        view = saved_view(power)
        vault = use_vault(power)
        orders = OUT / "players" / power / f"{name}.yaml"
        numbered = ["--seq", str(seq)] if seq is not None else []
        run("orders", "new", "--view", str(view), *numbered, "-o", str(orders), "--force",
            "--vault", vault, who=power)
        if options:
            run("orders", command, str(orders), *options, "--view", str(view), who=power)
        self.mail(power, orders, vault)

    def cron(self, mail_at: float, run_at: float) -> None:
        """The referee's cron job: ``pbem ingest`` of the Maildir at hour ``mail_at``, then
        ``pbem run`` at hour ``run_at``."""
        run("ingest", str(self.root), "--maildir", str(self.maildir), "--now", when(mail_at))
        run("run", str(self.root), "--now", when(run_at))

    def finish(self, at: float, power: str, word: str = "report", ended: str = " by agreement",
               audited: str = "") -> int:
        """The game master ends the game at hour ``at`` (:func:`end_by_agreement`; ``ended``
        ends the heading printed), the log is exported and audited (``audited``: what the
        audit replays, after the heading), and :func:`show` prints the last lines (``power``'s
        newest mail whose subject has ``word``); 0, the demo's exit code."""
        print(f"== the game master ends the game{ended}")
        end_by_agreement(self.root, self.game, at)
        print(f"== export the revealed log and audit it{audited}")
        log = export_and_audit(self.game, self.game.name)
        return show(self.root, self.game, log, power, word)


def start_game(name: str, game: str, variant: str, powers: Sequence[str],
               referee: str) -> Table:
    """A fresh ``demo-output/``: the referee's Maildir, a key for every player, the game made
    by ``pbem new`` (deadline 48h, From ``referee <referee@example.org>``) and its welcome
    mails sent by a first ``pbem run``: the :class:`Table` the demo is played on."""
    if OUT.exists():
        shutil.rmtree(OUT)
    root = OUT / "games"
    _SEEN.pop(root, None)  # a new game's mails: none read yet
    game_dir = root / name
    maildir = OUT / "referee-maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    for power in powers:
        (OUT / "players" / power).mkdir(parents=True)
        run("keygen", str(OUT / "players" / power / "key"), who=power)
    keys = [a for p in powers
            for a in ("--power", f"{p}={p}@example.org:{OUT / 'players' / p / 'key.pub'}")]
    run("new", str(game_dir), "--game", game, "--variant", variant, "--deadline", "48h",
        "--gm", "gm@example.org", "--from", f"{referee} <referee@example.org>",
        "--now", when(0), *keys)
    run("run", str(root), "--now", when(0.1))
    return Table(root, game_dir, maildir)


def use_vault(power: str) -> str:
    """Point the player's tool at ``power``'s own vault (never the referee's), as he would."""
    vault = str(OUT / "players" / power / "vault.json")
    os.environ["PBEM_VAULT"] = vault
    say(power, f"export PBEM_VAULT={shlex.quote(vault)}")
    return vault


def check_sign_mail(maildir: Path, power: str, orders: Path, view: Path, n: int,
                    vault: str | None = None) -> None:
    """``pbem orders check`` and ``sign`` as the player (with his vault when given: it keeps
    his chance seed), then his mail with the signed file into the referee's Maildir."""
    saved = latest_mail(power)
    mail = saved if saved.is_file() else view
    with_vault = ["--view", str(mail), "--vault", vault] if vault else []
    run("orders", "check", str(orders), "--view", str(view), *with_vault[2:], who=power)
    signed = orders.with_suffix(".signed.txt")
    run("orders", "sign", str(orders), "--key", str(OUT / "players" / power / "key.key"),
        *with_vault, "-o", str(signed), who=power)
    delivered = mail_orders(maildir, power, signed, n)
    print(f"{power}: mailed {signed} to referee@example.org as an attachment (it arrived as "
          f"{delivered})")


def kept_checkpoint(root: Path, power: str) -> Path:
    """The signed checkpoint a player kept from an early report (attached as checkpoint.txt):
    the audit proves the published log extends it."""
    found: list[tuple[datetime, bytes]] = []
    for path in (root / "sent-mail").glob("*.eml"):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if f"{power}@" not in str(msg["To"]) or "report" not in str(msg["Subject"]).lower():
            continue
        for part in msg.iter_attachments():
            if part.get_filename() == "checkpoint.txt":
                found.append((email.utils.parsedate_to_datetime(str(msg["Date"])),
                              bytes(part.get_payload(decode=True))))
    if not found:
        raise SystemExit(f"demo: no checkpoint kept by {power}")
    target = OUT / "players" / power / "checkpoint-turn-3.txt"
    target.write_bytes(sorted(found)[min(2, len(found) - 1)][1])
    return target


def newest_report(root: Path, power: str, word: str = "report") -> Path:
    """The newest mail to ``power`` whose subject contains ``word`` (a game's turn reports say
    "report" or "resolved"); of two sent in the same second, the later subject."""
    best: tuple[datetime, str, Path] | None = None
    for path in (root / "sent-mail").glob("*.eml"):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        subject = str(msg["Subject"])
        if f"{power}@" in str(msg["To"]) and word in subject.lower():
            key = (email.utils.parsedate_to_datetime(str(msg["Date"])), subject, path)
            if best is None or key[:2] > best[:2]:
                best = key
    if best is None:
        raise SystemExit(f"demo: no report mail for {power}")
    return best[2]


def copy_report(mail: Path, out: Path) -> tuple[Path, Path]:
    """The report mail as ``out/report.eml`` and its HTML part as ``out/report.html`` (with the
    attached map beside it), so it opens in a browser instead of as quoted-printable source."""
    raw = mail.read_bytes()
    eml = out / "report.eml"
    eml.write_bytes(raw)
    msg = email.message_from_bytes(raw, policy=policy.default)
    body = msg.get_body(("html",))
    if body is None:
        raise SystemExit(f"demo: {mail} has no HTML part")
    html = out / "report.html"
    html.write_text(body.get_content(), encoding="utf-8")
    for part in msg.iter_attachments():
        if part.get_filename() == "map.svg":
            (out / "map.svg").write_bytes(bytes(part.get_payload(decode=True)))
    return eml, html


def end_by_agreement(root: Path, game: Path, at: float,
                     reason: str = "the demo is over") -> None:
    """The game master ends the game (``pbem gm end``) at hour ``at``; the cron job mails the
    ending an hour later."""
    run("gm", "end", str(game), "--reason", reason, "--now", when(at))
    run("run", str(root), "--now", when(at + 1))


def export_and_audit(game: Path, name: str, *audit_options: str) -> Path:
    """The revealed log exported to ``OUT/NAME.export.jsonl`` and audited (``audit_options``:
    more of ``pbem audit``'s, e.g. a player's checkpoint)."""
    log = OUT / f"{name}.export.jsonl"
    run("export", str(game), "-o", str(log))
    run("audit", str(log), *audit_options)
    return log


def show(root: Path, game: Path, log: Path, power: str, word: str = "report",
         before: Sequence[str] = ()) -> int:
    """The demo's last lines: ``before``, then ``game:``, ``log:`` and ``report:`` (the newest
    report of ``power``, copied to OUT so it opens in a browser); 0, the demo's exit code."""
    report, html = copy_report(newest_report(root, power, word), OUT)
    for line in before:
        print(line)
    print()
    print(f"game: {game.resolve()}")
    print(f"log: {log.resolve()}")
    print(f"report: {report.resolve()} ({power}'s last report; open {html.name} "
          "beside it in a browser)")
    return 0
