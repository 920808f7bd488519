"""A command imports only what it uses: ``pbem distance`` (a lookup) loads no template engine,
no mail package and no turn job, however many command groups pbem has (a process started per
use should not pay for the others). Run as a real process, the modules it loaded listed."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
from pbem.cli.main import main
code = main(["distance", "vega", "mira"])
heavy = ("jinja2", "pbem.render.mails", "pbem.host.turnjob", "pbem.host.ingest",
         "email.generator", "pbem.cli.archive")
print(code, [m for m in heavy if m in sys.modules])
"""


def test_distance_imports_no_templates_mail_or_turn_job() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          check=True, timeout=120)
    lines = done.stdout.strip().splitlines()
    assert lines[0].isdigit()  # the distance itself, as the command prints it
    assert lines[-1] == "0 []", done.stdout


def test_help_still_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "pbem", "--help"], capture_output=True,
                          text=True, check=True, timeout=120)
    for command in ("distance", "ingest", "run", "gm", "archive", "audit"):
        assert command in done.stdout


INGEST_PROBE = """
import sys
from pbem.cli.main import main
code = main(["ingest", sys.argv[1], "--stdin", "--now", "2026-12-01T05:00:00Z"])
print(code, sorted(m for m in sys.modules if m.split(".")[0] in sys.argv[2:]
                   or any(m.startswith(h) for h in sys.argv[2:] if "." in h)))
"""

#: What a mail that needs no reply (spam, a duplicate) must not import: no template engine or
#: judging of orders, no mail transport or thread pool, and none of what judging uses: the
#: signature code, YAML, the game store, the games and their registry, fair chance, the turn job
#: (a top-level name stands for its whole package; a dotted one for that module and those under
#: it). Nor the standard library's shutil (argparse asked it for the terminal's width on every
#: argument added: pbem.cli.commands.Formatter asks only when help is written) or _strptime
#: (an arrival time is read with pbem.schedule.parse_iso). Nor dataclasses (with inspect, ast, dis
#: and tokenize: ~42 M instructions): a record (pbem.record) imports it only when assigned to.
NO_REPLY_HEAVY = ("jinja2", "markupsafe", "cryptography", "yaml", "fourthousand_ad", "ashes",
                  "b5cgs", "pbem.game", "pbem.chance", "pbem.render", "pbem.host.turnjob",
                  "pbem.host.accept", "pbem.host.notify", "pbem.host.press", "pbem.store.gamedir",
                  "pbem.store.log", "pbem.store.gameconfig", "pbem.protocol.keys",
                  "pbem.protocol.orderdoc", "pbem.protocol.safeyaml", "pbem.cli.run", "smtplib",
                  "imaplib", "concurrent", "multiprocessing", "pbem.store.chance",
                  "pbem.store.replay", "pbem.store.summary", "pbem.host.templatecache",
                  "pbem.protocol.escrow", "pbem.protocol.pressdoc", "pbem.mail.outbox",
                  "pbem.mail.compose", "shutil", "bz2", "lzma", "_strptime", "dataclasses",
                  "inspect")


def test_ingest_of_a_mail_that_needs_no_reply_imports_no_template_engine(tmp_path) -> None:
    """``pbem ingest --stdin`` of spam (quarantined unanswered) and of the same mail again (a
    duplicate): no rendered reply, no order block, so none of :data:`NO_REPLY_HEAVY` is ever
    imported — a process per mail pays only for what that mail needs. The first mail into a new
    root builds the root index (it opens every game: pbem.host.rootindex); the mails after it
    read the index. A mail that does need a reply still gets one (the other tests)."""
    from tests.support.ingest_helpers import REPO, order_mail
    from tests.support.pbem_host import Host

    host = Host(tmp_path)
    first = order_mail("cheap pills, no orders", msgid="<spam.0@elsewhere.example>",
                       sender="spammer@elsewhere.example")
    spam = order_mail("cheap pills, no orders", msgid="<spam.1@elsewhere.example>",
                      sender="spammer@elsewhere.example")
    outcomes = []
    for n, mail in enumerate((first, spam, spam)):
        done = subprocess.run([sys.executable, "-c", INGEST_PROBE, str(host.root),
                               *NO_REPLY_HEAVY], input=mail, capture_output=True, cwd=REPO,
                              check=True, timeout=120)
        lines = done.stdout.decode().strip().splitlines()
        assert lines[-1].startswith("0 "), done.stdout.decode() + done.stderr.decode()
        if n:
            assert lines[-1] == "0 []", done.stdout.decode() + done.stderr.decode()
        outcomes.append(lines[0])
    assert "1 quarantined" in outcomes[1] and "1 duplicate(s)" in outcomes[2], outcomes


