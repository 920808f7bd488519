"""Garbage on the command line gets one line of error, never a traceback.

Every command is run through the real ``pbem`` entry point as a subprocess with the kinds of
garbage a user or a script gives it: missing arguments, wrong types, nonexistent paths, a
directory where a file is expected, binary files, empty files, unreadable files, and a game
directory whose files are damaged. Each must exit non-zero with a short message and no
traceback. (Run concurrently in a few threads: each invocation is a separate process.)

Numbers are where tracebacks hid: ``str.isdigit()`` is true of ``'²'``, which ``int()`` refuses;
every number pbem reads goes through pbem.numbers now, and a property test gives every numeric
option of the command line any text at all. Disk full is run for real, on a full tmpfs.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import itertools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.cli.main import main as pbem_main
from pbem.store.checkpoint import TAG as CHECKPOINT_TAG
from tests.support.pbem_host import AD, Host, at, iso

# Placeholders replaced by real paths in the fixture below.
G = "{game}"  # a real game directory
ROOT = "{root}"  # its root
NOPE = "{tmp}/no/such/file"
DIR = "{tmp}/a-directory"
EMPTY = "{tmp}/empty"
BIN = "{tmp}/binary"
UNREAD = "{unreadable}"
PUB = "{tmp}/keys/g1-algol.pub"
KEY = "{tmp}/keys/g1-algol.key"
ORDERS = "{tmp}/orders.yaml"
INSTANCE = "0123456789abcdef0123456789abcdef"  # a game instance, for orders new
SIGNED = "{tmp}/signed.txt"
BROKEN = "{broken}"  # a root holding a game whose config.yaml and log.jsonl are garbage
JUNK = "{tmp}/junk.json"  # valid JSON and YAML of the wrong shape
SUP = "\u00b2"  # '²': str.isdigit() says yes, int() says no
SUP_EXPORT = "{tmp}/sup-export.jsonl"  # a real export whose header withholds entry "²"
SUP_RELAY = "{tmp}/sup-relay.eml"  # a relay mail whose statement says log=²
SUP_CHECKPOINT = (f"{CHECKPOINT_TAG} game=g1 length={SUP} head={'0' * 64} "
                  f"sig={base64.urlsafe_b64encode(bytes(64)).decode().rstrip('=')}")
GARBAGE_FILES = [NOPE, DIR, EMPTY, BIN, UNREAD, JUNK]

INVOCATIONS: list[list[str]] = [
    # distance
    ["distance"], ["distance", "Pavo"], ["distance", "Nowhere", "Pavo"],
    ["distance", "Pavo", "Algol", "--game", "nosuch"], ["distance", "\udcff", "Pavo"],
    # keygen
    ["keygen"], ["keygen", NOPE], ["keygen", "{tmp}/keys/g1-algol"], ["keygen", EMPTY + "/x"],
    # new
    ["new"], ["new", "{tmp}/n1"], ["new", "{tmp}/n2", "--variant", "nosuch"],
    ["new", "{tmp}/n3", "--variant", "independents-4", "--power", "garbage"],
    ["new", "{tmp}/n4", "--variant", "independents-4", "--deadline", "soon"],
    ["new", "{tmp}/n5", "--variant", "independents-4", "--weekdays", "funday"],
    ["new", "{tmp}/n6", "--variant", "independents-4", "--weekdays", "mon", "--tz", "Mars/Base"],
    ["new", "{tmp}/n7", "--variant", "independents-4", "--weekdays", "mon", "--hour", "25:99"],
    ["new", "{tmp}/n8", "--variant", "independents-4", "--option", "garbage"],
    ["new", "{tmp}/n9", "--variant", "independents-4", "--now", "yesterday"],
    ["new", EMPTY, "--variant", "independents-4"],
    ["new", G, "--variant", "independents-4"],
    *(["new", "{tmp}/n10", "--variant", "independents-4", "--power",
       f"pavo=a@example.org:{f}"] for f in GARBAGE_FILES),
    ["new", "{tmp}/n11", "--variant", "independents-4", "--power", "pavo=garbage:" + PUB],
    # ingest
    ["ingest"], ["ingest", NOPE, "--stdin"], ["ingest", EMPTY, "--stdin"],
    ["ingest", ROOT, "--stdin", "--now", "never"],
    *(["ingest", ROOT, "--maildir", f] for f in [NOPE, EMPTY, BIN]),
    *(["ingest", ROOT, "--mbox", f] for f in [NOPE, DIR]),
    # run
    ["run"], ["run", NOPE], ["run", EMPTY], ["run", ROOT, "--now", "2026-13-45"],
    ["run", BROKEN, "--no-send"],
    # export
    ["export"], ["export", G], *(["export", f, "-o", "{tmp}/x.jsonl"] for f in GARBAGE_FILES),
    ["export", G, "-o", DIR], ["export", G, "-o", NOPE],
    ["export", "{broken}/bad", "-o", "{tmp}/y.jsonl"],
    # audit
    ["audit"], *(["audit", f] for f in GARBAGE_FILES), ["audit", "{broken}/bad"],
    *(["audit", G, "--checkpoint", f] for f in [NOPE, DIR, EMPTY, BIN, "garbage text"]),
    # orders new
    ["orders"], ["orders", "new", "--turn", "x"], ["orders", "new", "--seq", "x"],
    ["orders", "new"], ["orders", "new", "--game", "4000ad"],
    *(["orders", "new", "--view", f] for f in GARBAGE_FILES),
    ["orders", "new", "--game", "g1", "--power", "algol", "--turn", "1",
     "--instance", INSTANCE, "-o", DIR],
    ["orders", "new", "--game", "g1", "--power", "algol", "--turn", "1",
     "--instance", INSTANCE, "-o", NOPE],
    ["orders", "check", ORDERS, "--view", "{tmp}/view.json", "--rules", "nosuch"],
    # orders depart
    ["orders", "depart"],
    *(["orders", "depart", f, "--from", "Algol", "--to", "Pavo", "--ships", "1"]
      for f in GARBAGE_FILES),
    ["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", "many"],
    ["orders", "depart", ORDERS, "--from", "Nowhere", "--to", "Pavo", "--ships", "1"],
    ["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", "1", "--warp", "x"],
    ["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", "1",
     "--with", "garbage"],
    *(["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", "1",
       "--escrow", f] for f in GARBAGE_FILES),
    *(["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", "1",
       "--vault", f] for f in [DIR, BIN, EMPTY]),
    # orders reveal / check / sign
    *(["orders", "reveal", f, "--view", "{tmp}/view.json"] for f in GARBAGE_FILES),
    *(["orders", "reveal", ORDERS, "--view", f] for f in GARBAGE_FILES),
    *(["orders", "reveal", ORDERS, "--view", "{tmp}/view.json", "--vault", f]
      for f in [DIR, EMPTY, BIN, UNREAD, JUNK]),
    *(["orders", "check", f] for f in GARBAGE_FILES),
    *(["orders", "check", SIGNED, "--pub", f] for f in GARBAGE_FILES),
    *(["orders", "check", ORDERS, "--view", f] for f in GARBAGE_FILES),
    *(["orders", "sign", ORDERS, "--key", f] for f in [*GARBAGE_FILES, PUB]),
    *(["orders", "sign", f, "--key", KEY] for f in GARBAGE_FILES),
    ["orders", "sign", ORDERS, "--key", KEY, "-o", DIR],
    ["orders", "sign", ORDERS, "--key", KEY, "-o", NOPE],
    # gm
    ["gm"], ["gm", "status"], ["gm", "nosuch", G],
    *(["gm", op, f] for op in ("status", "pause", "resume", "concede", "end")
      for f in [NOPE, DIR, EMPTY, BIN]),
    ["gm", "status", "{broken}/bad"], ["gm", "pause", "{broken}/bad"],
    ["gm", "status", G, "--now", "later"],
    ["gm", "extend", G], ["gm", "extend", G, "--to", "someday"], ["gm", "extend", G, "--by", "x"],
    ["gm", "extend", G, "--to", "2000-01-01T00:00:00Z"],
    ["gm", "concede", G, "nosuch"],
    ["gm", "replace", G, "algol"], ["gm", "replace", G, "nosuch", "--email", "a@b.org",
                                    "--key", PUB],
    ["gm", "replace", G, "algol", "--email", "garbage", "--key", PUB],
    ["gm", "replace", G, "algol", "--email", "a@b.org\nBcc: x@y.org", "--key", PUB],
    *(["gm", "replace", G, "algol", "--email", "a@b.org", "--key", f]
      for f in [*GARBAGE_FILES, "pbem-ed25519 garbage"]),
    # numbers in a script's digits, and too large (issue 27: each was a traceback)
    ["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", SUP],
    ["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", "1",
     "--with", f"regulus={SUP}"],
    ["orders", "depart", ORDERS, "--from", "Algol", "--to", "Pavo", "--ships", "1",
     "--warp", "\u0661"],
    ["gm", "extend", G, "--by", "999999999999h"], ["gm", "extend", G, "--by", f"1{SUP}h"],
    ["audit", G, "--checkpoint", SUP_CHECKPOINT],
    ["audit", SUP_EXPORT], ["archive", SUP_EXPORT, "-o", "{tmp}/sup-archive"],
    ["press", "verify", SUP_RELAY, "--referee-key", PUB],
    ["orders", "new", "--game", "g1", "--power", "algol", "--turn", SUP],
    ["dice", "roll", "--seed-hex", "0" * 64, "--label", "x", "--count", "99999999999"],
    ["dice", "roll", "--seed-hex", "0" * 64, "--label", "x", "--faces", f"1,{SUP}"],
]


def _fill(arg: str, places: dict[str, str]) -> str:
    for name, value in places.items():
        arg = arg.replace("{" + name + "}", value)
    return arg


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    tmp = tmp_path_factory.mktemp("garbage")
    host = Host(tmp)
    (tmp / "a-directory").mkdir()
    (tmp / "empty").write_bytes(b"")
    (tmp / "binary").write_bytes(bytes(range(256)) * 4)
    (tmp / "junk.json").write_text('[1, {"games": [], "pbem_vault": 1}]\n')
    unreadable = tmp / "unreadable"
    unreadable.write_text("pbem: 1\n")
    unreadable.chmod(0)
    broken = tmp / "broken"
    (broken / "bad").mkdir(parents=True)
    (broken / "bad" / "config.yaml").write_bytes(b"\xff\xfe: [\x00")
    (broken / "bad" / "log.jsonl").write_bytes(b"{not json\n")
    (tmp / "orders.yaml").write_text(
        "pbem: 1\ngame: g1\npower: algol\nturn: 1\nseq: 1\n"
        "instance: 0123456789abcdef0123456789abcdef\norders: {}\n")
    (tmp / "view.json").write_text(json.dumps(AD.view(host.state(), "algol")))
    (tmp / "signed.txt").write_text(host.orders_text("algol", {}))
    _superscripts(tmp, host)
    yield {
        "game": str(host.path), "root": str(host.root), "tmp": str(tmp), "broken": str(broken),
        # root reads a 0000 file anyway: /proc/self/mem is unreadable from offset 0 for anyone
        "unreadable": "/proc/self/mem" if os.geteuid() == 0 else str(unreadable),
    }


def _superscripts(tmp: Path, host: Host) -> None:
    """The files of the "²" cases: a real export whose header withholds entry "²" (in
    canonical form, as the reader requires), and a relay mail whose statement says log=²."""
    export = tmp / "export.jsonl"
    assert pbem_main(["export", str(host.path), "-o", str(export)]) == 0
    head, rest = export.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    header["withheld"] = {SUP: "0" * 64}
    (tmp / "sup-export.jsonl").write_bytes(canonical.encode(header) + b"\n" + rest)
    text = "Shall we take Mira together?\n"
    statement = (f"pbem-press from=algol game=g1 index=0 log={SUP} "
                 f"text_sha256={hashlib.sha256(text.encode()).hexdigest()} to=pavo turn=1"
                 f"\n sig={'ab' * 64}")
    from email.message import EmailMessage
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "referee@example.org", "pavo@example.org", "press"
    msg.set_content(f"----- message -----\n{text}----- end of message -----\n")
    msg.add_attachment(text, filename="press-message.txt")
    msg.add_attachment(statement + "\n", filename="press-signature.txt")
    (tmp / "sup-relay.eml").write_bytes(msg.as_bytes())


def _run(argv: list[str], places: dict[str, str]) -> subprocess.CompletedProcess[str]:
    args = [_fill(a, places) for a in argv]
    env = {**os.environ, "PBEM_VAULT": places["tmp"] + "/vault.json"}
    return subprocess.run(
        [sys.executable, "-m", "pbem", *args], capture_output=True, text=True, check=False,
        stdin=subprocess.DEVNULL, env=env, timeout=120, errors="replace",
    )


def test_garbage_invocations_fail_with_one_line_and_no_traceback(places: dict[str, str]) -> None:
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda argv: _run(argv, places), INVOCATIONS))
    bad = []
    for argv, done in zip(INVOCATIONS, results, strict=True):
        err = done.stderr
        usage = err.startswith("usage: ")  # argparse: usage lines, then one error line
        lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("warning:")]
        one_line = usage or len(lines) <= 1
        if done.returncode == 0 or "Traceback" in err or not one_line:
            bad.append(f"pbem {' '.join(argv)} -> exit {done.returncode}: {err.strip()[-300:]}")
    assert not bad, f"{len(bad)} of {len(INVOCATIONS)} garbage invocations:\n" + "\n".join(bad)


# -- every numeric option, any text -------------------------------------------------------------

#: Text as a user or a script gives it: anything, and the near misses of a number.
ANY_TEXT = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.from_regex(r"\A[-+ ]?[0-9\u00b2\u0661\uff10_]{1,25}[dhm ]?\Z"),
    st.sampled_from(["0", "00", "1e3", "0x10", "1_000", " 7", "7 ", "\u00b2", "\u0661",
                     "\uff17", "999999999999h", "99999999999999999999", "nan", "inf", "-1",
                     "25:99", "23:5\u0661", "1d" * 30, "all", "=", "regulus=", "A1=\u00b2"]),
)

_counter = itertools.count()


@pytest.fixture(scope="module")
def numeric(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 4000 A.D. game (for gm extend, orders new and depart), its keys and an order file."""
    tmp = tmp_path_factory.mktemp("numeric")
    host = Host(tmp)
    orders = tmp / "orders.yaml"
    orders.write_text("pbem: 1\ngame: g1\npower: algol\nturn: 1\nseq: 1\n"
                      "instance: 0123456789abcdef0123456789abcdef\norders: {}\n")
    (tmp / "view.json").write_text(json.dumps(AD.view(host.state(), "algol")))
    return {"tmp": tmp, "game": host.path, "orders": orders, "keys": tmp / "keys"}


