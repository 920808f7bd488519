"""``pbem export``: one self-contained, referee-signed file holding a whole game (docs/audit.md).

The file is JSON lines. Line 1 is the header, every other line one log entry::

  {"checkpoint":{"head":…,"length":N,"sig":…},"format":"pbem-export-v1","game":…,
   "public":false,"signature":…,"withheld":{}}
  <log.jsonl line for seq 0, byte for byte>
  <log.jsonl line for seq 1, byte for byte, or its withheld record>
  …

* An entry line is exactly its line in log.jsonl, so its hash and the chain verify as they do
  there (pbem.store.log). The genesis entry holds the config, every power's public key, the
  referee's public key, the plugin, variant and options and the initial state digest; ``orders``
  entries hold each accepted order file with its signature; ``resolve`` entries every resolution,
  escrow opening and event; ``gm`` and ``key`` entries the referee-signed operations.
* ``checkpoint`` is the referee's signed checkpoint of the head (pbem.store.checkpoint): a player
  can compare it with the ones in their mail, and a truncated or extended file no longer matches.
* ``signature`` is the referee's signature (domain ``pbem-export-v1``) over the header without
  it; ``withheld`` maps the seq of each withheld record to the SHA-256 of its line, so the
  referee stands by every byte of the file, the public claims of withheld entries included.
* Every line is canonical JSON (sorted keys, no spaces): a reader re-encodes and compares, so no
  byte can change without the change being seen.

``--public`` (:func:`withhold`) replaces each ``orders``, ``resolve`` and private ``press``
entry (:func:`withheld_press`) by a *withheld
record*: ``{"hash","kind","prev","seq","time","withheld":{"fields","public","sha256"}}``.
``fields`` names what was left out, ``public`` keeps what every player was told anyway (for a
resolution: turn, powers due, state digest, deadline, the public events and which powers sent
orders) and what the audit needs to hold every resolution to the orders-used rule without
revealing an order file (its power, turn and seq; which ``orders`` entry each resolution used,
by log seq, and which were stale), and ``sha256`` (order files only; null for resolutions,
see :func:`withhold`) is the SHA-256 midstate of the hidden body (pbem.audit.sha256mid), from
which anyone can finish the entry's hash over its seq, kind, time and prev.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import atomic, canonical
from pbem.audit import sha256mid
from pbem.errors import PbemError
from pbem.game import registry
from pbem.game.plugin import GamePlugin
from pbem.numbers import digits
from pbem.protocol.keys import BadSignature, PrivateKey, PublicKey
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.checkpoint import Checkpoint
from pbem.store.gamedir import GameDir
from pbem.store.log import Entry
from pbem.store.referee import referee_key

if TYPE_CHECKING:
    from pbem.game.shapes import GameView

FORMAT = "pbem-export-v1"
DOMAIN = "pbem-export-v1"
PAYLOAD_TYPE = "application/vnd.pbem.export+json"
HEADER_FIELDS = frozenset({"format", "game", "public", "checkpoint", "withheld", "signature"})
RECORD_FIELDS = frozenset({"seq", "prev", "kind", "time", "hash", "withheld"})
WITHHELD_KINDS = (replay.ORDERS, replay.RESOLVE, replay.PRESS)
_BODY_OPEN = b'{"body":'
_NULL_BODY = b'{"body":null'


class ExportError(PbemError):
    """An export file cannot be written or read (its header or a line is malformed)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(message)


# -- withheld records ---------------------------------------------------------------------------
def link_suffix(kind: str, prev: str, seq: int, time: str) -> bytes:
    """The bytes of an entry's hash input after its body: kind, prev, seq and time."""
    enc = canonical.encode({"body": None, "kind": kind, "prev": prev, "seq": seq, "time": time})
    return enc[len(_NULL_BODY):]


def record_hash(mid: sha256mid.Midstate, kind: str, prev: str, seq: int, time: str) -> str:
    """The entry hash a withheld record stands for, finished from its midstate."""
    return sha256mid.finish(mid, link_suffix(kind, prev, seq, time))


def withheld_record(entry: Entry, fields: list[str], public: GameView, *,
                    midstate: bool = True) -> dict[str, Any]:
    """The record standing for ``entry``; with ``midstate`` it carries the SHA-256 state from
    which its hash can be finished (this publishes the last ``len % 64`` bytes of the body)."""
    sha: dict[str, Any] | None = None
    if midstate:
        mid = sha256mid.midstate(glog.DOMAIN + _BODY_OPEN + canonical.encode(entry.body))
        if record_hash(mid, entry.kind, entry.prev, entry.seq, entry.time) != entry.hash:
            raise ExportError(f"entry seq {entry.seq}: its hash does not follow from its body")
        sha = {"state": mid.state_hex(), "length": mid.length, "tail": mid.tail.hex()}
    return {
        "seq": entry.seq, "prev": entry.prev, "kind": entry.kind, "time": entry.time,
        "hash": entry.hash,
        "withheld": {"fields": fields, "public": public, "sha256": sha},
    }


