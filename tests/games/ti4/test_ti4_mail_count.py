"""Issue 32's mail count (bench/bench_ti4_mail.py, ``python -m bench ti4_mail``): one round of a
six-player TI4 game by signed mail, the many-window policies on (``when-due`` digests) and
standing answers used (queued passes, standing secondaries): each player gets fewer reports
and digests than the round has windows, and the strategic actions open no secondary window. No
timing: the figures are counts."""

from __future__ import annotations

from pathlib import Path

from bench.bench_ti4_mail import play


def test_each_player_gets_fewer_reports_than_the_round_has_windows(tmp_path: Path) -> None:
    got = play(tmp_path)
    assert got.phases == ["strategy", *["action"] * 6, "status"], got.phases
    assert set(got.reports) == {"red", "blue", "green", "yellow", "purple", "orange"}
    for power, n in got.reports.items():
        assert 1 <= n < got.windows, (power, n, got.windows)
        assert got.receipts[power] == 3, (power, got.receipts)  # draft, own action, status