def _numeric_argv(option: str, value: str, where: dict[str, Path]) -> list[str]:
    """One invocation giving ``value`` to ``option`` (as --opt=VALUE: a value starting with
    "-" is still a value)."""
    tmp = where["tmp"]
    orders = tmp / f"o-{next(_counter)}.yaml"
    shutil.copy(where["orders"], orders)
    depart = ["orders", "depart", str(orders), "--from", "Algol", "--to", "Pavo"]
    keys = where["keys"]
    new = ["new", str(tmp / f"n-{next(_counter)}"), "--game", "4000ad",
           "--variant", "independents-4", "--now", iso(at(0)),
           *(f"--power={p}={p}@example.org:{keys}/g1-{p}.pub"
             for p in ("algol", "pavo", "antares", "regulus"))]
    return {
        "orders new --turn": ["orders", "new", "--game", "g1", "--power", "algol",
                              f"--turn={value}"],
        "orders new --seq": ["orders", "new", "--game", "g1", "--power", "algol", "--turn",
                             "1", f"--seq={value}"],
        "orders depart --ships": [*depart, f"--ships={value}"],
        "orders depart --warp": [*depart, "--ships", "1", f"--warp={value}"],
        "orders depart --with": [*depart, "--ships", "1", f"--with=regulus={value}"],
        "gm extend --by": ["gm", "extend", str(where["game"]), f"--by={value}",
                           "--now", iso(at(1))],
        "new --deadline": [*new, f"--deadline={value}"],
        "new --hour": [*new, "--weekdays", "mon", f"--hour={value}"],
        "dice roll --count": ["dice", "roll", "--seed-hex", "0" * 64, "--label", "x",
                              f"--count={value}"],
        "dice roll --faces": ["dice", "roll", "--seed-hex", "0" * 64, "--label", "x",
                              f"--faces={value}"],
        "audit --checkpoint": ["audit", str(where["game"]), "--checkpoint",
                               f"{CHECKPOINT_TAG} game=g1 length={value} head={'0' * 64} "
                               f"sig={base64.urlsafe_b64encode(bytes(64)).decode()}"],
    }[option]


