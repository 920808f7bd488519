"""``pbem audit``: verify a whole game from its export or its directory and name the first lie
(docs/audit.md).

In order, stopping at the first disagreement (an :class:`AuditFailure` naming the entry: seq,
file line, turn, power, field, what was expected and what was found):

1. the genesis entry (its hash, format, plugin, keys, and the initial state re-made by the rules
   core) and, for an export, the referee's signature over its header;
2. the hash chain over every line (pbem.store.log's rules; a withheld record's hash is finished from
   its SHA-256 midstate);
3. the walk from genesis (:mod:`pbem.audit._walk`): every order file's signature against the
   key registered for its power at that point (genesis, then referee-signed ``key`` entries),
   that the entry holds exactly what was signed, the turn and seq rules of acceptance, the rules
   core's own order check (commitments opened by reveals, arrival distances); every escrow
   opening against what the rules core makes of it; every resolution replayed with
   ``engine.replay_resolution`` (recorded state digest and events), after holding the order
   files it used to the rule (:mod:`pbem.audit._used`: for each power due, the highest-seq
   file accepted since the previous resolution, or the standing orders where none was; in a
   public export, over the referee's signed public claims); every gm entry's signature
   and the state change of concede and end;
4. the export's checkpoint (the referee-signed head), then every checkpoint a player kept.

The log is read once, as a stream, with flat memory: each line is verified and then walked, and
a walk failure is raised only once the rest of the chain verifies, so the verdict is that of the
order above (docs/audit.md, "How the audit reads a log"); worker processes verify lines and
order files ahead of the walk where the machine has spare cores (:mod:`pbem.audit._parallel`).

:mod:`pbem.audit.receipts` checks one player's receipt against a log (``pbem verify-receipt``).
"""

from __future__ import annotations

from pbem.audit.verify import (
    AuditFailure,
    Report,
    audit_bytes,
    audit_path,
    read_checkpoint,
    read_source,
    verified_records,
)

__all__ = ["AuditFailure", "Report", "audit_bytes", "audit_path", "read_checkpoint",
           "read_source", "verified_records"]
