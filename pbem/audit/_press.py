"""The audit of ``press`` log entries: each holds a press file its power really signed.

Press never changes the state, so the walk only checks authenticity and form: the signed block
verifies with the power's registered key (domain ``pbem-press-v1``) and the entry describes the
file it holds (power, turn, digest, key, messages).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.errors import Rejected
from pbem.protocol.keys import PublicKey
from pbem.protocol.pressdoc import verify_press

PRESS_FIELDS = frozenset({"turn", "power", "sha256", "text", "messages", "received",
                          "message_id", "key", "pad"})


def press_problem(body: object, game_id: str,
                  keys: Mapping[str, PublicKey]) -> tuple[str, str, str] | None:
    """None if the entry is sound, else (field, expected, found) for the audit's failure line."""
    if not isinstance(body, dict) or body.keys() != PRESS_FIELDS:
        found = sorted(body) if isinstance(body, dict) else type(body).__name__
        return "body", f"the fields {sorted(PRESS_FIELDS)}", str(found)
    power = body["power"]
    if power not in keys:
        return "power", f"one of {', '.join(keys)}", str(power)
    by_fp = {k.fingerprint: k for k in keys.values()}

    def keys_for(game: str, p: str) -> tuple[PublicKey, ...]:
        return (keys[p],) if game == game_id and p in keys else ()

    try:
        v = verify_press(str(body["text"]), keys_for, fingerprints=by_fp)
    except Rejected as exc:
        return "text", f"a press file signed by {power}", "; ".join(str(p) for p in exc.problems)
    recorded = {"game": v.game, "power": v.power, "turn": v.turn, "sha256": v.sha256,
                "key": v.key_fingerprint, "messages": [m.to_data() for m in v.messages]}
    expected = {"game": game_id, "power": power, "turn": body["turn"], "sha256": body["sha256"],
                "key": body["key"], "messages": body["messages"]}
    for name, want in expected.items():
        if recorded[name] != want:
            return name, f"{want} (as the entry records it)", f"{recorded[name]} in the signed file"
    return None
