"""The audit itself; see pbem.audit for what it checks and in which order."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.audit._chain import Record, read_records
from pbem.audit._walk import AuditFailure, Tally, Walker
from pbem.audit.export import ExportError, ExportFile, read_export
from pbem.errors import PbemError
from pbem.protocol.keys import PublicKey
from pbem.store.checkpoint import Checkpoint, CheckpointError, check_extends
from pbem.store.gamedir import COMPONENTS_NAME, LOG_NAME
from pbem.store.log import LogError, parse_entry

__all__ = ["AuditFailure", "Report", "audit_bytes", "audit_path", "read_checkpoint",
           "read_source", "verified_records"]


@dataclass
class Report:
    tally: Tally
    source: str
    exported: bool
    public: bool
    head: str
    checkpoints: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The summary: a first line that says what was proven, consistent with the last."""
        t = self.tally
        partial = bool(t.withheld_orders or t.withheld_resolutions)
        if partial:
            out = [f"partial audit passed: {self.source} is a public export; everything it shows "
                   "verifies, but what it withholds (order files, resolutions) is not verified "
                   "(see the last line)"]
        else:
            out = [f"audit passed: {self.source}: every entry verified from genesis to the head, "
                   "every resolution replayed by the rules core with the order files the rule "
                   "picks"]
        out.append(f"game {t.game}: {t.plugin} {t.variant} ({t.variant_title}); powers "
                   f"{', '.join(t.powers)}")
        keys = f"; keys replaced: {', '.join(t.keys_replaced)}" if t.keys_replaced else ""
        out.append(f"log: {t.entries} entries, head seq {t.entries - 1} {self.head[:16]}…{keys}")
        turns = f"turns {min(t.turns)}-{max(t.turns)}" if t.turns else "no turn resolved yet"
        replayed = t.resolutions - t.unreplayed_resolutions
        out.append(f"{turns}: {replayed} resolutions replayed by the rules core, {t.orders} order "
                   f"files verified, {t.counts_text() + ', ' if t.counts else ''}"
                   f"{t.escrow_opened} escrow openings, "
                   f"{len(t.gm_ops)} gm operations" + (f" ({', '.join(t.gm_ops)})"
                                                        if t.gm_ops else ""))
        out.append(self._used())
        if self.checkpoints:
            out.append("checkpoints: " + "; ".join(self.checkpoints))
        if partial:
            out.append(self._not_verified())
        elif t.over:
            out.append(f"result: {_result(t.result)}")
        else:
            out.append("result: the game is still running")
        return out

    def _used(self) -> str:
        t = self.tally
        claims = ""
        if t.withheld_resolutions:
            claims = ("by the referee's signed public claims of which logged order file each "
                      "power's orders came from, ")
        text = (f"orders used: {claims}{t.used_checked} resolutions used, for each power due, "
                "the highest-seq order file accepted since the previous resolution, or the "
                "standing orders where none was")
        if t.stale_claims:
            text += f" ({t.stale_claims} claimed stale, not re-checked)"
        if t.used_unchecked:
            text += (f"; {t.used_unchecked} withheld resolutions not checked: the export was "
                     "made before public exports named the order files used")
        return text

    def _not_verified(self) -> str:
        t = self.tally
        text = (f"not verified (public export): {t.withheld_orders} order files withheld: their "
                f"signatures, commitments and distances, and the {t.withheld_resolutions} "
                f"withheld resolutions (with every state after the first, so "
                f"{t.unreplayed_gm} state-changing gm operations too) could not be re-checked; "
                f"the chain of hashes over the order files could (each one's hash was finished "
                f"from its SHA-256 midstate over its seq, kind, time and prev); the hashes of "
                f"the withheld resolutions are the referee's signed claims, linked to their "
                f"neighbours and checkable against the checkpoints players got with each "
                f"report. The public claims of the withheld resolutions "
                f"({t.counts_text(public=True) or 'nothing the game counts'} among their "
                f"public events) are signed by the referee but not "
                f"re-derived. Result: not verified; audit the full export when it is published")
        return text


def _result(result: object) -> str:
    if isinstance(result, dict) and "winners" in result:
        winners = ", ".join(result["winners"]) or "nobody"
        return f"won by {winners} ({result.get('reason')}) on turn {result.get('turn')}"
    return str(result)


def read_checkpoint(text_or_file: str) -> Checkpoint:
    """A checkpoint given as its text (from a mail) or as a file holding it."""
    text = text_or_file
    if "pbem-checkpoint" not in text:
        path = Path(text).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CheckpointError(f"checkpoint {text_or_file!r}: not checkpoint text, and "
                                  f"the file cannot be read ({exc.strerror})") from None
    return Checkpoint.parse(text)


