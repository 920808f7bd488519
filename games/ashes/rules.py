"""The rules core of The Ashes of Empire: pure functions of (state, orders, chance).

No clock, no I/O, and no randomness except through ``chance`` (pbem.game.chance). Set-up
is secret-free (it deals nothing); the first step (``setup``) draws nothing either: every
player commits his chance there. The second step (``deal``) shuffles and deals from every
player's value (pbem's rule of fair chance: no draw before every player has contributed a
value committed in an earlier step). Each later step is one
player's turn (sequential mode, as printed) or a round in which every player's turn runs in a
rotating order (round mode). A turn: reinforcement, one movement option a-d, revolution,
battle after c, retreat; victory is checked after every change (RULES.md maps every seed line
to code here).

Size: the rules core of one game turn (reinforcement, four movement options, battle, retreat,
victory) as pure functions over one state; each phase is short.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Mapping
from typing import Any

from pbem.errors import PbemError
from pbem.game.chance import NO_CHANCE, Chance
from pbem.game.events import private
from pbem.game.plugin import Window

from . import deck as deckmod
from .chance import DIE, PracticeChance
from .position import GALAXY, HAND, MOVE_MAX, Position, by_room, check_move, cid, free, place

SCHEMA = 1
COLOURS = ("red", "blue", "green", "yellow", "white", "black", "orange", "purple")
MODES = ("sequential", "rounds")
GAME_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,62}")
VARIANTS = {f"{mode}-{n}": (mode, COLOURS[:n]) for mode in MODES for n in range(2, 9)}
RULES_VERSION = 2
"""The rules version new games play (pbem.game.versions). Version 1 (games recorded with it
play on as they began): a conquered neutral planet's defenders never retreated, printed
second-degree groups, a cluster completed by the last card won, up to 6 ships besides the
colonised card's own, only colonies revolted, and the round's first player rotated. Version 2
reads the rulebook's lines as RULES.md quotes them (rulings A1, A10, A11, A13, A18, A22)."""
RULES_VERSIONS = (1, 2)


class AshesError(PbemError):
    """A bad variant, option or deck at set-up."""


