"""A finished game played for real (pbem new, signed orders with real commitments and an escrow,
the real cron job, a key replaced by ``pbem gm replace``, concessions ending it), exported and
audited. Other audit tests tamper with the export built here."""

from __future__ import annotations

import pytest

from pbem.audit import audit_bytes, audit_path
from tests.support.played import Played, played
from tests.support.run import pbem_text as _cli


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory)


def test_untampered_export_passes_with_key_replacement_escrow_battle_and_result(game):
    report = audit_bytes(game.export, "game.export")
    t = report.tally
    assert t.keys_replaced == ["antares"] and t.escrow_opened == 1
    assert t.counts.get("battles", 0) >= 1
    assert t.over and t.result["winners"] == ["algol"]
    assert t.resolutions == 3 and t.orders == len(game.host.entries("orders"))
    text = "\n".join(report.lines())
    assert "audit passed" in text and "won by algol" in text


def test_the_game_directory_itself_passes(game):
    report = audit_path(game.host.path)
    assert report.tally.over and not report.exported


def test_cli_exit_codes_and_one_paragraph_on_failure(game, tmp_path):
    good = tmp_path / "good.export"
    good.write_bytes(game.export)
    ok = _cli("audit", str(good))
    assert ok.returncode == 0 and ok.stdout.startswith("audit passed") and not ok.stderr
    lines = game.export.split(b"\n")
    lines[3] = lines[3].replace(b'"seq":', b'"seq" :', 1)
    bad = tmp_path / "bad.export"
    bad.write_bytes(b"\n".join(lines))
    failed = _cli("audit", str(bad))
    assert failed.returncode == 1 and not failed.stdout
    assert "Traceback" not in failed.stderr and len(failed.stderr.strip().splitlines()) == 1
    assert "line 4 (seq 2)" in failed.stderr
    missing = _cli("audit", str(tmp_path / "nothing"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr


def test_cli_export_writes_a_file_the_audit_accepts(game, tmp_path):
    out = tmp_path / "cli.export"
    done = _cli("export", str(game.host.path), "-o", str(out), "--public")
    assert done.returncode == 0, done.stderr
    assert "withheld" in done.stdout and "pbem-checkpoint game=g1" in done.stdout
    assert _cli("audit", str(out)).returncode == 0