def audit_path(path: Path | str, checkpoints: Sequence[str] = ()) -> Report:
    """Audit an export file, a game directory or a bare log.jsonl."""
    data, source = read_source(path)
    return audit_bytes(data, source, [read_checkpoint(c) for c in checkpoints])


def read_source(path: Path | str) -> tuple[bytes, str]:
    """The bytes of an export file, a game directory's log.jsonl or a bare log, and its name."""
    path = Path(path)
    target = path / LOG_NAME if path.is_dir() else path
    try:
        return target.read_bytes(), str(target)
    except OSError as exc:
        raise PbemError(f"{target}: cannot read ({exc.strerror})") from None


def verified_records(data: bytes, source: str) -> tuple[list[Record], ExportFile]:
    """The records of an export or log whose chain (and, for an export, the referee's
    signature over its header) verifies; AuditFailure names what does not. The walk from
    genesis (signatures, rules, replay) is not made here."""
    try:
        exp = read_export(data, source)
    except ExportError as exc:
        raise AuditFailure(f"{source}: {exc}", line=exc.line, field="file") from None
    header = exp.header
    try:
        if not exp.lines:
            raise AuditFailure(f"{source}: no log entries", field="file")
        if header is not None:
            referee = _genesis_referee(exp, source)
            try:
                header.verify(referee)
            except ExportError as exc:
                raise AuditFailure(f"{source} {exc}", line=1, field="header") from None
        records = read_records(exp.lines, exp.first_line, source, header)
    except LogError as exc:
        raise AuditFailure(f"the hash chain does not verify: {exc}", seq=exc.seq,
                           line=exc.line, field="hash chain") from None
    return records, exp


def audit_bytes(data: bytes, source: str, checkpoints: Sequence[Checkpoint] = (),
                components: Callable[[str], Any] | None = None) -> Report:
    """Audit ``data`` (an export or a log); ``components`` finds the game's component pack by
    digest (default: components.json beside ``source``)."""
    records, exp = verified_records(data, source)
    header = exp.header
    walker = Walker(records, lambda seq: exp.first_line + seq,
                    components or components_beside(source))
    if header is not None:  # before the walk: a cut or extended file is reported as such
        _check_point(walker, records, header.checkpoint, "the export's checkpoint", source)
    tally = walker.run()
    report = Report(tally, source, header is not None, bool(header and header.public),
                    records[-1].hash)
    if header is not None:
        report.checkpoints.append(f"the export header's {header.checkpoint.short()} is the "
                                  "head")
    for n, cp in enumerate(checkpoints, 1):
        _check_point(walker, records, cp, f"--checkpoint #{n}", source)
        report.checkpoints.append(f"--checkpoint #{n} {cp.short()} is extended by this log")
    return report


def components_beside(source: str) -> Callable[[str], Any]:
    """The game's component pack: components.json beside the log or export (the game
    directory's own copy), checked by digest in the walk."""
    def find(digest: str) -> Any:
        try:
            return json.loads((Path(source).parent / COMPONENTS_NAME).read_bytes())
        except (OSError, ValueError):
            return None
    return find


def _genesis_referee(exp: ExportFile, source: str) -> PublicKey:
    genesis = parse_entry(exp.lines[0], exp.first_line, source)
    try:
        return PublicKey.parse(genesis.body["referee"])
    except (PbemError, KeyError, TypeError):
        raise AuditFailure(f"{source} line {exp.first_line} (seq 0): the genesis entry has no "
                           "referee key", seq=0, line=exp.first_line, field="referee") from None


def _check_point(walker: Walker, records: Sequence[Record], cp: Checkpoint, what: str,
                 source: str) -> None:
    n = len(records)
    try:
        if cp.game != walker.game_id:
            raise CheckpointError(f"it is for game {cp.game}, the log is game {walker.game_id}")
        cp.verify(walker.referee)
        check_extends(records, cp)  # type: ignore[arg-type]
    except CheckpointError as exc:
        seq = min(cp.length, n) - 1
        raise AuditFailure(f"{what} ({cp.short()}) is contradicted by {source}: {exc}.",
                           seq=seq, line=walker.line_of(seq), field="checkpoint") from None
    if what == "the export's checkpoint" and cp.length != n:
        last = records[cp.length - 1]
        raise AuditFailure(f"{source} holds {n} entries but the referee's checkpoint in its "
                           f"header covers {cp.length}: the entries after seq {last.seq} were "
                           "added after export", seq=cp.length, line=walker.line_of(cp.length),
                           field="checkpoint")


