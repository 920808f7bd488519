"""The chance block a step publishes, and recomputing its public draws from it.

A report carries, for each step that drew in public, one JSON object (attached as
``chance-step-T.json``, type ``application/json``, or pasted between ``-----BEGIN PBEM
CHANCE-----`` and ``-----END PBEM CHANCE-----``)::

    {"pbem_chance": 1, "game": "andromeda-7", "step": 3,
     "referee": "<r_t, 64 hex>",
     "players": {"algol": "<e_t, 64 hex>", "regulus": null},
     "public_seed": "<S_pub, 64 hex>",
     "tips": {"referee": "<genesis referee_tip>", "players": {"algol": "<tip>"}},
     "draws": [{"label": "battle:Vega", "kind": "roll", "faces": [1,2,3,4,5,6], "count": 3,
                "result": [6, 2, 5]},
               {"label": "first-player", "kind": "below", "n": 4, "result": 2},
               {"label": "setup:order", "kind": "shuffle", "n": 4, "result": [2, 0, 3, 1]}]}

``players`` names every due power (``null``: no value this step). ``public_seed`` and ``tips``
are optional; when present they are checked too. ``verify_block`` recomputes S_pub and replays
the draws in order on fresh streams, and names the first one that differs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from email import policy
from email.parser import BytesParser
from typing import Any

from pbem.chance.chain import iterate
from pbem.chance.errors import ChanceError, ChanceMismatch
from pbem.chance.step import BLOCK_VERSION, StepChance

BEGIN = "-----BEGIN PBEM CHANCE-----"
END = "-----END PBEM CHANCE-----"
_ARMORED = re.compile(re.escape(BEGIN) + r"\s*\n(.*?)\n\s*" + re.escape(END), re.S)
MAX_WORK = 1_000_000  # rolls plus shuffled items one block may ask to recompute


def armor(block: Mapping[str, Any]) -> str:
    """The block as pasted into a mail's text."""
    return f"{BEGIN}\n{json.dumps(block, sort_keys=True, indent=1)}\n{END}\n"


def _hex32(value: object, where: str) -> bytes:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise ChanceError(f"{where}: must be 64 lower-case hex digits, not {str(value)[:70]!r}")
    return bytes.fromhex(value)