#: What a signed order mail (judged, a receipt rendered and queued) must not import: the
#: template engine (the receipt is written without it: pbem.render.plain), press
#: (pbem.host.press: a mail with a press block only), the other games, the turn job, and of
#: cryptography only Ed25519 (and X25519's names for the games' sealed orders): its
#: serialization package (SSH, PKCS#12, every key type: the referee's key is read without it)
#: and its ciphers (escrow's AEAD: only where a blob is sealed or opened). Nor the game's
#: player's tool or archive hooks (pbem.lazy.attribute: imported when first used), nor the
#: engine's tool framework or the vault the tool keeps secrets in. Nor the fair-chance library's
#: chains, streams, referee (cryptography's HKDF) and contributions: a game without dice reads
#: only its instance id and ledger (pbem.store.chance imports them where a step draws).
ORDER_HEAVY = ("pbem.chance.chain", "pbem.chance.player", "pbem.chance.referee",
               "pbem.chance.step", "pbem.chance.stream", "pbem.chance.contributions",
               "cryptography.hazmat.primitives.kdf", "jinja2", "pbem.render.jinjaenv",
               "pbem.host.templatecache", "pbem.host.press",
               "pbem.protocol.pressdoc", "pbem.render.press", "ashes", "b5cgs",
               "pbem.host.turnjob", "pbem.cli.run", "multiprocessing",
               "cryptography.hazmat.primitives.serialization",
               "cryptography.hazmat.primitives.ciphers", "pbem.game.tool", "pbem.protocol.vault",
               "fourthousand_ad.tool", "fourthousand_ad.archive", "pbem.archive")


def test_an_order_mail_imports_only_what_judging_and_its_receipt_use(tmp_path) -> None:
    """``pbem ingest --stdin`` of a signed order mail (accepted, a receipt queued), the first
    into the root (it builds the root index) and the next: neither imports any of
    :data:`ORDER_HEAVY`."""
    from tests.support.ingest_helpers import REPO, order_mail
    from tests.support.pbem_host import Host

    host = Host(tmp_path)
    for seq in (1, 2):
        mail = order_mail(host.orders_text("algol", {}), msgid=f"<o.{seq}@players.example>")
        done = subprocess.run([sys.executable, "-c", INGEST_PROBE, str(host.root),
                               *ORDER_HEAVY], input=mail, capture_output=True, cwd=REPO,
                              check=True, timeout=120)
        lines = done.stdout.decode().strip().splitlines()
        assert any("accepted: g1/algol" in line for line in lines), lines
        assert lines[-1] == "0 []", done.stdout.decode() + done.stderr.decode()


DATACLASS_PROBE = """
import dataclasses, sys
from pbem.cli.main import main
code = main(["ingest", sys.argv[1], "--stdin", "--now", "2026-12-01T05:00:00Z"])
made = sorted({f"{m.__name__}.{k}" for m in list(sys.modules.values()) for k, v in vars(m).items()
               if isinstance(v, type) and v.__module__ == m.__name__
               and dataclasses.is_dataclass(v) and not m.__name__.startswith("pbem.render")})
print(code, made)
"""


def test_an_order_mail_makes_no_dataclass_outside_the_renderer(tmp_path) -> None:
    """A dataclass writes its methods as source and compiles each as the class is made (~3-6 M
    instructions a class, callgrind): the classes an order mail's ingest loads, pbem's and its
    game's, are records (pbem.record) or plain classes. pbem.render keeps its own."""
    from tests.support.ingest_helpers import REPO, order_mail
    from tests.support.pbem_host import Host

    host = Host(tmp_path)
    mail = order_mail(host.orders_text("algol", {}), msgid="<o.dc@players.example>")
    done = subprocess.run([sys.executable, "-c", DATACLASS_PROBE, str(host.root)], input=mail,
                          capture_output=True, cwd=REPO, check=True, timeout=120)
    lines = done.stdout.decode().strip().splitlines()
    assert any("accepted: g1/algol" in line for line in lines), lines
    assert lines[-1] == "0 []", done.stdout.decode() + done.stderr.decode()


HELP_PROBE = """
import sys
from pbem.cli.main import main
try:
    code = main(sys.argv[1].split())
except SystemExit as exc:
    code = exc.code
print(code, sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[2:])))
"""


def test_help_imports_no_game_no_templates_no_multiprocessing_no_cryptography() -> None:
    """``pbem --help`` lists every command, the games' own included, from pbem.cli.commands and
    the games' manifests: no command's module, so none of what the commands use."""
    from pbem.game import registry

    heavy = ("jinja2", "markupsafe", "multiprocessing", "cryptography", "concurrent", "email",
             *(registry.module_name(g) for g in registry.available()))
    done = subprocess.run([sys.executable, "-c", HELP_PROBE, "--help", *heavy],
                          capture_output=True, text=True, check=True, timeout=120)
    lines = done.stdout.strip().splitlines()
    assert "distance" in done.stdout and "orders" in done.stdout
    assert lines[-1] == "0 []", done.stdout


@pytest.mark.parametrize("command,game", [(["orders", "new", "--help"], None),
                                          (["orders", "--help"], None),
                                          (["orders", "ashes", "--help"], "ashes"),
                                          (["distance", "--help"], "4000ad")])
def test_a_game_command_loads_its_own_game_and_no_other(command, game) -> None:
    """A game's own command (``pbem orders ashes``, ``pbem distance``) imports its game alone;
    ``pbem orders new`` (any game, by its view) and ``pbem orders --help`` import none."""
    from pbem.game import registry

    names = {g: registry.module_name(g) for g in registry.available()}
    done = subprocess.run([sys.executable, "-c", HELP_PROBE, " ".join(command), *names.values()],
                          capture_output=True, text=True, check=True, timeout=120)
    loaded = done.stdout.strip().splitlines()[-1]
    assert loaded == f"0 {[names[game]] if game else []}", done.stdout
