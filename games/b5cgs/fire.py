"""The Fire phase (D5): volleys, arcs and ranges, Long Range Support (H1), the Defense Grid
(H2.1), War Tokens (B4.51), once per firing token and once per target (D5.52, D5.53).

The order file lists the volleys; they are tried in order (D5.51: "1 target at a time, in any
order you choose"). A volley names its target, its firing tokens and ``else`` targets: when the
target is gone (destroyed by an earlier volley or a hex), already targeted, or out of range and
arc of every firing token, the next ``else`` target is tried with the same firing tokens; if
none fits, the volley is void and its tokens have not fired. A token that already fired is left
out of a later volley (the checker rejects such orders; the resolution skips it if one slips
through).

Per firing token: each weapon type (heavy range 2, lasers range 1, D5.3) scores its value on
the token's current side when the target is in range and in one of that weapon's arcs (D5.4,
hexes.in_firing_arc: spines included, D5.43); at range 2 or more a Long Range Support die caps
it (H1: 1B5 at range 2, 1DG of the firing token's empire at 3+). The volley's total less the
target's Defense Grid die (the target token's empire, generic if none: H2, B5.22) is applied
by damage.apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.checker import unknown_keys

from . import board, damage
from . import hexes as hx
from .rulings import cite
from .setup import MAIL_BY_TOUCH, rules_version

#: From this rules version a Long Range Support roll's reason names the weapon's points and the
#: roll as the cap, and a volley's damage cause counts volleys from 1 (RULES.md W1); earlier
#: versions' events keep their words (a resolution's events are part of the log's digest).
WORDS_AS_COUNTED = 3

Event = dict[str, Any]
RANGES = {"heavy": 2, "laser": 1}          # D5.31, D5.32
VOLLEY_KEYS = ("target", "with", "else")
MAX_VOLLEYS = 40
MAX_ELSE = 5
MAX_WITH = 12


def _roll(chance: Any, label: str, die: str, faces: list[int], count: int, why: str
          ) -> tuple[list[int], Event]:
    """One labelled public roll and its event (STATE.md: every roll is listed)."""
    result = [int(x) for x in chance.public(label).roll(faces, count)]
    return result, {"type": "roll", "label": label, "die": die, "faces": list(faces),
                    "count": count, "result": list(result), "for": why}


def dg_die(st: Mapping[str, Any], ttype: str) -> tuple[str, list[int]]:
    """The Defense Grid die of a token's empire, the generic die for generic tokens (B5.22-24)."""
    dice = st["pack"]["dice"]["dg"]
    empire = board.spec(st, ttype).get("empire") or "generic"
    if empire not in dice:
        empire = "generic"
    return f"dg:{empire}", list(dice[empire])


def weapons(st: Mapping[str, Any], shooter: str, target: str) -> dict[str, int]:
    """Each weapon type of ``shooter`` able to hit ``target`` now (in range and arc) and its
    value on the shooter's current side; range in ``"range"``."""
    tok, tgt = st["tokens"][shooter], st["tokens"][target]
    a, b = hx.parse(tok.get("hex")), hx.parse(tgt.get("hex"))
    if a is None or b is None:
        return {}
    spec = board.spec(st, tok["type"])
    rng = hx.distance(a, b)
    out: dict[str, int] = {}
    for weapon, reach in RANGES.items():
        value = int((spec.get(weapon) or [0, 0])[board.side(tok)])
        if value <= 0 or rng < 1 or rng > reach:
            continue
        arcs = (spec.get("arcs") or {}).get(weapon)
        if not arcs:
            continue
        sides = list(hx.SIDES) if arcs == "all" else list(arcs)
        facing = tok.get("facing") or 1
        if hx.in_firing_arc(a, int(facing), sides, b):
            out[weapon] = value
    if out:
        out["range"] = rng
    return out


def why_not_target(st: Mapping[str, Any], power: str, target: object) -> str | None:
    """Why ``target`` cannot be declared now (D5.1: a token with a defense rating; D5.53)."""
    if not isinstance(target, str) or target not in st["tokens"]:
        return f"{str(target)[:20]} is not in play"
    tok = st["tokens"][target]
    if tok.get("hex") is None:
        return f"{target} is not on the map"
    if not board.spec(st, tok["type"]).get("dr"):
        return f"{target} has no defense rating (D5.1)"
    if tok.get("owner") == power:
        return f"{target} is your own {cite('E6')}"
    if target in st.get("flags", {}).get("targeted", []):
        return f"{target} was already targeted this turn (D5.53)"
    return None


