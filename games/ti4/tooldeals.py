"""The flags of ``pbem orders ti4`` for transactions and the secret kept at set-up (pure, as
toolflags.py; RULES.md T77-T82):

    --with blue --give tg=2 --get commodities=1            a half of yours (transactions:)
    --with red --give commodities=1 --get tg=2 --accept    a standing accept: of red's half
    --keep s-tech                                          the secret you keep after the deal

GOODS: ``tg=N`` (or ``trade_goods=N``) and ``commodities=N`` (or ``c=N``), comma-separated;
``-`` for nothing. A half replaces the one with the same power in its list.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from pbem.errors import UsageError
from pbem.game.tool import arg

from .toolflags import names, number

ALIASES = {"tg": "trade_goods", "trade_goods": "trade_goods", "c": "commodities",
           "commodities": "commodities"}

ARGUMENTS = [
    arg("--with", dest="deal_with", metavar="POWER",
        help="a transaction with POWER (in your action step with a neighbour, or in the agenda "
        "step with anyone); with --give and --get"),
    arg("--give", metavar="GOODS", help="what you give: tg=N,commodities=N (- for nothing)"),
    arg("--get", metavar="GOODS", help="what you get: tg=N,commodities=N (- for nothing; "
        "commodities you receive become trade goods)"),
    arg("--accept", action="store_true",
        help="standing: write --with/--give/--get as a standing accept: of that player's half "
        "(the other half of a transaction he makes in his action step)"),
    arg("--keep", metavar="OBJECTIVE,...",
        help="after the deal: the secret objective(s) you keep of those you drew"),
]


def goods(text: str, flag: str) -> dict[str, int]:
    """``tg=2,commodities=1`` -> ``{trade_goods: 2, commodities: 1}``."""
    if text.strip() in ("-", ""):
        return {}
    out: dict[str, int] = {}
    for item in text.split(","):
        key, sep, n = item.strip().partition("=")
        name = ALIASES.get(key.strip())
        if not sep or name is None:
            raise UsageError(f"{flag}: {text!r} is not tg=N,commodities=N")
        if name in out:
            raise UsageError(f"{flag}: {name} named twice in {text!r}")
        out[name] = number(n, flag)
    return out


def half(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.deal_with is None:
        if args.give is not None or args.get is not None or args.accept:
            raise UsageError("--give, --get and --accept go with --with POWER")
        return None
    out: dict[str, Any] = {"with": args.deal_with.strip()}
    for flag, key in (("--give", "give"), ("--get", "get")):
        value = getattr(args, key)
        if value is not None and goods(value, flag):
            out[key] = goods(value, flag)
    return out


def _put(halves: object, new: Mapping[str, Any]) -> list[Any]:
    kept = [h for h in halves if not (isinstance(h, Mapping) and h.get("with") == new["with"])] \
        if isinstance(halves, list) else []
    return [*kept, dict(new)]


def sections(orders: Mapping[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The body with the half written into ``transactions:`` (or ``standing.accept:``) and
    ``keep:``."""
    out = dict(orders)
    new = half(args)
    if new is not None and args.accept:
        standing = dict(out.get("standing") or {})
        standing["accept"] = _put(standing.get("accept"), new)
        out["standing"] = standing
    elif new is not None:
        out["transactions"] = _put(out.get("transactions"), new)
    if args.keep is not None:
        out["keep"] = names(args.keep, "--keep", "OBJECTIVE,... (of the secrets you drew)")
    return out