def setup(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    if variant not in VARIANTS:
        raise AshesError(f"unknown variant {variant!r} of ashes (known: "
                         f"{', '.join(sorted(VARIANTS))})")
    game_id = options.get("game_id")
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise AshesError(f"game_id must be a lower-case slug (letters, digits, . _ -), "
                         f"not {game_id!r}")
    # the engine passes the game's component pack as ``components`` (pbem.game.versions)
    data = options.get("components") or options.get("deck") or deckmod.standin()
    problems = deckmod.check_components(data)
    if problems:
        raise AshesError("the deck is not usable: " + "; ".join(map(str, problems[:5])))
    version = options.get("rules_version", RULES_VERSION)
    if version not in RULES_VERSIONS:
        raise AshesError(f"ashes plays rules versions {RULES_VERSIONS}, not {version!r}")
    mode, powers = VARIANTS[variant]
    cat = deckmod.catalogue(data)
    return {
        "schema": SCHEMA, "game": "ashes", "game_id": game_id, "variant": variant,
        "mode": mode, "options": {"deck": cat["name"], "deck_digest": cat["digest"]},
        "catalogue": cat, "seats": list(powers), "turn": 1, "phase": "setup", "round": 0,
        "active": None, "first": None,
        "powers": {p: {"hand": {}, "colonies": {}, "retreat": [], "conceded": False}
                   for p in powers},
        "galaxy": {}, "deck": [], "under": {}, "result": None,
        **({} if version == 1 else {"rules_version": version}),  # version 1 states as they were
    }


def rules_version(state: Mapping[str, Any]) -> int:
    """The rules version the game plays (a state without the field began under version 1)."""
    return int(state.get("rules_version", 1))


def live(state: Mapping[str, Any]) -> list[str]:
    return [p for p in state["seats"] if not state["powers"][p]["conceded"]]


def _next_live(state: Mapping[str, Any], after: str) -> str:
    seats = state["seats"]
    i = seats.index(after)
    for k in range(1, len(seats) + 1):
        p = seats[(i + k) % len(seats)]
        if not state["powers"][p]["conceded"]:
            return str(p)
    return after


def order_of_round(state: Mapping[str, Any]) -> list[str]:
    """Execution order of a round: seat order, rotated to start at this round's first player."""
    seats = state["seats"]
    i = seats.index(state["first"])
    return [p for p in seats[i:] + seats[:i] if not state["powers"][p]["conceded"]]


def window(state: Mapping[str, Any]) -> Window | None:
    if state["result"] is not None:
        return None
    if state["phase"] == "setup":  # draws nothing: every player commits his chance
        return Window("setup", "Set-up: every player commits his chance", tuple(live(state)))
    if state["phase"] == "deal":
        return Window("deal", "The deal: the shuffle, the hands, the galaxy, the first player",
                      tuple(live(state)), draws=True)
    if state["mode"] == "sequential":
        p = state["active"]
        # The others are listened to: a defender's value enters the battle dice's seed.
        others = tuple(q for q in live(state) if q != p)
        return Window("turn", f"Turn {state['turn']}: {p} moves", (p,), listens=others,
                      draws=True)
    return Window("round", f"Round {state['round']} (turn {state['turn']})",
                  tuple(order_of_round(state)), draws=True)


class Table:
    """A working copy of the state and the events of one step (never the caller's state)."""

    def __init__(self, state: Mapping[str, Any], chance: Chance | None) -> None:
        # A deep copy: the state is plain data, which pickle's round trip copies exactly as
        # copy.deepcopy does (types and shared references kept) at a sixth of its cost
        # (0.07 ms against 0.43 ms for a 4-player state, most of it the deck's catalogue).
        self.s: dict[str, Any] = pickle.loads(pickle.dumps(dict(state), pickle.HIGHEST_PROTOCOL))
        self.events: list[dict[str, Any]] = []
        self.practice = isinstance(chance, PracticeChance)
        self.chance: Chance = chance if chance is not None else NO_CHANCE
        self.version = rules_version(self.s)
        self.last_drawn: str | None = None  # ruling A11: the card the last draw took
        self.home_before: dict[str, int] = {}  # ruling A18: the mover's hand before movement

    # -- plumbing --------------------------------------------------------------------------
    def emit(self, kind: str, visible_to: list[str] | None = None, **fields: Any) -> None:
        event: dict[str, Any] = {"type": kind, "turn": self.s["turn"], **fields}
        self.events.append(event if visible_to is None else private(event, *visible_to))

    @property
    def cards(self) -> dict[str, Any]:
        return dict(self.s["catalogue"]["cards"])

    def pop(self, code: str) -> int:
        return int(self.cards[code]["population"])

    def limit(self, code: str) -> int:
        return 2 * self.pop(code)

    def over(self) -> bool:
        return self.s["result"] is not None

    def position(self, power: str) -> Position:
        me = self.s["powers"][power]
        enemy = {c: p for p, info in self.s["powers"].items() if p != power
                 for c in info["colonies"]}
        return Position(self.cards, dict(me["hand"]), dict(me["colonies"]), enemy,
                        dict(self.s["galaxy"]), self.version)

    def store(self, power: str, pos: Position) -> None:
        me = self.s["powers"][power]
        me["hand"], me["colonies"] = dict(sorted(pos.hand.items())), dict(
            sorted(pos.colonies.items()))

    # -- the deck --------------------------------------------------------------------------
    def draw(self) -> str:
        """The top card of the black hole (the game ends when the last one is drawn)."""
        code = str(self.s["deck"].pop(0))
        self.s["under"].pop(code, None)
        self.last_drawn = code
        return code

    def bury(self, code: str, known_by: str) -> None:
        """Shove a card underneath the black hole; ``known_by``: "public" or the one power
        that knows which card it is (the referee always knows)."""
        self.s["deck"].append(code)
        self.s["under"][code] = known_by

    def draw_home(self, power: str, ships: int = 0) -> str:
        code = self.draw()
        me = self.s["powers"][power]
        keep = min(ships, self.limit(code))
        me["hand"][code] = keep
        me["hand"] = dict(sorted(me["hand"].items()))
        self.emit("draw", visible_to=[power], power=power, planet=cid(code), ships=keep,
                  eliminated=ships - keep)
        self.emit("drew", power=power, deck=len(self.s["deck"]), eliminated=ships - keep)
        return code

    def explore(self) -> str:
        code = self.draw()
        self.s["galaxy"][code] = 0
        self.s["galaxy"] = dict(sorted(self.s["galaxy"].items()))
        self.emit("explored", planet=cid(code), deck=len(self.s["deck"]))
        return code

    def deck_check(self) -> None:
        """The last card drawn off the deck ends the game at once, after the cluster check
        (ruling A11: from version 2 a cluster the last card itself would complete does not
        count: the cluster must be possessed "before the last card is drawn off the deck")."""
        last = self.last_drawn if self.version >= 2 and not self.s["deck"] else None
        if not self.over():
            check_clusters(self, exclude=last)
        if not self.over() and not self.s["deck"]:
            end_by_population(self, "deck")


def holdings(state: Mapping[str, Any], power: str) -> list[str]:
    me = state["powers"][power]
    return sorted(list(me["hand"]) + list(me["colonies"]))


def population(state: Mapping[str, Any], power: str) -> int:
    cards = state["catalogue"]["cards"]
    return sum(int(cards[c]["population"]) for c in holdings(state, power))


def complete_cluster(state: Mapping[str, Any], power: str, exclude: str | None = None
                     ) -> list[str] | None:
    """The first complete cluster ``power`` possesses (hand and colonies count; never the card
    ``exclude``), or None. Second degree (ruling A10): any six cards of one number; under rules
    version 1 the deck's printed groups where it has them."""
    own = set(holdings(state, power)) - {exclude}
    cat = state["catalogue"]
    by_letter: dict[str, list[str]] = {}
    for c in cat["cards"]:
        by_letter.setdefault(c[0], []).append(c)
    for letter in cat["letters"]:
        group = sorted(by_letter.get(letter, ()))
        if group and set(group) <= own:
            return group
    printed = cat["second_degree"] if rules_version(state) == 1 else []
    for group in printed:
        if set(group) <= own:
            return sorted(group)
    if not printed:  # ruling A10: any six cards of one number
        digits: dict[str, list[str]] = {}
        for c in sorted(own):
            digits.setdefault(c[1:], []).append(c)
        for cards in digits.values():
            if len(cards) >= 6:
                return cards[:6]
    return None


def reveal(t: Table) -> None:
    """At the end every hand is shown (the winner's proves the cluster) and the deck's rest."""
    t.emit("reveal", hands={p: [cid(c) for c in t.s["powers"][p]["hand"]]
                            for p in t.s["seats"]},
           deck=[cid(c) for c in t.s["deck"]])


def check_clusters(t: Table, first: str | None = None, exclude: str | None = None) -> None:
    """Ruling A11: checked after every change; several at once: the first in turn order."""
    if t.over():
        return
    order = live(t.s)
    if first in order:
        i = order.index(first)
        order = order[i:] + order[:i]
    for p in order:
        group = complete_cluster(t.s, p, exclude)
        if group is not None:
            degree = 1 if len({c[0] for c in group}) == 1 else 2
            t.s["result"] = {"winners": [p], "reason": "cluster", "cluster": group,
                             "degree": degree, "turn": t.s["turn"]}
            t.emit("victory", winners=[p], reason="cluster", degree=degree,
                   cluster=[cid(c) for c in group])
            reveal(t)
            return


def end_by_population(t: Table, reason: str) -> None:
    totals = {p: population(t.s, p) for p in live(t.s)}
    best = max(totals.values(), default=0)
    winners = [p for p in live(t.s) if totals[p] == best]
    t.s["result"] = {"winners": winners, "reason": reason, "population": totals,
                     "turn": t.s["turn"]}
    t.emit("victory", winners=winners, reason=reason, population=totals)
    reveal(t)


# -- the deal ------------------------------------------------------------------------------
def deal(t: Table) -> None:
    """Shuffle (secret stream), 3 concealed homeplanets each in seat order, 8 neutral planets
    face up, the rest the black hole; the first player by a public draw."""
    codes = sorted(t.cards, key=lambda c: int(t.cards[c]["number"]))  # data order, not dict order
    t.s["deck"] = t.chance.secret("shuffle:deck").shuffle(codes)
    for _ in range(HAND):
        for p in t.s["seats"]:
            code = t.draw()
            t.s["powers"][p]["hand"][code] = 0
    for p in t.s["seats"]:
        hand = t.s["powers"][p]["hand"]
        t.s["powers"][p]["hand"] = dict(sorted(hand.items()))
        t.emit("dealt", visible_to=[p], power=p, planets=[cid(c) for c in sorted(hand)])
    for _ in range(GALAXY):
        t.explore()
    seats = t.s["seats"]
    first = seats[t.chance.public("first-player").below(len(seats))]
    extra: dict[str, Any] = {"chance": "practice"} if t.practice else {}
    t.emit("first_player", power=first, label="first-player", seats=list(seats), **extra)
    t.s["phase"] = "play"
    t.s["first"] = first
    if t.s["mode"] == "sequential":
        t.s["active"] = first
    else:
        t.s["round"] = 1
    t.deck_check()


# -- one player's turn ---------------------------------------------------------------------
def turn(t: Table, power: str, orders: Mapping[str, Any]) -> None:
    if orders.get("retreat") is not None:
        t.s["powers"][power]["retreat"] = list(orders["retreat"])
    reinforce(t, power, orders.get("place"))
    t.home_before = dict(t.s["powers"][power]["hand"])
    moves = [m for m in [orders.get("move"), *orders.get("else", [])] if m]
    chosen = None
    for i, move in enumerate(moves):
        problems = check_move(t.position(power), move, "move" if i == 0 else f"else[{i - 1}]")
        if not problems:
            chosen = move
            break
        t.emit("move_void", visible_to=[power], power=power, move=_named(move),
               problems=[str(p) for p in problems])
    if chosen is None:
        t.emit("no_movement", power=power)
        check_clusters(t, power)
        return
    kind = next(iter(chosen))
    if kind == "exchange":
        exchange(t, power, chosen["exchange"])
    elif kind == "colonise":
        colonise(t, power, chosen["colonise"], chosen["ships"])
    elif kind == "reorganise":
        reorganise(t, power, chosen["reorganise"])
    else:
        conquer(t, power, chosen)
    check_clusters(t, power)


def _named(move: Mapping[str, Any]) -> dict[str, Any]:
    """A move with its cards in the ``planet:`` form (for the mover's own events)."""
    def name(v: Any) -> Any:
        if isinstance(v, str):
            return cid(v)
        if isinstance(v, Mapping):
            return {cid(k): n for k, n in v.items()}
        return v
    return {k: name(v) for k, v in move.items()}


def reinforce(t: Table, power: str, wanted: Mapping[str, int] | None) -> None:
    """One ship per planet held while the 108 last, placed within stacking (ruling A14:
    placements that do not fit, and unplaced ships, go to the planet with most free room)."""
    pos = t.position(power)
    count = pos.reinforcements()
    placed, left, unfit = place(pos, wanted, count)
    t.store(power, pos)
    colonies = {cid(c): n for c, n in placed.items() if c in pos.colonies}
    home = sum(n for c, n in placed.items() if c in pos.hand)
    t.emit("reinforcement", power=power, received=count - left, stock_short=left,
           colonies=colonies, home=home, in_play=pos.in_play())
    t.emit("reinforcement_split", visible_to=[power], power=power,
           home={cid(c): n for c, n in placed.items() if c in pos.hand},
           unfit=[cid(c) for c in unfit])


def exchange(t: Table, power: str, card: str) -> None:
    """a. One handcard under the black hole, a new one off the top (ruling A3: its ships move
    to the new card, excess eliminated)."""
    me = t.s["powers"][power]
    ships = me["hand"].pop(card)
    t.bury(card, power)
    t.emit("exchanged", visible_to=[power], power=power, planet=cid(card))
    t.emit("exchange", power=power)
    t.draw_home(power, ships)
    t.deck_check()


def colonise(t: Table, power: str, card: str, ships: Mapping[str, int]) -> None:
    """b. A handcard face up as a colony, occupied by up to 6 ships from the homeplanets (ruling
    A13: its own first, then those moved from the others; any of its own beyond 6 go to the
    card drawn in its place, ruling A3; under rules version 1 its own stayed and up to 6 more
    came); then a new homeplanet is drawn, and emptied homeplanets revolt (ruling A18)."""
    me = t.s["powers"][power]
    total = me["hand"].pop(card)
    extra = max(0, total - MOVE_MAX) if t.version >= 2 else 0
    total -= extra
    for code, n in ships.items():
        me["hand"][code] -= n
        total += n
    me["colonies"][card] = total
    me["colonies"] = dict(sorted(me["colonies"].items()))
    t.emit("colonised", power=power, planet=cid(card), ships=total,
           moved=sum(ships.values()))
    t.draw_home(power, extra)
    t.deck_check()
    if t.version >= 2 and not t.over():
        revolutions(t, power)


def reorganise(t: Table, power: str, wanted: Mapping[str, int]) -> None:
    """d. Every ship in play onto any own planet within stacking (no 6-ship limit)."""
    me = t.s["powers"][power]
    for code, n in wanted.items():
        (me["hand"] if code in me["hand"] else me["colonies"])[code] = n
    t.emit("reorganised", power=power,
           colonies={cid(c): n for c, n in me["colonies"].items()},
           home=sum(me["hand"].values()))
    t.emit("reorganised_split", visible_to=[power], power=power,
           home={cid(c): n for c, n in me["hand"].items()})
    revolutions(t, power)


def revolutions(t: Table, power: str) -> None:
    """A colony whose last ship left during movement becomes neutral and goes under the black
    hole (public: everyone saw it on the table). Ruling A18 (rules version 2): so does a
    homeplanet whose last ship left ("any one planet", S:63), shown as it goes under; the
    player then draws one in its place for each, to hold three again (S:60)."""
    me = t.s["powers"][power]
    for code in sorted(c for c, n in me["colonies"].items() if n == 0):
        del me["colonies"][code]
        t.bury(code, "public")
        t.emit("revolution", power=power, planet=cid(code), deck=len(t.s["deck"]))
    if t.version < 2:
        return
    emptied = sorted(c for c, n in me["hand"].items() if n == 0 and t.home_before.get(c, 0))
    for code in emptied:
        del me["hand"][code]
        t.bury(code, "public")
        t.emit("revolution", power=power, planet=cid(code), deck=len(t.s["deck"]),
               homeplanet=True)
    for _ in emptied:
        t.draw_home(power)
    if emptied:
        t.deck_check()


def send_home(t: Table, power: str, ships: int) -> tuple[dict[str, int], int]:
    """Ships back to ``power``'s homeplanets: his standing preference first, then most free
    room (ruling A9); what fits nowhere is eliminated. Returns (placed, eliminated)."""
    pos = t.position(power)
    pref = [c for c in t.s["powers"][power]["retreat"] if c in pos.hand]
    placed: dict[str, int] = {}
    for _ in range(ships):
        target = next((c for c in pref if free(pos, c) > 0), None) or by_room(pos,
                                                                                sorted(pos.hand))
        if target is None:
            break
        pos.add(target, 1)
        placed[target] = placed.get(target, 0) + 1
    t.store(power, pos)
    return placed, ships - sum(placed.values())


def conquer(t: Table, power: str, move: Mapping[str, Any]) -> None:
    """c. Prepare conquest, then the battle phase (revolution first) and the retreat."""
    target, source, ships = move["conquer"], move["from"], dict(move["ships"])
    me = t.s["powers"][power]
    attackers = sum(ships.values())
    from_hand = source in me["hand"]
    for code, n in ships.items():
        (me["hand"] if code in me["hand"] else me["colonies"])[code] -= n
    defender = next((p for p, info in t.s["powers"].items() if target in info["colonies"]),
                    None)
    route: dict[str, Any] = ({"from": "homeplanets", "proof": cid(source)} if from_hand
                             else {"from": cid(source)})
    t.emit("conquest", power=power, planet=cid(target), defender=defender, ships=attackers,
           **route)
    if from_hand:  # the shown card is public, goes under the deck; its ships to the new card
        left = me["hand"].pop(source)
        t.bury(source, "public")
        t.emit("proof", power=power, planet=cid(source), deck=len(t.s["deck"]))
        t.draw_home(power, left)
        t.deck_check()
        if t.over():  # the draw ended the game before the battle: the fleet goes home (A21)
            placed, lost = send_home(t, power, attackers)
            t.emit("retreat", power=power, ships=sum(placed.values()), eliminated=lost)
            return
    revolutions(t, power)
    if t.over():  # a homeplanet's revolution drew a winning card (A18): the fleet goes home
        placed, lost = send_home(t, power, attackers)
        t.emit("retreat", power=power, ships=sum(placed.values()), eliminated=lost)
        return
    battle(t, power, target, attackers, defender, move.get("survivors_to"))


def battle(t: Table, power: str, target: str, attackers: int, defender: str | None,
           survivors_to: str | None) -> None:
    """Execution: one die per attacking ship; a neutral planet one die per population point
    (plus one per ship stationed there, ruling A6), a colony one die per ship. Evaluation: the
    highest total wins, the defender on a tie; each side loses floor(opponent's total / 6)."""
    label = f"battle:turn{t.s['turn']}:{power}"
    if defender is None:
        stationed = t.s["galaxy"][target]
        dice_def = t.pop(target) + stationed
    else:
        stationed = t.s["powers"][defender]["colonies"][target]
        dice_def = stationed
    # ruling A22 (rules version 2): a neutral planet's defenders are its dice, one per
    # population point and one per ship stationed; those left after the hits retreat if it
    # falls (S:73). Version 1 counted the stationed ships alone.
    defenders = dice_def if t.version >= 2 else stationed
    att = t.chance.public(label + ":attacker").roll(DIE, attackers)
    dfd = t.chance.public(label + ":defender").roll(DIE, dice_def)
    att_total, def_total = sum(att), sum(dfd)
    att_left = max(0, attackers - def_total // 6)
    def_left = max(0, defenders - att_total // 6)
    won = att_total > def_total
    event: dict[str, Any] = {
        "power": power, "planet": cid(target), "defender": defender or "neutral",
        "attacker_label": label + ":attacker", "defender_label": label + ":defender",
        "attacker_dice": att, "defender_dice": dfd, "attacker_total": att_total,
        "defender_total": def_total, "attacker_hits": att_total // 6,
        "defender_hits": def_total // 6, "attacker_left": att_left, "defender_left": def_left,
        "winner": power if won else (defender or "neutral"),
    }
    if t.practice:
        event["chance"] = "practice"
    t.emit("battle", **event)
    me = t.s["powers"][power]
    if won:
        keep = min(att_left, t.limit(target))
        if defender is None:
            del t.s["galaxy"][target]
        else:
            del t.s["powers"][defender]["colonies"][target]
        me["colonies"][target] = keep
        me["colonies"] = dict(sorted(me["colonies"].items()))
        t.emit("conquered", power=power, planet=cid(target), ships=keep,
               eliminated=att_left - keep)
        if keep == 0:  # cannot happen (ruling A7) but a colony needs a ship
            revolutions(t, power)
        if defender is None:
            new = t.explore()
            if def_left:
                to = survivors_to if survivors_to and survivors_to in t.s["galaxy"] else new
                fit = min(def_left, max(0, t.limit(to) - t.s["galaxy"][to]))
                t.s["galaxy"][to] += fit
                t.emit("neutral_retreat", planet=cid(to), ships=fit,
                       eliminated=def_left - fit)
            t.deck_check()
        else:
            placed, lost = send_home(t, defender, def_left)
            t.emit("retreat", power=defender, ships=sum(placed.values()), eliminated=lost)
            t.emit("retreat_split", visible_to=[defender], power=defender,
                   home={cid(c): n for c, n in placed.items()})
    else:
        if defender is None:  # the population is never lost (ruling A6): ships are
            t.s["galaxy"][target] = max(0, stationed - att_total // 6)
        else:
            t.s["powers"][defender]["colonies"][target] = def_left
            if def_left == 0:  # ruling A7: a defender left without ships revolts
                del t.s["powers"][defender]["colonies"][target]
                t.bury(target, "public")
                t.emit("revolution", power=defender, planet=cid(target),
                       deck=len(t.s["deck"]))
        placed, lost = send_home(t, power, att_left)
        t.emit("retreat", power=power, ships=sum(placed.values()), eliminated=lost)
        t.emit("retreat_split", visible_to=[power], power=power,
               home={cid(c): n for c, n in placed.items()})


# -- steps ---------------------------------------------------------------------------------
def resolve(state: Mapping[str, Any], orders: Mapping[str, Any], chance: Chance
            ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    t = Table(state, chance)
    if t.over():
        return t.s, []
    if t.s["phase"] == "setup":
        t.s["phase"] = "deal"  # every tip is in: the next step deals
    elif t.s["phase"] == "deal":
        deal(t)
    elif t.s["mode"] == "sequential":
        power = t.s["active"]
        turn(t, power, orders.get(power) or {})
        t.s["active"] = _next_live(t.s, power)
    else:
        for power in order_of_round(t.s):
            if t.over():
                break
            if not t.s["powers"][power]["conceded"]:
                turn(t, power, orders.get(power) or {})
        if t.version == 1:  # ruling A1: from version 2 the cycle is fixed, as at the table
            t.s["first"] = _next_live(t.s, t.s["first"])
        t.s["round"] += 1
    t.s["turn"] += 1
    return t.s, t.events


def concede(state: Mapping[str, Any], power: str) -> tuple[dict[str, Any], list[Any]]:
    """Ruling A15: the conceding player's colonies revolt (public) and his hand goes under the
    deck unseen; his ships leave play. One player left wins."""
    t = Table(state, None)
    me = t.s["powers"].get(power)
    if me is None or me["conceded"] or t.over():
        return t.s, []
    me["conceded"] = True
    for code in sorted(me["colonies"]):
        t.bury(code, "public")
        t.emit("revolution", power=power, planet=cid(code), deck=len(t.s["deck"]))
    for code in sorted(me["hand"]):
        t.bury(code, power)
    me["colonies"], me["hand"] = {}, {}
    t.emit("concession", power=power)
    if t.s["active"] == power:
        t.s["active"] = _next_live(t.s, power)
    if t.s["first"] == power:
        t.s["first"] = _next_live(t.s, power)
    if len(live(t.s)) == 1:
        end_by_population(t, "concession")
    return t.s, t.events


def end_game(state: Mapping[str, Any], reason: str) -> tuple[dict[str, Any], list[Any]]:
    """End by agreement: as when the deck runs out, the highest population total wins."""
    t = Table(state, None)
    if t.over():
        return t.s, []
    end_by_population(t, reason)
    return t.s, t.events
