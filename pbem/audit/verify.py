"""The audit itself; see pbem.audit for what it checks and in which order."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from pbem.audit._chain import ChainReader, Record
from pbem.audit._lookup import LogLookup, Secrets, chance_enabled
from pbem.audit._parallel import ahead, workers_for
from pbem.audit._source import BytesSource, FileSource, Opened, Source, open_source
from pbem.audit._walk import AuditFailure, Tally, Walker
from pbem.audit._words import chance_lines, unproven_text
from pbem.audit.export import ExportError
from pbem.errors import PbemError
from pbem.game.results import GameResult
from pbem.protocol.keys import PublicKey
from pbem.store.checkpoint import Checkpoint, CheckpointError, check_extends
from pbem.store.gamedir import COMPONENTS_NAME, LOG_NAME
from pbem.store.log import Entry, LogError, parse_entry

#: ``pbem audit``'s exit status for a finished game whose referee never revealed the secret K
#: of its fair chance: nothing found false, but the hidden draws are not proven (1: a lie found).
UNPROVEN = 3

__all__ = ["UNPROVEN", "AuditFailure", "Report", "audit_bytes", "audit_path", "read_checkpoint",
           "read_source", "verified_records"]


@dataclass
class Report:
    tally: Tally
    source: str
    exported: bool
    public: bool
    head: str
    checkpoints: list[str] = field(default_factory=list)

    @property
    def unproven_end(self) -> bool:
        """The game is over but K was never revealed: its hidden draws can never be proven
        from this log, so the audit does not pass (exit status ``UNPROVEN``)."""
        t = self.tally
        return bool(t.hidden_unproven and not t.chance_secret and t.finished
                    and not (t.withheld_orders or t.withheld_resolutions))

    @property
    def exit_status(self) -> int:
        return UNPROVEN if self.unproven_end else 0

    def lines(self) -> list[str]:
        """The summary: a first line that says what was proven, consistent with the last."""
        t = self.tally
        partial = bool(t.withheld_orders or t.withheld_resolutions)
        if partial:
            out = [f"partial audit passed: {self.source} is a public export; everything it shows "
                   "verifies, but what it withholds (order files, resolutions) is not verified "
                   "(see the last line)"]
        elif self.unproven_end:
            out = [f"audit NOT passed: {self.source}: the game is over but the referee never "
                   f"revealed the secret K of its fair chance, so {unproven_text(t)} "
                   f"(exit status {UNPROVEN}); everything else verified"]
        elif t.hidden_unproven:
            out = [f"audit passed so far: {self.source}: every entry verified from genesis to "
                   "the head; hidden draws are not yet provable (the referee reveals their "
                   "secret at the game's end), so the resolutions from the first one on are "
                   "not replayed (see the chance line)"]
        else:
            out = [f"audit passed: {self.source}: every entry verified from genesis to the head, "
                   "every resolution replayed by the rules core with the order files the rule "
                   "picks"]
        out.append(f"game {t.game}: {t.plugin} {t.variant} ({t.variant_title}); powers "
                   f"{', '.join(t.powers)}")
        keys = f"; keys replaced: {', '.join(t.keys_replaced)}" if t.keys_replaced else ""
        out.append(f"log: {t.entries} entries, head seq {t.entries - 1} {self.head[:16]}…{keys}")
        turns = (f"turns {t.first_turn}-{t.last_turn}" if t.first_turn is not None
                 else "no turn resolved yet")
        replayed = t.resolutions - t.unreplayed_resolutions
        # The game's own words: its counts, and escrow openings only where the log holds any.
        counted = [t.counts_text()] if t.counts else []
        if t.escrow_opened:
            counted.append(f"{t.escrow_opened} escrow openings")
        out.append(f"{turns}: {replayed} resolutions replayed by the rules core, {t.orders} order "
                   f"files verified, {', '.join([*counted, ''])}"
                   f"{len(t.gm_ops)} gm operations" + (f" ({', '.join(t.gm_ops)})"
                                                        if t.gm_ops else ""))
        out.append(self._used())
        if t.chance_steps or t.hidden_unproven or t.chance_secret:
            out += chance_lines(t)
        if self.checkpoints:
            out.append("checkpoints: " + "; ".join(self.checkpoints))
        if partial:
            out.append(self._not_verified())
        elif t.over:
            out.append(f"result: {_result(t.result)}")
        elif t.finished:
            out.append("result: the game is over by the log (no next deadline), but its state "
                       "after the first hidden draw could not be replayed")
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
        if t.standing_files:
            text += (f"; {t.standing_files} standing files (turn: standing), each used, where "
                     "no file of the step was, by every later resolution until replaced")
        if t.stale_claims:
            text += f" ({t.stale_claims} claimed stale, not re-checked)"
        return text

    def _not_verified(self) -> str:
        t = self.tally
        text = (f"not verified (public export): {t.withheld_orders} order files withheld: their "
                f"signatures and the rules core's checks of their orders, and the "
                f"{t.withheld_resolutions} "
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


def _result(result: GameResult | str | None) -> str:
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


def audit_path(path: Path | str, checkpoints: Sequence[str] = (),
               workers: int | None = None) -> Report:
    """Audit an export file, a game directory or a bare log.jsonl, read as a stream (memory
    stays flat however long the log; ``workers``: see :func:`audit_bytes`)."""
    path = Path(path)
    target = path / LOG_NAME if path.is_dir() else path
    cps = [read_checkpoint(c) for c in checkpoints]
    return _audit(FileSource(target), cps, None, workers)


def read_source(path: Path | str) -> tuple[bytes, str]:
    """The bytes of an export file, a game directory's log.jsonl or a bare log, and its name."""
    path = Path(path)
    target = path / LOG_NAME if path.is_dir() else path
    try:
        return target.read_bytes(), str(target)
    except OSError as exc:
        raise PbemError(f"{target}: cannot read ({exc.strerror})") from None