NOT_LOGGED = "no orders entry holds it"
"""A public resolution record's ``used`` value for a digest no ``orders`` entry holds."""

Locate = Callable[[str, str, int], "int | str"]
"""(digest, power, resolution seq) -> log seq of the ``orders`` entry holding it, or NOT_LOGGED."""


def nearest_order(refs: Iterable[tuple[int, str]], power: str, at: int) -> int | str:
    """Of the ``orders`` entries (log seq, power) holding one digest, the one a resolution at
    log seq ``at`` names for ``power``: the same power's first, then one logged before ``at``,
    then the nearest. One rule for the exporter and the audit, so both name the same entry."""
    best = min(refs, key=lambda r: (r[1] != power, r[0] > at, abs(at - r[0])), default=None)
    return NOT_LOGGED if best is None else best[0]


def locator(entries: Iterable[Entry]) -> Locate:
    """Where each order file digest of the log was logged (for :func:`withhold`)."""
    by_sha: dict[str, list[tuple[int, str]]] = {}
    for e in entries:
        if e.kind == replay.ORDERS and isinstance(e.body, dict):
            by_sha.setdefault(str(e.body.get("sha256")), []).append(
                (e.seq, str(e.body.get("power"))))
    return lambda sha, power, at: nearest_order(by_sha.get(sha, ()), power, at)


def withhold(entry: Entry, plugin: GamePlugin,
             locate: Locate | None = None) -> dict[str, Any] | None:
    """The withheld record a public export puts in place of ``entry``; None: keep it whole.

    ``orders``: the whole signed order file and its parse (cooperation orders, escrow blobs,
    reveals; its digest could confirm a guess of the text). Kept public: its power, turn and
    seq, and its midstate (the body is padded to a bucket, pbem.store.replay.padded, so the
    midstate tells only the bucket of its length and publishes no byte of it: a 1.0 log pads
    every order entry, and the audit refuses one that is not). ``resolve``: which order file
    each power's orders came from (digests, as above), escrow openings (a reveal opened but not
    due is still secret), the problems of stale submissions (they quote orders) and every event
    addressed to some powers only; kept public: what every player's report showed, and which
    ``orders`` entry (by log seq, from ``locate``) each power's orders came from and which
    powers' orders were stale, so the audit can hold every resolution to the rule of
    pbem.audit._used. No midstate: its last bytes are the digest of an order file (``used``
    sorts last), so its hash stays a claim the referee signs, anchored by the checkpoints
    players got in their reports.
    """
    body = entry.body
    if entry.kind == replay.PRESS:
        return withheld_press(entry)
    if entry.kind == replay.ORDERS:
        shown = {k: body.get(k) for k in ("turn", "power", "seq")}
        return withheld_record(entry, sorted(k for k in body if k not in shown), shown)
    if entry.kind == replay.RESOLVE:
        events = body.get("events", [])
        shown_events = plugin.view_events(events, None)
        hidden = [f"events[{i}]" for i, e in enumerate(events) if e not in shown_events]
        fields = sorted(k for k in body if k in ("used", "escrow", "stale")) + hidden
        used = body.get("used", {})
        locate = locate or (lambda sha, power, at: NOT_LOGGED)
        public = {
            "turn": body.get("turn"), "due": body.get("due"), "state": body.get("state"),
            "deadline": body.get("deadline"), "events": shown_events,
            "orders": {p: sha is not None for p, sha in used.items()},
            "used": {p: None if sha is None else locate(str(sha), p, entry.seq)
                     for p, sha in used.items()},
            "stale": sorted(body.get("stale") or {}),
        }
        if body.get("listens"):
            public["listens"] = body["listens"]
        return withheld_record(entry, fields, public, midstate=False)
    return None


def withheld_press(entry: Entry) -> dict[str, Any] | None:
    """``press``: private press is withheld whole (sender, recipients and text: who talks to
    whom is itself a secret), with its midstate so the chain still verifies (the body is padded,
    so no byte of it is published); white press to all is what every player read: kept whole."""
    messages = entry.body.get("messages") if isinstance(entry.body, dict) else None
    if isinstance(messages, list) and messages and all(
            isinstance(m, dict) and m.get("to") == ["all"] and not m.get("anonymous")
            for m in messages):
        return None
    return withheld_record(entry, sorted(entry.body), {"turn": entry.body.get("turn")})


# -- the header ---------------------------------------------------------------------------------
def _b64(sig: bytes) -> str:
    return base64.urlsafe_b64encode(sig).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def header_payload(header: dict[str, Any]) -> bytes:
    return canonical.encode({k: v for k, v in header.items() if k != "signature"})


