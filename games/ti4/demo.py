"""``make demo GAME=ti4``: four players of Twilight Imperium (stand-in pack) by email.

As the other demos (pbem.game.demo holds the kit): each player has an Ed25519 key and a vault
(his fair-chance seed), writes every step's orders with the player's tool from the view.json of
his last mail (``pbem orders new``, ``pbem orders ti4``, ``check``, ``sign``) and mails them
into the referee's Maildir; the referee's cron job (``pbem ingest`` + ``pbem run``) resolves the
step and mails each player his report. The game is ``small-4`` (red, blue, green, yellow).

The script, from the views (the deal is fair, so the speaker and the objectives differ from
game to game): with the set-up file every player sends his standing answers (hit order,
retreats, which secondaries he always follows or declines; blue and green queue their passes;
yellow sends his secondaries' answers only with his round 2 draft, so round 1 has secondary
windows and round 2 none);
each strategy window ranks the cards (yellow wants commerce); on his turns a player plays his
strategy cards in initiative order (yellow's commerce brings 3 trade goods), then yellow takes
the Custodians with a tactical action (his home planet's influence and those trade goods: 6),
red sends a tender with two troopers to the nearest free planet and takes it (in round 2 his
frigate attacks the nearest ships of another player: a space combat, every die from the
committed chance), and everyone passes. A player asked for a secondary follows the cheap ones
and declines the rest. In the status phase each scores a revealed spend objective he can pay
and puts one more token in his fleet pool; from round 1 on (the Custodians are gone) the agenda
phase follows: every player votes one planet for the first outcome of each agenda. After two
full rounds, agenda phases included, the game master ends the game by agreement; the log is
exported and audited (every die and shuffle replayed).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from pbem.game.demo import latest_views, players, start_game

from .galaxy import Situation, reach
from .units import Catalog

GAME = "ti4"
VARIANT = "small-4"
ROUNDS = 2
#: A safety bound on the steps played (two rounds take about 40).
MAX_STEPS = 120
DRAFTS = {"red": ["command", "industry", "research", "warfare"],
          "blue": ["counsel", "research", "dominion", "blockade"],
          "green": ["blockade", "dominion", "industry", "counsel"],
          "yellow": ["commerce", "warfare", "command", "research"]}
#: Each player's standing answers, sent with his first file.
STANDING = {"red": ["--hits", "wing,sustain,frigate", "--retreat-at-most", "1",
                    "--standing-follow", "counsel", "--standing-default", "decline"],
            "blue": ["--hits", "wing,sustain", "--standing-default", "decline", "--queue-pass"],
            "green": ["--hits", "wing,picket", "--retreat-at-most", "1",
                      "--standing-default", "decline", "--queue-pass"],
            "yellow": ["--hits", "wing,frigate,tender"]}
#: What yellow, asked for every secondary in round 1, sends with his round 2 draft: from then
#: on no secondary window opens (every other player has a standing answer for every card).
LATER = {"yellow": ["--standing-follow", "counsel", "--standing-default", "decline"]}
#: The secondaries a player asked in a secondary window follows (with default choices).
FOLLOWS = ("counsel", "commerce")


def catalog(view: Mapping[str, Any]) -> Catalog:
    pack = view["pack"]
    table = view["table"]
    homes = [pack["factions"][table["factions"][p]]["home"] for p in table["seats"]]
    return Catalog.from_pack(pack, view["variant"], homes)


def home(view: Mapping[str, Any], power: str) -> str:
    return str(view["pack"]["factions"][view["table"]["factions"][power]]["home"])


def _mine(view: Mapping[str, Any], power: str, readied: bool = True) -> list[str]:
    board = view["board"]
    return sorted(p for p, o in board["owner"].items()
                  if o == power and (not readied or p not in board["exhausted"]))


def custodians_payment(view: Mapping[str, Any], power: str) -> list[str] | None:
    """``--custodians`` items paying the Custodians' influence: readied planets, most
    influence first, then trade goods; None if he cannot pay."""
    pack = view["pack"]
    need = int(pack["rules"]["custodians_cost"])
    planets = sorted(_mine(view, power), key=lambda p: -int(pack["planets"][p]["influence"]))
    paid: list[str] = []
    got = 0
    for p in planets:
        if got >= need:
            break
        if int(pack["planets"][p]["influence"]) > 0:
            paid.append(p)
            got += int(pack["planets"][p]["influence"])
    goods = int(view["table"]["players"][power]["trade_goods"])
    if got + goods < need:
        return None
    return [*paid, f"tg={max(0, need - got)}"] if got < need else paid


def free_planet(view: Mapping[str, Any], power: str) -> tuple[str, str] | None:
    """The system next to his home with a planet nobody controls (and no ships): (system,
    planet)."""
    cat = catalog(view)
    board = view["board"]
    for sid in sorted(cat.galaxy.adjacent(home(view, power))):
        if sid == "C0" or board["space"].get(sid) or cat.galaxy.anomaly(sid):
            continue
        for pid in cat.planets_in(sid):
            if pid not in board["owner"]:
                return sid, pid
    return None


def invasion(view: Mapping[str, Any], power: str) -> list[str] | None:
    """A tender from home lifting two troopers to a free planet next door."""
    target = free_planet(view, power)
    h = home(view, power)
    board = view["board"]
    ships = (board["space"].get(h) or {}).get(power) or {}
    if target is None or not ships.get("tender") or h in board["tokens"] \
            and power in board["tokens"][h]:
        return None
    lift_from = next((p for p in catalog(view).planets_in(h)
                      if ((board["planets"].get(p) or {}).get(power) or {}).get("trooper", 0)
                      >= 2), None)
    if lift_from is None:
        return None
    sid, pid = target
    return ["--activate", sid, "--move", f"tender:{h}>{sid}", "--lift",
            f"{lift_from}:trooper=2", "--invade", f"{pid}:2"]


def attack(view: Mapping[str, Any], power: str) -> list[str] | None:
    """His frigates from one system into the nearest system holding another player's ships
    (a space combat: every die drawn from the committed chance)."""
    cat = catalog(view)
    board = view["board"]
    tokens = {s for s, holders in board["tokens"].items() if power in holders}
    enemy = {s for s, by in board["space"].items() if set(by) - {power}}
    move = int(view["pack"]["units"]["frigate"]["move"])
    for start, by in sorted(board["space"].items()):
        frigates = (by.get(power) or {}).get("frigate", 0)
        if not frigates:
            continue
        paths = reach(cat.galaxy, start, move, Situation.of(enemy, tokens))
        targets = sorted((len(path), sid) for sid, path in paths.items() if sid in enemy)
        if targets:
            path = paths[targets[0][1]]
            return ["--activate", path[-1], "--move", f"frigate={frigates}:{'>'.join(path)}"]
    return None


def action(view: Mapping[str, Any], power: str) -> list[str]:
    seat = view["table"]["players"][power]
    cards = view["pack"]["strategy_cards"]
    unused = sorted((c for c in seat["cards"] if c not in seat["used"]),
                    key=lambda c: int(cards[c]["initiative"]))
    if unused:
        return ["--strategic", unused[0]]
    pools = (view["board"]["pools"].get(power) or {})
    if int(pools.get("tactic", 0)) > 0:
        if power == "yellow" and not view["table"]["custodians_taken"]:
            pay = custodians_payment(view, power)
            if pay:
                near = sorted(catalog(view).galaxy.adjacent(home(view, power)))
                free = [s for s in near if power not in view["board"]["tokens"].get(s, [])]
                if free:
                    return ["--activate", free[0], "--custodians", ",".join(pay)]
        if power == "red":
            moved = (attack(view, power) if int(view["round"]) > 1 else None) \
                or invasion(view, power)
            if moved:
                return moved
    return ["--pass"]


def spend(view: Mapping[str, Any], power: str) -> list[str]:
    """``--score-public`` and its payment: the first revealed spend objective he has not
    scored that his readied planets (resources, influence) or trade goods pay."""
    pack = view["pack"]
    seat = view["table"]["players"][power]
    for oid in view["table"]["publics"]:
        test = pack["objectives"][oid]["test"]
        if oid in seat["scored"] or test["test"] != "spend":
            continue
        if test.get("trade_goods"):
            if int(seat["trade_goods"]) >= int(test["trade_goods"]):
                return ["--score-public", oid]
            continue
        kind = "resources" if test.get("resources") else "influence"
        need, paid, got = int(test[kind]), [], 0
        for pid in sorted(_mine(view, power), key=lambda p: -int(pack["planets"][p][kind])):
            if got < need and int(pack["planets"][pid][kind]):
                paid.append(pid)
                got += int(pack["planets"][pid][kind])
        if got >= need:
            return ["--score-public", oid, f"--{kind}", ",".join(paid)]
    return []


def status(view: Mapping[str, Any], power: str) -> list[str]:
    """A spend objective if he can pay it; tokens back, +2, and one more in the fleet pool
    than before."""
    board = view["board"]
    pools = dict(board["pools"].get(power) or {})
    on_board = sum(1 for holders in board["tokens"].values() if power in holders)
    total = min(int(view["pack"]["rules"]["tokens"]["total"]),
                sum(int(v) for v in pools.values()) + on_board
                + int(view["pack"]["rules"]["status_tokens"]))
    fleet, strategy = int(pools.get("fleet", 0)) + 1, int(pools.get("strategy", 0))
    return [*spend(view, power), "--pools", f"{total - fleet - strategy}/{fleet}/{strategy}"]


def agenda(view: Mapping[str, Any], power: str) -> list[str]:
    """One planet's votes for his choice of each agenda (For, himself, his home planet), else
    abstain; the speaker's ties go the same way."""
    planets = _mine(view, power)
    out: list[str] = []
    ties: list[str] = []
    for i, aid in enumerate(view.get("agendas") or []):
        kind = view["pack"]["agendas"][aid]["outcome"]
        outcome = ("for" if kind == "for_against" else power if kind == "elect_player"
                   else home_planet(view, power))
        voter = next((p for p in planets[i:] if int(view["pack"]["planets"][p]["influence"])),
                     None)
        out += ["--vote", f"{outcome}:{voter}" if voter and outcome else "abstain"]
        ties.append(outcome or "for")
    if view["table"]["speaker"] == power:
        for outcome in ties:
            out += ["--tie", outcome]
    return out


