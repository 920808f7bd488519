"""The order file a report pre-fills for the next turn, and accepted orders restated in plain
words for the receipt. The form is plain YAML that loads as it is; every optional order is a
comment to uncomment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.protocol.orderfile import form_envelope

from .words import and_list, plural, power_name, short_hex

View = Mapping[str, Any]


def order_form(view: View, power: str, seq: int = 1) -> str:
    """A pre-filled order file for the next turn: plain YAML that loads as it is; every
    optional order is a comment to uncomment."""
    committed = view["options"]["destinations"] == "committed"
    mine = view["warps"][power]
    flying = [(k, w) for k, w in sorted(mine.items(), key=lambda kv: int(kv[0])) if w]
    free = [k for k, w in sorted(mine.items(), key=lambda kv: int(kv[0])) if w is None]
    held = [n for n in view["powers"][power]["stars_held"]
            if view["stars"][n]["ships"].get(power, 0) > 0]
    origin = view["powers"][power]["home"] if view["powers"][power]["home"] in held else (
        held[0] if held else "STAR")
    lines = [
        f"# Orders of {power_name(power)} for turn {view['turn']}. Edit, then check and sign:",
        "#   pbem orders check FILE --view view.json",
        "#   pbem orders sign FILE --key YOUR.key --view view.json",
        "# and reply with the signed block. Lines starting with # are comments.",
        *form_envelope(view, seq),
        "orders:",
    ]
    if flying:
        lines.append("  warps:")
        for k, w in flying:
            lines.append(f"    {k}: continue    # {plural(w['ships_total'], 'ship')} from "
                         f"{w['from']}, {plural(w['travelled'], 'sector')} so far")
            arrive = ("{arrive: STAR, nonce: NONCE, on_tie: divert}" if committed
                      else "{arrive: STAR, on_tie: divert}")
            lines.append(f"    # {k}: {arrive}")
        lines.append("    # `pbem orders reveal FILE --view view.json` writes the arrivals due")
        lines.append("    # this turn from your vault. on_tie (equal forces, or an ally's home")
        lines.append("    # without permission): stay in hyperspace, or divert to the other")
        lines.append("    # star of the sector; without it: divert unless outnumbered there.")
    else:
        lines.append("  # warps: none of yours is in hyperspace, so no arrival is due.")
    warp = free[0] if free else (flying[0][0] if flying else "1")
    lines += [
        "  # At most one departure a turn; uncomment and edit to leave:",
        "  # depart:",
        f"  #   warp: {warp}",
        f"  #   from: {origin}",
        "  #   ships: all          # or a number",
    ]
    if committed:
        lines += [
            "  #   commitment: ...     # written by `pbem orders depart`:",
            f"  # pbem orders depart FILE --view view.json --from {origin} --to STAR --ships N",
            "  # keeps the destination secret in your vault and writes only its commitment.",
        ]
    else:
        lines.append("  # (free destinations: name the star when the fleet arrives)")
    if not free and flying:
        lines.append("  # Both warps are in hyperspace: a departure needs one that arrives.")
    return "\n".join(lines) + "\n"


# -- receipts -------------------------------------------------------------------------------------
def _departure_words(d: Mapping[str, Any], committed: bool) -> str:
    ships = "all ships" if d["ships"] == "all" else plural(int(d["ships"]), "ship")
    text = f"warp {d['warp']} from {d['from']} with {ships}"
    if d.get("with"):
        text += " and " + and_list([
            f"{'all' if n == 'all' else n} of {power_name(p)}'s ships"
            for p, n in sorted(d["with"].items())])
    if d.get("to"):
        text += f" to {d['to']} (same sector: it arrives this turn)"
    elif committed:
        text += f" to a secret destination, commitment {short_hex(d.get('commitment'), 12)}"
    else:
        text += " (destination named on arrival)"
    if d.get("escrow"):
        text += ", reveal sealed to the referee's escrow key"
    return text


def receipt_lines(orders: Mapping[str, Any], view: View) -> list[str]:
    """Normalised orders (``normalize_orders``) restated in plain words, with what the power's
    view says about each warp."""
    power = view["viewer"]
    committed = view["options"]["destinations"] == "committed"
    lines = []
    for key, w in sorted(view["warps"][power].items(), key=lambda kv: int(kv[0])):
        if w is None:
            continue
        arrive = orders.get("arrive", {}).get(key)
        if arrive:
            tie = {"stay": " On a tie it stays in hyperspace.",
                   "divert": " On a tie it comes out at the other star of the sector."}.get(
                       str(arrive.get("on_tie")), " On a tie it comes out at the other star of "
                       "the sector unless outnumbered there, else stays in hyperspace.")
            lines.append(f"Warp {key} ({plural(w['ships_total'], 'ship')} from {w['from']}) "
                         f"arrives at {arrive['star']}, {w['next_distance']} sectors from "
                         f"{w['sector']}"
                         + (": the reveal opens its commitment." if committed else ".") + tie)
        else:
            lines.append(f"Warp {key} continues, step {w['next_distance']} of its journey "
                         f"from sector {w['sector']} ({plural(w['ships_total'], 'ship')}).")
    departs = orders.get("depart") or []
    for i, d in enumerate(departs):
        lead = "Departure: " if i == 0 else f"If that cannot leave, alternative {i}: "
        lines.append(lead + _departure_words(d, committed) + ".")
    if not departs:
        lines.append("No departure.")
    permit = orders.get("permit")
    if permit is not None:
        if "home" in permit:
            lines.append("Allies allowed into your home star: "
                         f"{and_list([power_name(p) for p in permit['home']])}.")
        if "lend" in permit:
            lines.append("Allies whose fleets may take your ships: "
                         f"{and_list([power_name(p) for p in permit['lend']])}.")
    for r in orders.get("resources", []):
        lines.append(f"Resources of {r['star']} counted for {power_name(r['to'])}.")
    alliance = orders.get("alliance") or {}
    for kind, verb in (("propose", "Propose an alliance to"), ("accept", "Accept the alliance of"),
                       ("end", "End the alliance with")):
        if alliance.get(kind):
            lines.append(f"{verb} {and_list([power_name(p) for p in alliance[kind]])}.")
    if orders.get("withdraw"):
        lines.append(f"Mutual withdrawal with {power_name(orders['withdraw'])}.")
    for key, star in sorted((orders.get("surrender") or {}).items()):
        lines.append(f"If eliminated, warp {key} comes out at {star}.")
    if orders.get("concede"):
        lines.append("Concede the game.")
    if orders.get("vote_end") is not None:
        lines.append("Vote to end the game now." if orders["vote_end"]
                     else "Take back the vote to end the game.")
    return lines
