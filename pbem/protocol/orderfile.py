"""The plain order file a player edits, and the per-power view the player's tool reads.

The order file is the YAML of docs/protocol.md (envelope plus ``orders:``), unsigned; ``pbem
orders sign`` turns it into the armored block that is mailed. The tool's edits (``depart``,
``reveal``) load it with the safe loader and write it back in one layout; the comment lines at
the top of the file are kept, other comments are not.

The view is the JSON the referee attaches to each report (``view.json``), computed from the game
state for one power: ``game`` (the game's id), ``game_id``, ``viewer``, ``turn`` (the turn the
next orders are for) and whatever else the game shows. What an order file's orders mean, and
the comments a game adds after them (``footer``), are the game's (its tool, pbem.game.tool).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pbem import atomic
from pbem.errors import PbemError
from pbem.protocol.armor import find_signed_blocks
from pbem.protocol.envelope import KEYS
from pbem.protocol.pyyaml import yaml
from pbem.protocol.safeyaml import load_order_yaml


class OrderFileError(PbemError):
    """An order file or view file cannot be read or written."""


def read_text(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise OrderFileError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise OrderFileError(f"{path} is not UTF-8 text") from None


def header_of(text: str) -> list[str]:
    """The comment lines at the top of an order file (kept when the tool rewrites it)."""
    out = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        out.append(line)
    return out


def load(path: Path) -> tuple[dict[str, Any], list[str]]:
    """An unsigned order file: (document, header comment lines). Raises Rejected or
    OrderFileError."""
    text = read_text(path)
    if find_signed_blocks(text):
        raise OrderFileError(f"{path} is already signed; edit the plain YAML file and sign again")
    return load_order_yaml(text), header_of(text)


def render(doc: dict[str, Any], header: list[str], footer: str = "") -> str:
    """The order file text: header comments, the envelope in protocol order, the orders, then
    ``footer`` (comment lines a game adds, e.g. how to write an order)."""
    ordered = {key: doc[key] for key in KEYS if key in doc}
    ordered.update((k, v) for k, v in doc.items() if k not in ordered)
    body = yaml.safe_dump(
        ordered, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000
    )
    return "".join(line + "\n" for line in header) + body + footer


def write(path: Path, text: str) -> None:
    """Replace ``path`` atomically (pbem.atomic: temp file, fsync, rename; mode 0600, the
    orders are private until they are resolved)."""
    atomic.write_text(path, text)


def hand_out(output: Path | None, armored: str, how: str) -> None:
    """A signed block for its player: on standard output, or written to ``output`` with a
    line saying so and how to mail it (``how``: "attached or pasted", ...)."""
    if output is None:
        sys.stdout.write(armored)
    else:
        write(output, armored)
        print(f"wrote {output}: mail it to the referee ({how})")


# -- the view -------------------------------------------------------------------------------------


def _view_from_mail(path: Path, raw: bytes) -> str | None:
    """The view.json attached to a saved report mail (.eml), if ``raw`` is one."""
    import email
    from email import policy

    if not raw.lstrip()[:1].isalpha():  # JSON starts with "{", a mail with a header name
        return None
    msg = email.message_from_bytes(raw, policy=policy.default)
    for part in msg.iter_attachments():
        name = part.get_filename() or ""
        if name == "view.json" or (name.startswith("view-") and name.endswith(".json")):
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                return payload.decode("utf-8")
    raise OrderFileError(f"{path} is a mail without a view.json attachment: save the report "
                         "mail the referee sent you (it carries view.json)")


def load_view(path: Path) -> dict[str, Any]:
    """A per-power view: view.json, a report JSON holding one under ``view``, or the report
    mail itself saved as a file (.eml), whose view.json attachment is read."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise OrderFileError(f"cannot read {path}: {exc.strerror}") from None
    text = _view_from_mail(path, raw)
    try:
        data = json.loads(text if text is not None else raw.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise OrderFileError(f"{path} is not JSON ({exc})") from None
    if isinstance(data, dict) and "viewer" not in data and isinstance(data.get("view"), dict):
        data = data["view"]
    if not isinstance(data, dict):
        raise OrderFileError(f"{path} is not a view (a JSON object)")
    missing = [k for k in ("game_id", "viewer", "turn") if k not in data]
    if missing:
        raise OrderFileError(f"{path} is not a view: it has no {', '.join(missing)}")
    if not isinstance(data["viewer"], str) or not data["viewer"]:
        raise OrderFileError(f"{path}: this is the public view; use the view sent to your power")
    return data


# -- the pre-filled form --------------------------------------------------------------------------
def form_envelope(view: dict[str, Any] | Any, seq: int) -> list[str]:
    """The envelope lines of a pre-filled order form (docs/protocol.md, "The envelope"), from
    a power's view carrying the game ``instance`` (as view.json and the presenter's views do):
    ``pbem``, ``game``, ``power``, ``turn``, ``seq``, ``instance``; the game writes ``orders:``
    after them."""
    return ["pbem: 1", f"game: {view['game_id']}", f"power: {view['viewer']}",
            f"turn: {view['turn']}", f"seq: {seq}", f"instance: {view['instance']}"]