def home_planet(view: Mapping[str, Any], power: str) -> str | None:
    planets = catalog(view).planets_in(home(view, power))
    return planets[0] if planets else None


def gift(view: Mapping[str, Any], power: str) -> list[str]:
    """An agenda step's transaction, both halves: the first player in seat order who has a
    trade good gives one to the next player (any pair may trade in the agenda step; both read
    the goods on the public table, so both write the same deal)."""
    table = view["table"]
    seats = list(table["seats"])
    rich = [p for p in seats if int(table["players"][p]["trade_goods"]) >= 1]
    if not rich:
        return []
    giver = rich[0]
    taker = seats[(seats.index(giver) + 1) % len(seats)]
    return {giver: ["--with", taker, "--give", "tg=1"],
            taker: ["--with", giver, "--get", "tg=1"]}.get(power, [])


def flags(view: Mapping[str, Any], power: str, first: bool) -> list[str]:
    """The ``pbem orders ti4`` options for this player's step."""
    kind = view["phase"]
    out = list(STANDING[power]) if first else []
    if kind == "strategy":
        out += ["--draft", ",".join(DRAFTS[power])]
        drawn = (view.get("you") or {}).get("drawn")
        if drawn and power == "red":  # the secret kept: red keeps the second he drew
            out += ["--keep", drawn[-1]]
        if int(view["round"]) == 2:
            out += LATER.get(power, [])
    elif kind == "action":
        out += action(view, power)
    elif kind == "secondary":
        card = (view.get("pending") or {}).get("card")
        out += ["--follow"] if card in FOLLOWS else ["--decline"]
    elif kind == "status":
        out += status(view, power)
    elif kind == "agenda":
        out += agenda(view, power) + gift(view, power)
    return out