def make_header(key: PrivateKey, game: str, entries: list[Entry], public: bool,
                withheld: dict[str, str]) -> dict[str, Any]:
    head = glog.head_of(entries)
    cp = Checkpoint.sign(key, game, head.length, head.hash)
    header: dict[str, Any] = {
        "format": FORMAT, "game": game, "public": public,
        "checkpoint": {"length": cp.length, "head": cp.head, "sig": _b64(cp.signature)},
        "withheld": withheld,
    }
    header["signature"] = key.sign(DOMAIN, PAYLOAD_TYPE, header_payload(header)).hex()
    return header


@dataclass(frozen=True)
class Header:
    game: str
    public: bool
    checkpoint: Checkpoint
    withheld: dict[int, str]  # seq -> SHA-256 of the withheld record's line
    data: dict[str, Any]

    def verify(self, referee: PublicKey) -> None:
        """Raise ExportError unless the referee signed this header (checkpoint included)."""
        try:
            referee.verify(DOMAIN, PAYLOAD_TYPE, header_payload(self.data),
                           bytes.fromhex(str(self.data["signature"])))
        except (BadSignature, ValueError):
            raise ExportError("the header's signature is not the referee's: the header "
                              "(its checkpoint or its list of withheld lines) was changed "
                              "after export", 1) from None


def parse_header(raw: bytes) -> Header:
    def bad(why: str) -> ExportError:
        return ExportError(f"line 1 (the export header): {why}", 1)

    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise bad("not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not a {FORMAT} header")
    if data.keys() != HEADER_FIELDS:
        raise bad(f"expected the fields {sorted(HEADER_FIELDS)}, found {sorted(data)}")
    if canonical.encode(data) != raw:
        raise bad("not in canonical form (its bytes were altered)")
    cp, withheld = data["checkpoint"], data["withheld"]
    if (not isinstance(cp, dict) or cp.keys() != {"length", "head", "sig"}
            or not isinstance(data["public"], bool) or not isinstance(data["game"], str)
            or not isinstance(cp["sig"], str) or not isinstance(cp["head"], str)
            or not isinstance(withheld, dict)
            or not all(digits(k) is not None and isinstance(v, str)
                        for k, v in withheld.items())):
        raise bad("malformed checkpoint, game, public or withheld field")
    try:
        sig = _unb64(cp["sig"])
        checkpoint = Checkpoint(data["game"], cp["length"], cp["head"], sig)
    except (binascii.Error, ValueError, PbemError) as exc:
        raise bad(f"malformed checkpoint ({exc})") from None
    return Header(data["game"], data["public"], checkpoint,
                  {int(k): v for k, v in withheld.items()}, data)


# -- writing and reading --------------------------------------------------------------------------
def export_lines(game: GameDir, key: PrivateKey, public: bool) -> list[bytes]:
    """Every line of the export of ``game`` (newlines included), header first."""
    plugin = registry.load(game.genesis["plugin"])
    return lines_of(list(game.log.entries), plugin, game.game_id, key, public)


def lines_of(entries: list[Entry], plugin: GamePlugin, game_id: str, key: PrivateKey,
             public: bool) -> list[bytes]:
    """Every line of the export of the log ``entries`` (newlines included), header first."""
    lines: list[bytes] = []
    withheld: dict[str, str] = {}
    locate = locator(entries)
    for entry in entries:
        record = withhold(entry, plugin, locate) if public else None
        if record is None:
            lines.append(entry.line())
        else:
            line = canonical.encode(record) + b"\n"
            withheld[str(entry.seq)] = hashlib.sha256(line).hexdigest()
            lines.append(line)
    header = make_header(key, game_id, entries, public, withheld)
    return [canonical.encode(header) + b"\n", *lines]


@dataclass(frozen=True)
class ExportSummary:
    path: Path
    entries: int
    withheld: int
    checkpoint: Checkpoint


def export_game(gamedir: Path | str, out: Path | str, *, public: bool = False) -> ExportSummary:
    """Write the export of the game at ``gamedir`` to ``out`` (atomically), signed with the
    referee key of its root. The export is audited first: the referee never signs a log the
    audit would reject (ExportError with the audit's reason, and nothing is written)."""
    from pbem.audit.verify import (  # verify imports this module
        AuditFailure,
        audit_bytes,
        components_beside,
    )

    game = GameDir.open(gamedir, full=True)  # the whole chain: never a trusted point
    key, _ = referee_key(game.root)
    if PublicKey.parse(game.genesis["referee"]) != key.public:
        raise ExportError(f"{game.root}/referee.key is not the key this game was started with")
    lines = export_lines(game, key, public)
    try:
        # the game directory's own component pack, wherever the export is written
        audit_bytes(b"".join(lines), str(out),
                    components=components_beside(str(game.path / "log.jsonl")))
    except AuditFailure as exc:
        raise ExportError(f"{game.path}: not exported, the log fails its audit: {exc}") from None
    atomic.write_bytes(Path(out), b"".join(lines))
    header = parse_header(lines[0].rstrip(b"\n"))
    return ExportSummary(Path(out), len(lines) - 1, len(header.withheld), header.checkpoint)
