"""The plain order file a player edits, and the per-power view the player's tool reads.

The order file is the YAML of docs/protocol.md (envelope plus ``orders:``), unsigned; ``pbem
orders sign`` turns it into the armored block that is mailed. The tool's edits (``depart``,
``reveal``) load it with the safe loader and write it back in one layout; the comment lines at
the top of the file are kept, other comments are not.

The view is the JSON the referee attaches to each report (``view.json``), computed from the game
state for one power: ``game_id``, ``viewer``, ``turn`` (the turn the next orders are for),
``options``, ``stars``, ``warps``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from pbem import atomic
from pbem.errors import PbemError
from pbem.protocol.armor import find_signed_blocks
from pbem.protocol.envelope import KEYS
from pbem.protocol.safeyaml import load_order_yaml

DEPART_HINT = (
    "# To leave a star: pbem orders depart FILE --from STAR --to STAR --ships N|all\n"
    "# (it writes depart: {warp, from, ships, commitment} and keeps the destination in your "
    "vault)\n"
)


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
    return [line for line in out if not line.startswith(DEPART_HINT[:20])]


def load(path: Path) -> tuple[dict[str, Any], list[str]]:
    """An unsigned order file: (document, header comment lines). Raises Rejected or
    OrderFileError."""
    text = read_text(path)
    if find_signed_blocks(text):
        raise OrderFileError(f"{path} is already signed; edit the plain YAML file and sign again")
    return load_order_yaml(text), header_of(text)


def render(doc: dict[str, Any], header: list[str]) -> str:
    """The order file text: header comments, the envelope in protocol order, then the orders."""
    ordered = {key: doc[key] for key in KEYS if key in doc}
    ordered.update((k, v) for k, v in doc.items() if k not in ordered)
    body = yaml.safe_dump(
        ordered, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000
    )
    text = "".join(line + "\n" for line in header) + body
    orders = doc.get("orders")
    if not (isinstance(orders, dict) and "depart" in orders):
        text += DEPART_HINT
    return text


def write(path: Path, text: str) -> None:
    """Replace ``path`` atomically (pbem.atomic: temp file, fsync, rename; mode 0600, the
    orders are private until they are resolved)."""
    atomic.write_text(path, text)


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


def own_warps(view: dict[str, Any]) -> dict[int, dict[str, Any] | None]:
    """The viewer's warps by number: None for a warp at home, else its flight."""
    mine = (view.get("warps") or {}).get(view["viewer"]) or {}
    return {int(w): flight for w, flight in sorted(mine.items(), key=lambda kv: int(kv[0]))}


def warp_count(view: dict[str, Any] | None) -> int:
    if view is not None:
        warps = own_warps(view)
        if warps:
            return max(warps)
        count = (view.get("options") or {}).get("warps")
        if isinstance(count, int) and count > 0:
            return count
    return 2


def free_destinations(view: dict[str, Any] | None) -> bool:
    """Whether the game uses the free-destination rule (no commitments)."""
    return view is not None and (view.get("options") or {}).get("destinations") == "free"