def _done(views: Mapping[str, Mapping[str, Any]]) -> bool:
    any_view = next(iter(views.values()))
    return any_view["phase"] == "over" or int(any_view["round"] or 0) > ROUNDS


def main() -> int:
    powers = players(GAME, VARIANT)
    print("== keys for every player, and a new game of TI4 (stand-in pack, not TI4)")
    table = start_game("ti4-1", GAME, VARIANT, powers, "TI4 referee")
    hour = 0.0
    sent: set[str] = set()
    for step in range(MAX_STEPS):
        views = latest_views(table.root, powers)
        if _done(views):
            break
        due = [p for p in powers if p in (views[p].get("due") or [])]
        if not due:
            break
        label = ((views[due[0]].get("window") or {}).get("label")) or views[due[0]]["phase"]
        print(f"== step {step + 1}: {label}: {', '.join(due)}")
        for power in due:
            first = power not in sent
            view = views[power]
            options = flags(view, power, first) if view.get("table") or first else []
            table.orders(power, f"step-{step + 1}", "ti4", options)
            sent.add(power)
        hour += 2
        table.cron(hour - 1.5, hour - 1)
    return table.finish(hour + 1, powers[0], audited=": every die and shuffle are replayed")


if __name__ == "__main__":
    sys.exit(main())