NUMERIC_OPTIONS = ["orders new --turn", "orders new --seq", "orders depart --ships",
                   "orders depart --warp", "orders depart --with", "gm extend --by",
                   "new --deadline", "new --hour", "dice roll --count", "dice roll --faces",
                   "audit --checkpoint"]


@pytest.mark.parametrize("option", NUMERIC_OPTIONS)
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=ANY_TEXT)
def test_any_text_for_a_number_is_a_result_or_one_line(
        option: str, value: str, numeric: dict[str, Path]) -> None:
    """The real entry point, in this process (a traceback would be an exception here): exit
    0, or a non-zero exit with one line on stderr (argparse: its usage, then one line)."""
    argv = _numeric_argv(option, value, numeric)
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = pbem_main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 1
    text = err.getvalue()
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("warning:")]
    if code == 0:
        return
    assert text.startswith("usage: ") or len(lines) == 1, (argv, code, text)


# -- disk full ------------------------------------------------------------------------------------


def _fill_disk(mnt: Path) -> None:
    # unbuffered: nothing left to flush at close
    with open(mnt / "filler", "wb", buffering=0) as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 65536)


def test_disk_full_is_one_line_naming_the_path_in_every_command(
        small_fs: Path, places: dict[str, str]) -> None:
    """A real tmpfs filled to ENOSPC: commands that write a file the user named, and commands
    that write into a game on the full disk, each exit non-zero with one line that says the
    disk is full and names the path."""
    shutil.copytree(places["root"], small_fs / "root")
    game = small_fs / "root" / "g1"
    _fill_disk(small_fs)
    cases = [
        (["export", places["game"], "-o", f"{small_fs}/x.jsonl"], f"{small_fs}/x.jsonl"),
        (["archive", places["game"], "--public", "-o", f"{small_fs}/arch"], f"{small_fs}/arch"),
        (["keygen", f"{small_fs}/k"], f"{small_fs}/k"),
        (["orders", "new", "--game", "g1", "--power", "algol", "--turn", "1", "--instance",
          INSTANCE, "-o", f"{small_fs}/o.yaml"], f"{small_fs}/o.yaml"),
        (["gm", "extend", str(game), "--by", "24h", "--now", iso(at(1))], str(game)),
        (["gm", "pause", str(game), "--now", iso(at(1))], str(game)),
    ]
    bad = []
    for argv, path in cases:
        done = _run(argv, places)
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        if (done.returncode == 0 or "Traceback" in done.stderr or len(lines) != 1
                or "disk full" not in lines[0] or path not in lines[0]):
            bad.append(f"pbem {' '.join(argv)} -> exit {done.returncode}: {done.stderr[-400:]}")
    assert not bad, "\n".join(bad)