def _listed(value: object) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def firing_tokens(st: Mapping[str, Any], power: str, volley: Mapping[str, Any]
                  ) -> tuple[list[str], list[tuple[Any, str]]]:
    """The tokens of ``volley`` that fire (the player's units on the map that have not fired
    this turn, D5.52) and each one left out with the reason. The referee's rule, which the
    player's check runs too (orders.py) on the board his orders leave."""
    fired = st.get("flags", {}).get("fired", [])
    shooters: list[str] = []
    skipped: list[tuple[Any, str]] = []
    for t in _listed(volley.get("with")):
        tok = st["tokens"].get(t) if isinstance(t, str) else None
        if tok is None or tok.get("owner") != power or not board.is_unit(st, tok):
            skipped.append((t, "not one of your units on the map"))
        elif t in fired or t in shooters:
            skipped.append((t, "already fired this turn (D5.52)"))
        else:
            shooters.append(str(t))
    return shooters, skipped


def choose_target(st: Mapping[str, Any], power: str, volley: Mapping[str, Any],
                  shooters: list[str]) -> tuple[str | None, list[dict[str, Any]]]:
    """The first of the volley's target and ``else`` targets that may be declared now and is
    in range and arc of a firing token (D5.41), and every one passed over with the reason.
    The referee's rule, which the player's check runs too (orders.py)."""
    tried: list[dict[str, Any]] = []
    for target in [volley.get("target"), *_listed(volley.get("else"))]:
        reason = why_not_target(st, power, target)
        if reason is None and not any(weapons(st, s, str(target)) for s in shooters):
            reason = f"{target} is out of range or arc of every firing token (D5.41)"
        if reason is None:
            return str(target), tried
        tried.append({"target": target, "reason": reason})
    return None, tried


def fire(st: dict[str, Any], power: str, section: list[Any] | None, chance: Any
         ) -> list[Event]:
    """D5 for the current player on the working copy ``st``; returns the events."""
    events: list[Event] = []
    st.setdefault("flags", {"moved": [], "fired": [], "targeted": []})
    for i, volley in enumerate(section if isinstance(section, list) else []):
        if not isinstance(volley, Mapping):
            continue
        shooters, skipped = firing_tokens(st, power, volley)
        events += [{"type": "fire_skipped", "power": power, "volley": i, "token": t,
                    "reason": reason} for t, reason in skipped]
        chosen, tried = choose_target(st, power, volley, shooters)
        if chosen is None:
            events.append({"type": "volley_void", "power": power, "volley": i,
                           "tried": tried})
            continue
        events += _volley(st, power, i, chosen, shooters, tried, chance)
    return events


def _volley(st: dict[str, Any], power: str, i: int, target: str, shooters: list[str],
            tried: list[dict[str, Any]], chance: Any) -> list[Event]:
    flags = st["flags"]
    tgt = st["tokens"][target]
    owner = tgt.get("owner")
    events: list[Event] = [{"type": "volley", "power": power, "volley": i, "target": target,
                            "target_type": tgt["type"], "target_owner": owner,
                            "with": list(shooters), "passed_over": tried}]
    if (owner and owner != power and owner in st["powers"]
            and rules_version(st) >= MAIL_BY_TOUCH):  # he hears of it at once (R23)
        events.append({"type": "under_fire", "power": owner, "by": power, "target": target})
    flags["targeted"].append(target)
    flags["fired"].extend(shooters)
    if owner and owner != power and owner in st["powers"]:          # B4.51
        held = st["powers"][owner].setdefault("war_tokens", [])
        if power not in held:
            held.append(power)
            events.append({"type": "war_token", "from": power, "to_power": owner})
    counted = rules_version(st) >= WORDS_AS_COUNTED  # RULES.md W1
    total = 0
    scores: dict[str, dict[str, int]] = {}
    for s in shooters:
        got = weapons(st, s, target)
        rng = got.pop("range", 0)
        for weapon, value in sorted(got.items()):
            if rng >= 2:                                               # H1
                if rng == 2:
                    die, faces = "b5", list(st["pack"]["dice"]["b5"])
                else:
                    die, faces = dg_die(st, st["tokens"][s]["type"])
                why = (f"Long Range Support, {s}'s {weapon} of {value} at range {rng} (H1): "
                       "it scores at most the roll" if counted else
                       f"Long Range Support, {s}'s {weapon} at range {rng} (H1): at most {value}")
                (cap,), ev = _roll(chance, f"fire{i}:lrs:{s}:{weapon}", die, faces, 1, why)
                events.append(ev)
                value = min(value, cap)
            scores.setdefault(s, {})[weapon] = value
            total += value
    dg = 0
    if total > 0:
        die, faces = dg_die(st, tgt["type"])
        (dg,), ev = _roll(chance, f"fire{i}:dg", die, faces, 1,
                          f"Defense Grid of {target} against a volley of {total} (H2.1)")
        events.append(ev)
    applied = max(0, total - dg)
    events.append({"type": "volley_total", "power": power, "volley": i, "target": target,
                   "scores": scores, "total": total, "dg": dg, "damage": applied})
    events += damage.apply(st, target, applied,
                           f"volley {i + 1 if counted else i} of {power}")
    return events


