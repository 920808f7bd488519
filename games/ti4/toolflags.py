"""The flags of ``pbem orders ti4`` read into the order sections they write (pure: no file, no
view; games/ti4/tool.py wires them into the player's tool, and the view's check comes after).

Every section has the shape games/ti4/STATE.md agrees (``draft``, ``action``, ``secondary``,
``status``, ``agenda``, ``standing``). A flag that cannot be read raises ``UsageError`` naming the
flag, what it was given and the form it takes. The small languages:

- UNITS: ``unit=n,unit`` (a unit without ``=n`` is one): ``tender,frigate=2``;
- a move: ``UNITS:PATH`` with the path's systems joined by ``>``: ``tender,frigate=2:S18>S24``;
  ``--carry UNITS`` and ``--lift PLANET:UNITS`` belong to the ``--move`` before them;
- PAYMENT: planets to exhaust and ``tg=N`` trade goods, comma-separated: ``abren,bellis,tg=2``;
- a choice (one per primitive of the card, in order): ``key=value`` words, ``-`` for the
  default; lists with commas, pools and builds as ``name:n`` pairs: ``tokens=2 exhaust=abren
  pools=fleet:1,strategy:1``, ``tech=tgreen2 exhaust=abren``, ``resources.exhaust=abren``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.errors import UsageError
from pbem.game.base import digits

POOLS = ("tactic", "fleet", "strategy")
#: A choice's keys by the kind of value they take (games/ti4/effects.py reads them).
CHOICE_TEXT = ("tech", "planet", "speaker", "system", "objective")
CHOICE_LIST = ("exhaust", "planets")
CHOICE_NUMBER = ("tokens", "trade_goods")
CHOICE_COUNTS = ("pools", "build")
CHOICE_PAYMENTS = ("resources", "influence")
CHOICE_KEYS = CHOICE_TEXT + CHOICE_LIST + CHOICE_NUMBER + CHOICE_COUNTS + CHOICE_PAYMENTS
#: The flags that write the tactical action's moves, kept in the order given.
LEG_FLAGS = ("move", "carry", "lift")


class InOrder(argparse.Action):
    """Append ``(flag's dest, value)`` to ``args.legs``: --move, --carry and --lift keep the
    order they were typed in, so cargo belongs to the move before it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        legs = list(getattr(namespace, "legs", None) or [])
        legs.append((self.dest, values))
        namespace.legs = legs


def _bad(flag: str, given: str, form: str) -> UsageError:
    return UsageError(f"{flag}: {given!r} is not {form}")


def number(text: str, flag: str) -> int:
    n = digits(text.strip())
    if n is None:
        raise _bad(flag, text, "a whole number")
    return n


def names(text: str, flag: str, what: str = "a comma-separated list of names") -> list[str]:
    out = [x.strip() for x in text.split(",")]
    if not text.strip() or not all(out):
        raise _bad(flag, text, what)
    twice = sorted({x for x in out if out.count(x) > 1})
    if twice:
        raise UsageError(f"{flag}: {', '.join(twice)} named twice in {text!r}")
    return out


def units(text: str, flag: str) -> dict[str, int]:
    """``tender,frigate=2`` -> ``{tender: 1, frigate: 2}``."""
    form = "UNIT[=N],... (e.g. tender,frigate=2)"
    out: dict[str, int] = {}
    for item in text.split(","):
        unit, sep, n = item.strip().partition("=")
        count = digits(n.strip()) if sep else 1
        if not unit.strip() or count is None or count < 1:
            raise _bad(flag, text, form)
        if unit.strip() in out:
            raise UsageError(f"{flag}: {unit.strip()} named twice in {text!r}")
        out[unit.strip()] = count
    return out


def on_planet(text: str, flag: str, ground: str | None = None) -> tuple[str, dict[str, int]]:
    """``PLANET:UNITS`` (``farro:trooper=2``); ``PLANET:N`` means N of ``ground`` (the pack's
    one ground force) when it is known."""
    where, sep, what = text.partition(":")
    if not sep or not where.strip() or not what.strip():
        raise _bad(flag, text, "PLANET:UNIT=N,... (e.g. farro:trooper=2)")
    alone = digits(what.strip())
    if alone is not None:
        if ground is None:
            raise UsageError(f"{flag}: {text!r}: name the unit (PLANET:UNIT=N); give --view "
                             "to let PLANET:N mean your ground forces")
        if alone < 1:
            raise _bad(flag, text, "PLANET:N with N at least 1")
        return where.strip(), {ground: alone}
    return where.strip(), units(what, flag)


def payment(text: str, flag: str) -> dict[str, Any]:
    """``abren,bellis,tg=2`` -> ``{exhaust: [abren, bellis], trade_goods: 2}``; ``-`` pays
    nothing."""
    if text.strip() in ("-", ""):
        return {}
    planets: list[str] = []
    goods = 0
    for item in (x.strip() for x in text.split(",")):
        key, sep, n = item.partition("=")
        if sep and key.strip() in ("tg", "trade_goods"):
            goods += number(n, flag)
        elif sep or not item:
            raise _bad(flag, text, "PLANET,PLANET,tg=N (planets to exhaust and trade goods)")
        elif item in planets:
            raise UsageError(f"{flag}: {item} named twice in {text!r}")
        else:
            planets.append(item)
    out: dict[str, Any] = {}
    if planets:
        out["exhaust"] = planets
    if goods:
        out["trade_goods"] = goods
    return out


def pools(text: str, flag: str) -> dict[str, int]:
    """``3/3/4`` (tactic/fleet/strategy) or ``tactic=3,fleet=3,strategy=4``."""
    form = "T/F/S (e.g. 3/3/4) or tactic=N,fleet=N,strategy=N"
    if "/" in text:
        parts = text.split("/")
        if len(parts) != 3:
            raise _bad(flag, text, form)
        return {k: number(v, flag) for k, v in zip(POOLS, parts, strict=True)}
    out = {}
    for item in text.split(","):
        key, sep, n = item.partition("=")
        if not sep or key.strip() not in POOLS:
            raise _bad(flag, text, form)
        out[key.strip()] = number(n, flag)
    if set(out) != set(POOLS):
        raise UsageError(f"{flag}: {text!r} must give all three pools ({', '.join(POOLS)})")
    return out


def _pairs(text: str, flag: str, key: str) -> dict[str, int]:
    out = {}
    for item in text.split(","):
        name, sep, n = item.partition(":")
        if not sep or not name.strip():
            raise _bad(flag, f"{key}={text}", f"{key}=NAME:N,NAME:N")
        out[name.strip()] = number(n, flag)
    return out


def choice(text: str, flag: str = "--choice") -> dict[str, Any]:
    """One primitive's choice mapping from ``key=value`` words (``-``: the default, ``{}``)."""
    if text.strip() in ("-", ""):
        return {}
    out: dict[str, Any] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        top, dot, sub = key.partition(".")
        if not sep or not value:
            raise _bad(flag, word, "KEY=VALUE (e.g. tokens=2 exhaust=abren,bellis)")
        if top not in CHOICE_KEYS or (dot and top not in CHOICE_PAYMENTS):
            raise UsageError(f"{flag}: no choice {key!r} (the choices: "
                             f"{', '.join(CHOICE_KEYS)}; resources.exhaust=..., "
                             "influence.trade_goods=N for a spend objective)")
        if top in CHOICE_PAYMENTS:
            pay = out.setdefault(top, {})
            if sub == "exhaust":
                pay["exhaust"] = names(value, flag)
            elif sub in ("trade_goods", "tg"):
                pay["trade_goods"] = number(value, flag)
            elif not dot:
                pay.update(payment(value, flag))
            else:
                raise UsageError(f"{flag}: {key!r}: a payment has exhaust and trade_goods")
        elif top in CHOICE_TEXT:
            out[top] = value
        elif top in CHOICE_LIST:
            out[top] = names(value, flag)
        elif top in CHOICE_NUMBER:
            out[top] = number(value, flag)
        else:
            out[top] = _pairs(value, flag, top)
    return out


def moves(legs: Sequence[tuple[str, str]], ground: str | None = None) -> list[dict[str, Any]]:
    """The ``move:`` list from --move, --carry and --lift in the order typed."""
    out: list[dict[str, Any]] = []
    for dest, text in legs:
        flag = f"--{dest}"
        if dest == "move":
            ships, sep, path = text.rpartition(":")
            systems = [s.strip() for s in path.split(">")]
            if not sep or len(systems) < 2 or not all(systems):
                raise _bad(flag, text, "SHIPS:FROM>...>TO (e.g. tender,frigate=2:S18>S24)")
            out.append({"path": systems, "ships": units(ships, flag)})
            continue
        if not out:
            raise UsageError(f"{flag} {text!r}: it belongs to a --move; give the --move first")
        group = out[-1]
        if dest == "carry":
            for unit, n in units(text, flag).items():
                group.setdefault("carry", {})[unit] = group.get("carry", {}).get(unit, 0) + n
        else:
            where, what = on_planet(text, flag, ground)
            lift = group.setdefault("lift", {}).setdefault(where, {})
            for unit, n in what.items():
                lift[unit] = lift.get(unit, 0) + n
    return out


def tactical(args: argparse.Namespace, ground: str | None = None) -> dict[str, Any]:
    """``{activate, move, bombard, invade, produce}`` (tactical.parse_order's shape)."""
    order: dict[str, Any] = {"activate": args.activate.strip()}
    legs = list(getattr(args, "legs", None) or [])
    if legs:
        order["move"] = moves(legs, ground)
    for key, given in (("bombard", args.bombard), ("invade", args.invade)):
        table: dict[str, dict[str, int]] = {}
        for text in given or ():
            where, what = on_planet(text, f"--{key}", ground if key == "invade" else None)
            if where in table:
                raise UsageError(f"--{key}: {where} named twice")
            table[where] = what
        if table:
            order[key] = table
    if args.produce:
        if ":" in args.produce:
            raise _bad("--produce", args.produce, "UNIT=N,... (units are built at the active "
                       "system's docks: no planet is named)")
        order["produce"] = units(args.produce, "--produce")
    return order


def action(args: argparse.Namespace, ground: str | None = None) -> dict[str, Any] | None:
    """The ``action:`` section, or None when no action flag was given."""
    kinds = [f for f, v in (("--pass", args.pass_), ("--strategic", args.strategic),
                            ("--activate", args.activate)) if v]
    tactical_only = [f for f, v in (("--move", getattr(args, "legs", None)),
                                    ("--bombard", args.bombard), ("--invade", args.invade),
                                    ("--produce", args.produce), ("--pay", args.pay),
                                    ("--custodians", args.custodians)) if v]
    if len(kinds) > 1:
        raise UsageError(f"one action a turn: {' and '.join(kinds)} were both given")
    if tactical_only and kinds != ["--activate"]:
        raise UsageError(f"{tactical_only[0]} belongs to a tactical action: give --activate "
                         "SYSTEM with it")
    if args.choice and kinds == ["--activate"] or args.choice and kinds == ["--pass"]:
        raise UsageError("--choice belongs to --strategic CARD or --follow")
    if not kinds:
        return None
    if args.pass_:
        return {"pass": True}
    if args.strategic:
        return {"strategic": args.strategic.strip(),
                "choices": [choice(c) for c in args.choice or ()]}
    out: dict[str, Any] = {"tactical": tactical(args, ground)}
    if args.pay:
        out["pay"] = payment(args.pay, "--pay")
    if args.custodians:
        out["custodians"] = payment(args.custodians, "--custodians")
    return out


def secondary(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.follow and args.decline:
        raise UsageError("--follow and --decline: give one")
    if args.decline:
        if args.choice:
            raise UsageError("--choice belongs to --follow, not --decline")
        return {"follow": False, "choices": []}
    if args.follow:
        if args.strategic:
            raise UsageError("--follow answers another player's card; --strategic plays yours: "
                             "give one")
        return {"follow": True, "choices": [choice(c) for c in args.choice or ()]}
    return None


def status(args: argparse.Namespace) -> dict[str, Any] | None:
    given = {"public": args.score_public, "secret": args.score_secret,
             "resources": args.resources, "influence": args.influence, "pools": args.pools}
    if all(v is None for v in given.values()):
        return None
    out: dict[str, Any] = {}
    for key in ("public", "secret"):
        if given[key]:
            out[key] = given[key].strip()
    for key in ("resources", "influence"):
        if given[key] is not None:
            out[key] = payment(given[key], f"--{key}")
    if args.pools is not None:
        out["pools"] = pools(args.pools, "--pools")
    return out


def ballot(text: str) -> dict[str, Any]:
    """``OUTCOME:planet,planet`` -> a ballot; ``abstain`` (or ``-``) abstains."""
    if text.strip() in ("abstain", "-"):
        return {}
    outcome, sep, planets = text.partition(":")
    if not sep or not outcome.strip() or not planets.strip():
        raise _bad("--vote", text, "OUTCOME:PLANET,PLANET (the planets you exhaust for it) "
                   "or abstain")
    if "tg=" in planets or "trade_goods" in planets:
        raise UsageError(f"--vote: {text!r}: trade goods cannot be spent as votes")
    return {"outcome": outcome.strip(), "exhaust": names(planets, "--vote")}


def agenda(args: argparse.Namespace) -> dict[str, Any] | None:
    if not args.vote and not args.tie:
        return None
    return {"ballots": [ballot(v) for v in args.vote or ()],
            "ties": [t.strip() for t in args.tie or ()]}


def standing(args: argparse.Namespace, before: object) -> dict[str, Any] | None:
    """The ``standing:`` section: the file's, with each key the flags name replaced."""
    out: dict[str, Any] = dict(before) if isinstance(before, Mapping) else {}
    combat: dict[str, Any] = dict(out.get("combat") or {})
    touched = False
    if args.hits is not None:
        combat["hits"] = names(args.hits, "--hits", "UNIT,UNIT,sustain,... (hit order)")
    if args.retreat_at_most is not None or args.retreat_to is not None or args.never_retreat:
        if args.never_retreat and args.retreat_at_most is not None:
            raise UsageError("--never-retreat and --retreat-at-most: give one")
        retreat = dict(combat.get("retreat") or {})
        if args.never_retreat:
            retreat.pop("at_most", None)
        if args.retreat_at_most is not None:
            retreat["at_most"] = number(args.retreat_at_most, "--retreat-at-most")
        if args.retreat_to is not None:
            retreat["to"] = names(args.retreat_to, "--retreat-to", "SYSTEM,SYSTEM,...")
        combat["retreat"] = retreat
    if args.space_cannon is not None:
        combat["space_cannon"] = args.space_cannon == "on"
    if combat != dict(out.get("combat") or {}) or args.hits is not None:
        out["combat"] = combat
        touched = True
    secondaries = dict(out.get("secondaries") or {})
    for card in args.standing_follow or ():
        secondaries[card.strip()] = {"follow": True, "choices": []}
    for card in args.standing_decline or ():
        if card.strip() in (args.standing_follow or ()):
            raise UsageError(f"--standing-decline {card}: --standing-follow names it too")
        secondaries[card.strip()] = {"follow": False, "choices": []}
    if args.standing_default:
        secondaries["default"] = args.standing_default
    if args.standing_follow or args.standing_decline or args.standing_default:
        out["secondaries"] = secondaries
        touched = True
    if args.standing_draft is not None:
        out["draft"] = names(args.standing_draft, "--standing-draft", "CARD,CARD,... (ranked)")
        touched = True
    if args.queue_pass and args.no_queue:
        raise UsageError("--queue-pass and --no-queue: give one")
    if args.queue_pass or args.no_queue:
        out["queued"] = ["pass"] if args.queue_pass else []
        touched = True
    return out if touched else None


def sections(orders: Mapping[str, Any], args: argparse.Namespace,
             ground: str | None = None) -> dict[str, Any]:
    """The file's order body with every section the flags name written (replaced whole;
    ``standing`` key by key)."""
    out = dict(orders)
    if args.draft is not None:
        out["draft"] = names(args.draft, "--draft", "CARD,CARD,... (ranked, best first)")
    written = {"action": action(args, ground), "secondary": secondary(args),
               "status": status(args), "agenda": agenda(args),
               "standing": standing(args, orders.get("standing"))}
    for key, value in written.items():
        if value is not None:
            out[key] = value
    return out