def verified_records(data: bytes, source: str) -> tuple[list[Record], Opened]:
    """The records of an export or log whose chain (and, for an export, the referee's
    signature over its header) verifies; AuditFailure names what does not. The walk from
    genesis (signatures, rules, replay) is not made here."""
    opened = _open(BytesSource(data, source))
    seen: dict[str, int] = {}
    lines = opened.entry_lines()
    with _chain_failures():
        chain, genesis = _start(opened, next(lines, None), lambda digest, _line: seen.get(digest))
        records = [genesis]
        seen[genesis.hash] = opened.first_line
        for raw in lines:
            record = chain.record(raw)
            seen[record.hash] = opened.first_line + len(records)
            records.append(record)
        chain.finish()
    return records, opened


def audit_bytes(data: bytes, source: str, checkpoints: Sequence[Checkpoint] = (),
                components: Callable[[str], Any] | None = None,
                workers: int | None = None) -> Report:
    """Audit ``data`` (an export or a log); ``components`` finds the game's component pack by
    digest (default: components.json beside ``source``). ``workers``: processes verifying
    lines and order files ahead of the walk (pbem.audit._parallel; None: one fewer than the
    cores for a large log, 0: none); the verdict is the same with any number."""
    return _audit(BytesSource(data, source), checkpoints, components, workers)


def _open(src: Source) -> Opened:
    try:
        return open_source(src)
    except ExportError as exc:
        raise AuditFailure(f"{src.name}: {exc}", line=exc.line, field="file") from None


@contextmanager
def _chain_failures() -> Iterator[None]:
    try:
        yield
    except LogError as exc:
        raise AuditFailure(f"the hash chain does not verify: {exc}", seq=exc.seq,
                           line=exc.line, field="hash chain") from None


def _start(opened: Opened, first: bytes | None,
           duplicate: Callable[[str, int], int | None]) -> tuple[ChainReader, Record]:
    """The chain reader past the genesis line, and the genesis record (the export header
    checked against it)."""
    source, header = opened.source.name, opened.header
    if first is None:
        raise AuditFailure(f"{source}: no log entries", field="file")
    if header is not None:
        referee = _genesis_referee(first, opened.first_line, source)
        try:
            header.verify(referee)
        except ExportError as exc:
            raise AuditFailure(f"{source} {exc}", line=1, field="header") from None
    chain = ChainReader(source, opened.first_line, header, duplicate)
    return chain, chain.record(first)


