"""Garbage on the command line gets one line of error, never a traceback.

Every command is run through the real ``pbem`` entry point as a subprocess with the kinds of
garbage a user or a script gives it: missing arguments, wrong types, nonexistent paths, a
directory where a file is expected, binary files, empty files, unreadable files, and a game
directory whose files are damaged. Each must exit non-zero with a short message and no
traceback. (Run concurrently in a few threads: each invocation is a separate process.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.pbem_host import AD, Host

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
SIGNED = "{tmp}/signed.txt"
BROKEN = "{broken}"  # a root holding a game whose config.yaml and log.jsonl are garbage
JUNK = "{tmp}/junk.json"  # valid JSON and YAML of the wrong shape
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
    ["orders", "new", "--game", "g1", "--power", "algol", "--turn", "1", "-o", DIR],
    ["orders", "new", "--game", "g1", "--power", "algol", "--turn", "1", "-o", NOPE],
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
        "pbem: 1\ngame: g1\npower: algol\nturn: 1\nseq: 1\norders: {}\n")
    (tmp / "view.json").write_text(json.dumps(AD.view(host.state(), "algol")))
    (tmp / "signed.txt").write_text(host.orders_text("algol", {}))
    yield {
        "game": str(host.path), "root": str(host.root), "tmp": str(tmp), "broken": str(broken),
        # root reads a 0000 file anyway: /proc/self/mem is unreadable from offset 0 for anyone
        "unreadable": "/proc/self/mem" if os.geteuid() == 0 else str(unreadable),
    }


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