def _int(value: object, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ChanceError(f"{where}: must be a whole number >= {low}, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Verified:
    game: str
    step: int
    draws: int
    public_seed: bytes

    def line(self) -> str:
        return (f"{self.game} step {self.step}: all {self.draws} public draws match "
                f"(public seed {self.public_seed.hex()[:16]}…)")


def _check_draw(i: int, draw: object) -> dict[str, Any]:
    where = f"draws[{i}]"
    if not isinstance(draw, dict):
        raise ChanceError(f"{where}: must be a mapping")
    if not isinstance(draw.get("label"), str) or not draw["label"]:
        raise ChanceError(f"{where}.label: must be a non-empty string")
    kind = draw.get("kind")
    if kind == "roll":
        faces = draw.get("faces")
        if (not isinstance(faces, list) or not faces
                or any(isinstance(f, bool) or not isinstance(f, int) for f in faces)):
            raise ChanceError(f"{where}.faces: must be a non-empty list of whole numbers")
        _int(draw.get("count"), f"{where}.count", 0)
    elif kind in ("below", "shuffle"):
        _int(draw.get("n"), f"{where}.n", 1 if kind == "below" else 0)
    else:
        raise ChanceError(f"{where}.kind: must be below, roll or shuffle, not {kind!r}")
    if "result" not in draw:
        raise ChanceError(f"{where}.result: missing")
    return draw


def _work(draw: dict[str, Any]) -> int:
    return int(draw["count"]) if draw["kind"] == "roll" else int(draw.get("n", 1)) + 1


def verify_block(block: object, referee_tip: bytes | None = None) -> Verified:
    """Recompute a published step; raise ChanceMismatch at the first value that differs.

    ``referee_tip`` (the genesis tip as the player knows it) is checked against r_t besides any
    tips the block itself carries.
    """
    if not isinstance(block, dict) or block.get("pbem_chance") != BLOCK_VERSION:
        raise ChanceError(f"not a version-{BLOCK_VERSION} pbem chance block")
    game = block.get("game")
    if not isinstance(game, str) or not game:
        raise ChanceError("game: must be a non-empty string")
    step = _int(block.get("step"), "step", 1)
    referee = _hex32(block.get("referee"), "referee")
    raw_players = block.get("players")
    if not isinstance(raw_players, dict):
        raise ChanceError("players: must be a mapping of power to value or null")
    players = {str(p): (None if v is None else _hex32(v, f"players.{p}"))
               for p, v in raw_players.items()}
    draws = block.get("draws")
    if not isinstance(draws, list):
        raise ChanceError("draws: must be a list")
    checked = [_check_draw(i, d) for i, d in enumerate(draws)]
    if sum(_work(d) for d in checked) > MAX_WORK:
        raise ChanceError(f"draws: more than {MAX_WORK} values to recompute")

    tips: dict[str, Any] = block.get("tips") or {}
    if not isinstance(tips, dict):
        raise ChanceError("tips: must be a mapping")
    wanted = [("referee", referee, referee_tip)]
    if "referee" in tips:
        wanted.append(("referee", referee, _hex32(tips["referee"], "tips.referee")))
    tip_players = tips.get("players") or {}
    if not isinstance(tip_players, dict):
        raise ChanceError("tips.players: must be a mapping of power to tip")
    for power, tip in tip_players.items():
        value = players.get(power)
        if value is not None:
            wanted.append((power, value, _hex32(tip, f"tips.players.{power}")))
    for who, value, tip in wanted:
        if tip is not None and iterate(value, step) != tip:
            raise ChanceMismatch(f"{who}: the value for step {step} does not hash to the "
                                 "committed tip")

    chance = StepChance(game, step, referee, players)
    if "public_seed" in block:
        published_seed = _hex32(block["public_seed"], "public_seed")
        if published_seed != chance.public_seed:
            raise ChanceMismatch(f"public_seed: the report says {published_seed.hex()[:16]}…, "
                                 f"the inputs give {chance.public_seed.hex()[:16]}…")
    for i, draw in enumerate(checked):
        stream = chance.public(draw["label"])
        got: Any
        if draw["kind"] == "below":
            got = stream.below(draw["n"])
        elif draw["kind"] == "roll":
            got = stream.roll(draw["faces"], draw["count"])
        else:
            got = stream.shuffle(list(range(draw["n"])))
        if got != draw["result"]:
            raise ChanceMismatch(f"draw {i + 1} ({draw['label']!r}, {draw['kind']}) differs: "
                                 f"the report says {draw['result']!r}, recomputed {got!r}")
    return Verified(game, step, len(checked), chance.public_seed)


def _json_block(data: bytes | str) -> Any:
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) and "pbem_chance" in value else None


def find_blocks(raw: bytes, name: str = "input") -> list[Any]:
    """Every chance block in ``raw``: a bare JSON file, or a mail (attachments of type
    application/json or named ``*.json``, and armored blocks in its text parts)."""
    if raw.lstrip()[:1] == b"{":
        block = _json_block(raw)
        if block is None:
            raise ChanceError(f"{name}: JSON, but not a pbem chance block")
        return [block]
    found: list[Any] = []
    message = BytesParser(policy=policy.default).parsebytes(raw)
    for part in message.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        ctype, filename = part.get_content_type(), part.get_filename() or ""
        if ctype in ("application/json", "application/vnd.pbem.chance+json") \
                or filename.endswith(".json"):
            block = _json_block(payload)
            if block is not None:
                found.append(block)
        elif ctype == "text/plain":
            text = payload.decode(part.get_content_charset() or "utf-8", errors="replace")
            for match in _ARMORED.finditer(text):
                block = _json_block(match.group(1))
                if block is None:
                    raise ChanceError(f"{name}: an armored chance block is not valid JSON")
                found.append(block)
    if not found:
        raise ChanceError(f"{name}: no pbem chance block: no dice were drawn in what it "
                          "reports (a game without dice, a step that draws none, a welcome or "
                          "receipt mail); the report of a step that draws dice carries it as "
                          "chance-step-N.json")
    return found