def _audit(src: Source, checkpoints: Sequence[Checkpoint],
           components: Callable[[str], Any] | None, workers: int | None) -> Report:
    """One pass over the lines: each is verified and linked (a chain failure is raised at
    once), then walked. A walk failure is kept and the chain verified to its end before it is
    raised, so the verdict is the one of verifying the whole chain first, then walking it."""
    opened = _open(src)
    source, header = src.name, opened.header
    lookup = LogLookup(opened)
    lines = opened.entry_lines()
    wanted = {cp.length - 1 for cp in checkpoints}
    if header is not None:
        wanted.add(header.checkpoint.length - 1)
    hashes: dict[int, str] = {}
    failed: Exception | None = None  # the walk's first failure, raised after the chain
    walker: Walker | None = None
    with _chain_failures():
        first = next(lines, None)
        chain, genesis = _start(opened, first, lookup.duplicate)
        if 0 in wanted:
            hashes[0] = genesis.hash
        secrets = Secrets()
        body = genesis.body if isinstance(genesis, Entry) else None
        try:
            if chance_enabled(body):
                secrets = lookup.secrets()
            walker = Walker(genesis, opened.line_of, components or components_beside(source),
                            lookup, secrets)
        except Exception as exc:  # noqa: BLE001 - raised in its turn, below
            failed = exc
        game_id = walker.game_id if walker is not None else ""
        keys_now = walker.keys_now if walker is not None else (lambda: (0, {}))
        stream = ahead(lines, opened.first_line + 1, source, game_id, keys_now,
                       workers_for(src.size, workers) if walker is not None else 0,
                       src.path(), opened.first_offset + len(first or b"") + 1)
        try:
            for raw, found in stream:
                record = chain.record(raw, found is not None and found.verified,
                                      None if found is None else found.fields())
                if record.seq in wanted:
                    hashes[record.seq] = record.hash
                if failed is not None or walker is None:
                    continue
                if secrets.last is not None and record.seq == secrets.last.seq and (
                        record.hash != secrets.last.hash):
                    raise PbemError(f"{source} changed while it was audited")
                try:
                    walker.visit(record, found, len(raw))
                except Exception as exc:  # noqa: BLE001 - raised once the chain verifies
                    failed = exc
        finally:
            stream.close()
        chain.finish()
    hashes[chain.count - 1] = chain.head
    if failed is not None and walker is None:
        raise failed
    assert walker is not None
    heads = _Heads(chain.count, hashes)
    if header is not None:  # before the walk's failure: a cut or extended file is reported
        _check_point(walker, heads, header.checkpoint, "the export's checkpoint", source)
    if failed is not None:
        raise failed
    tally = walker.finish(chain.count)
    report = Report(tally, source, header is not None, bool(header and header.public),
                    chain.head)
    if header is not None:
        report.checkpoints.append(f"the export header's {header.checkpoint.short()} is the "
                                  "head")
    for n, cp in enumerate(checkpoints, 1):
        _check_point(walker, heads, cp, f"--checkpoint #{n}", source)
        report.checkpoints.append(f"--checkpoint #{n} {cp.short()} is extended by this log")
    return report


@dataclass(frozen=True)
class _Head:
    seq: int
    hash: str


class _Heads(Sequence[_Head]):
    """The log as checkpoints see it (pbem.store.checkpoint.check_extends): its length and the
    hashes at the lengths the checkpoints name, kept while the lines went by."""

    def __init__(self, length: int, hashes: dict[int, str]) -> None:
        self._length = length
        self._hashes = hashes

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> _Head: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[_Head]: ...

    def __getitem__(self, index: int | slice) -> _Head | Sequence[_Head]:
        if isinstance(index, slice):
            raise TypeError("only the hashes at the checkpoints are kept")
        if index < 0:
            index += self._length
        return _Head(index, self._hashes[index])


def components_beside(source: str) -> Callable[[str], Any]:
    """The game's component pack: components.json beside the log or export (the game
    directory's own copy), checked by digest in the walk."""
    def find(digest: str) -> Any:
        try:
            return json.loads((Path(source).parent / COMPONENTS_NAME).read_bytes())
        except (OSError, ValueError):
            return None
    return find


def _genesis_referee(first: bytes, lineno: int, source: str) -> PublicKey:
    genesis = parse_entry(first, lineno, source)
    try:
        return PublicKey.parse(genesis.body["referee"])
    except (PbemError, KeyError, TypeError):
        raise AuditFailure(f"{source} line {lineno} (seq 0): the genesis entry has no "
                           "referee key", seq=0, line=lineno, field="referee") from None


def _check_point(walker: Walker, records: _Heads, cp: Checkpoint, what: str,
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
        last = cp.length - 1
        raise AuditFailure(f"{source} holds {n} entries but the referee's checkpoint in its "
                           f"header covers {cp.length}: the entries after seq {last} were "
                           "added after export", seq=cp.length, line=walker.line_of(cp.length),
                           field="checkpoint")
