"""Tic-tac-toe (tests/games/ttt: one module, no templates, no tool, one power due per step)
played end to end by mail: ``pbem new --game ttt``, the generic welcome, ``pbem orders
new|check|sign`` on the due power's view.json, a taken cell refused by ``check``, signed mails
through ``pbem ingest ROOT --stdin`` and ``pbem run`` (both subprocesses), receipts, the generic
turn reports read back, a missed move made by the standing rule, three in a row, the last mail,
``pbem export`` and ``pbem audit`` with the game's own count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.ingest_helpers import everything_in, order_mail
from tests.support.pbem_host import Host, at, attachment, iso
from tests.support.run import pbem


def newest_view(host: Host, power: str, work: Path) -> Path:
    views = [v for m in host.sent(f"{power}@example.org")
             if (v := attachment(m, "view.json")) is not None]
    view = work / f"{power}-view.json"
    view.write_bytes(max(views, key=lambda v: json.loads(v)["turn"]))
    return view


def order_file(host: Host, power: str, cell: str, seq: int, work: Path) -> tuple[Path, Path]:
    """pbem orders new on the newest view.json mailed to the power, the move written into the
    file by hand (the game has no tool)."""
    view = newest_view(host, power, work)
    orders = work / f"{power}-{seq}-{cell}.yaml"
    done = pbem("orders", "new", "--view", view, "--seq", str(seq), "-o", orders)
    assert done.returncode == 0, done.stderr
    text = orders.read_text()
    assert "orders: {}" in text, text
    orders.write_text(text.replace("orders: {}", f"orders:\n  move: {cell}"))
    return view, orders


def mail_move(host: Host, power: str, cell: str, seq: int, when: float, work: Path) -> None:
    """The move checked, signed and mailed through pbem ingest."""
    view, orders = order_file(host, power, cell, seq, work)
    done = pbem("orders", "check", orders, "--view", view)
    assert done.returncode == 0 and done.stdout == b"ok\n", done.stdout + done.stderr
    key = host.tmp / "keys" / f"{host.game_id}-{power}.key"
    signed = pbem("orders", "sign", orders, "--key", key, "--view", view)
    assert signed.returncode == 0, signed.stderr
    raw = order_mail(signed.stdout.decode(), sender=f"{power}@example.org",
                     msgid=f"<{power}.{seq}@example.org>")
    done = pbem("ingest", host.root, "--stdin", "--now", iso(at(when)), stdin=raw)
    assert done.returncode == 0, done.stderr


def run(host: Host, when: float) -> None:
    done = host.run_cli(at(when))
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Host, Path, str]:
    tmp = tmp_path_factory.mktemp("ttt")
    host = Host(tmp, "x-first", game="ttt", game_id="ttt-1")
    run(host, 0.1)  # the welcome mails
    # X a1, O a3; X sends nothing and at the deadline his standing move takes b1 (the first
    # empty cell); O b3; X c1: three in a row on the bottom line.
    mail_move(host, "x", "a1", 1, 1.0, tmp)
    run(host, 1.5)
    view, taken = order_file(host, "o", "a1", 1, tmp)
    refused = pbem("orders", "check", taken, "--view", view)
    mail_move(host, "o", "a3", 1, 2.0, tmp)
    run(host, 2.5)
    run(host, 60.0)  # X missed move 3
    mail_move(host, "o", "b3", 2, 61.0, tmp)
    run(host, 61.5)
    mail_move(host, "x", "c1", 2, 62.0, tmp)
    run(host, 62.5)
    export = tmp / "ttt-1.export"
    done = pbem("export", host.path, "-o", export)
    assert done.returncode == 0, done.stderr
    return host, export, (refused.stdout + refused.stderr).decode()


def test_the_game_ran_to_three_in_a_row_on_the_defaults(game: Any) -> None:
    host, _, _ = game
    state = host.state()
    assert state["board"] == {"a1": "x", "a3": "o", "b1": "x", "b3": "o", "c1": "x"}
    assert state["result"] == {"reason": "three in a row", "turn": 6, "winners": ["x"]}
    resolves = host.entries("resolve")
    assert len(resolves) == 5 and resolves[2].body["used"]["x"] is None


def test_a_taken_cell_is_refused_before_it_is_mailed(game: Any) -> None:
    _, _, refused = game
    assert "'a1' is taken (empty: b1, c1, a2, b2, c2, a3, b3, c3)" in refused, refused


def test_the_generic_mails_reached_the_players(game: Any) -> None:
    host, _, _ = game
    o = host.sent("o@example.org")
    subjects = [str(m["Subject"]) for m in o]
    assert any("Welcome to" in s for s in subjects)
    assert sum("Orders received" in s for s in subjects) == 2
    report = next(m for m in o if "Turn 1 report for O" in str(m["Subject"]))
    text = everything_in(report)
    assert "X marked a1." in text
    assert "1  X . ." in text  # the board, row 1 at the bottom
    assert "move: b1   # one of: b1 c1 a2 b2 c2 a3 b3 c3" in text  # O is due: his form
    assert attachment(report, "view.json") is not None and "map.svg" not in text
    x_report = next(m for m in host.sent("x@example.org")
                    if "Turn 1 report for X" in str(m["Subject"]))
    assert "move:" not in everything_in(x_report)  # X is not due: no form
    missed = next(m for m in o if "Turn 3 report" in str(m["Subject"]))
    assert "X marked b1 (his standing move)." in everything_in(missed)
    assert any("The game is over" in s for s in subjects)
    assert any("GM summary" in str(m["Subject"]) for m in host.sent("gm@example.org"))


def test_only_the_first_mover_is_welcomed_with_orders_due(game: Any) -> None:
    host, _, _ = game
    welcome = {p: everything_in(next(m for m in host.sent(f"{p}@example.org")
                                     if "Welcome to" in str(m["Subject"]))) for p in ("x", "o")}
    assert "Orders for turn 1 are due" in welcome["x"] and "move: a1" in welcome["x"]
    assert "Orders for turn 1 are due" not in welcome["o"] and "move:" not in welcome["o"]
    assert "Move 1: X to play: you have no orders to send yet" in welcome["o"], welcome["o"]


def test_the_export_passes_the_audit_with_the_games_count(game: Any) -> None:
    _, export, _ = game
    done = pbem("audit", export)
    assert done.returncode == 0, done.stderr
    assert b"audit passed" in done.stdout and b"5 moves" in done.stdout, done.stdout