def check_fire(section: object, view: Mapping[str, Any],
               after: dict[str, Any] | None = None) -> tuple[list[Any], list[Problem]]:
    """The ``fire`` section against the player's view: each volley's firing tokens are the
    player's units, no token in two volleys (D5.52), no target named as the first choice of two
    volleys (D5.53); targets are tokens with a defense rating. With ``after`` (the board the
    orders' purchases and moves leave, orders.py) each volley is also tried by the referee's
    own rule (``choose_target``: range and arc, D5.41) and refused with the referee's reason
    when none of its targets can be fired at; ``after``'s flags are updated as the referee's
    are. Without it, range and arc are left to the referee."""
    if after is not None:
        view = after
    if section is None:
        return [], []
    if not isinstance(section, list) or len(section) > MAX_VOLLEYS:
        return [], [Problem("shape", "fire", f"fire is a list of at most {MAX_VOLLEYS} volleys "
                            "({target:, with: [...], else: [...]})")]
    power = view.get("viewer")
    tokens = view.get("tokens", {})
    problems: list[Problem] = []
    out: list[dict[str, Any]] = []
    firing: dict[str, str] = {}
    targets: dict[str, str] = {}
    for i, v in enumerate(section):
        path = f"fire[{i}]"
        before = len(problems)
        if not isinstance(v, Mapping):
            problems.append(Problem("shape", path, "a volley is a mapping (target:, with:, "
                                    "else:)"))
            continue
        problems += unknown_keys(v, VOLLEY_KEYS, path, code="unknown-field",
                                 say=lambda k, hint: f"a volley takes {', '.join(VOLLEY_KEYS)}"
                                 f"{hint}")
        names = [v.get("target"), *(v.get("else") or [] if isinstance(v.get("else"), list)
                                    else [])]
        if v.get("else") is not None and (not isinstance(v.get("else"), list)
                                          or len(v["else"]) > MAX_ELSE):
            problems.append(Problem("shape", f"{path}.else",
                                    f"else is a list of at most {MAX_ELSE} targets"))
        for j, t in enumerate(names):
            where = f"{path}.target" if j == 0 else f"{path}.else[{j - 1}]"
            tok = tokens.get(t) if isinstance(t, str) else None
            if tok is None or tok.get("hex") is None:
                problems.append(Problem("target", where, f"no token {str(t)[:20]!r} on the map"))
            elif not board.spec(view, tok["type"]).get("dr"):
                problems.append(Problem("target", where, f"{t} has no defense rating (D5.1)"))
            elif tok.get("owner") == power:
                problems.append(Problem("target", where, f"{t} is your own {cite('E6')}"))
        first = v.get("target")
        if isinstance(first, str):
            if first in targets:
                problems.append(Problem("twice", f"{path}.target",
                                        f"{first} is already the target of {targets[first]}: "
                                        "a token is targeted once per turn (D5.53)"))
            targets.setdefault(first, path)
        shooters = v.get("with")
        if not isinstance(shooters, list) or not shooters or len(shooters) > MAX_WITH:
            problems.append(Problem("shape", f"{path}.with",
                                    f"with is a list of 1 to {MAX_WITH} of your units"))
            continue
        for k, s in enumerate(shooters):
            where = f"{path}.with[{k}]"
            tok = tokens.get(s) if isinstance(s, str) else None
            if after is None and board.coming(view, s) and s not in firing:
                firing[str(s)] = path                # built this turn: the referee checks it
            elif tok is None or tok.get("owner") != power or not board.is_unit(view, tok):
                problems.append(Problem("firing", where,
                                        f"{str(s)[:20]} is not one of your units on the map"))
            elif s in firing:
                problems.append(Problem("twice", where,
                                        f"{s} already fires in {firing[s]}: a token fires once "
                                        "per turn (D5.52)"))
            else:
                firing[s] = path
        volley = {"target": first, "with": list(shooters), "else": list(v.get("else") or [])}
        if after is not None and len(problems) == before:
            problems += _rehearse_volley(after, str(power), volley, path)
        out.append(volley)
    return ([], problems) if problems else (out, [])


def _rehearse_volley(after: dict[str, Any], power: str, volley: Mapping[str, Any], path: str
                     ) -> list[Problem]:
    """One volley by the referee's rule on the board the orders leave: a problem (the
    referee's reasons) when it would be void. Its target and firing tokens are then marked
    as the referee marks them (the dice, which may destroy a target first, are not known)."""
    flags = after.setdefault("flags", {"moved": [], "fired": [], "targeted": []})
    shooters, _skipped = firing_tokens(after, power, volley)
    chosen, tried = choose_target(after, power, volley, shooters)
    if chosen is None:
        return [Problem("void", path, "no target of this volley can be fired at: "
                        + "; ".join(str(t["reason"]) for t in tried))]
    flags["targeted"].append(chosen)
    flags["fired"].extend(shooters)
    return []
