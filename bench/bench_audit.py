"""``pbem audit`` of a generated 200-turn four-power 4000 A.D. game, in turns per second.

The game is written straight into a log with ``pbem.log.make_entry`` (no mail): each turn every
power sends random legal orders (departures with real commitments, arrivals revealed from the
vault, as tests/test_4000ad_properties.py plays them), signed with a real Ed25519 key, and a
``resolve`` entry is made from the real rules core exactly as the cron job makes it. The audit
then does everything it does on a real game: chain, signatures, parses, order checks, replay.

Floor per turn (shared/notes/performance-floor.md, 2-core VM), for what the audit cannot avoid:
- 4 signature verifies at 0.064 ms;
- 4 order parses at 0.465 ms per 1.9 KB (CSafeLoader), scaled to the mean size of the
  generated order files (the note's figure is for a 20-order file; ours are smaller);
- one digest of the state after the resolution: a canonical ``json.dumps`` at 0.36 ms per
  50 KB (the note's 330-400 µs), scaled to the generated state's size.
Resolving with the rules core is not in the floor (it has no row in the note), so the ratio
also shows what the replay itself costs. Floor in turns/s = 1000 / (floor ms per turn).
"""

from __future__ import annotations

import random
from typing import Any

import yaml

from bench.report import line, median_seconds
from pbem import canonical
from pbem.audit import audit_bytes
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.gamedir import GENESIS_FORMAT
from tests.ad_driver import AD, Table
from tests.test_4000ad_properties import random_body

TURNS = 200
VERIFY_MS = 0.064
PARSE_MS_PER_1900_BYTES = 0.465
DUMPS_MS_PER_50KB = 0.36


def _time(turn: int, step: int) -> str:
    minutes = turn * 10 + step
    return f"2026-12-{1 + minutes // 1440:02d}T{minutes // 60 % 24:02d}:{minutes % 60:02d}:00Z"


def generate(turns: int = TURNS, seed: int = 3) -> tuple[bytes, dict[str, float]]:
    """The log bytes of a ``turns``-turn game, and sizes for the floor."""
    rng = random.Random(seed)
    table = Table("independents-4")
    game_id = table.state["game_id"]
    keys = {p: PrivateKey.generate() for p in AD.powers_due(table.state)}
    referee = PrivateKey.generate()
    genesis = {
        "format": GENESIS_FORMAT, "game_id": game_id, "config": {"generated": "bench"},
        "keys": {p: k.public.text() for p, k in keys.items()},
        "referee": referee.public.text(), "plugin": AD.id, "variant": "independents-4",
        "options": {"game_id": game_id}, "initial_state": canonical.digest(table.state),
        "deadline": _time(0, 0),
    }
    entries = [glog.make_entry(None, glog.GENESIS_KIND, _time(0, 0), genesis)]
    text_bytes = 0
    for turn in range(1, turns + 1):
        state = table.state
        if AD.is_over(state):
            raise RuntimeError(f"the generated game ended on turn {turn}; pick another seed")
        standing: dict[str, Any] = {}
        for step, power in enumerate(AD.powers_due(state), 1):
            body = _peaceful(table, power, random_body(table, power, rng))
            doc = {"pbem": 1, "game": game_id, "power": power, "turn": state["turn"],
                   "seq": turn, "orders": body}
            text = sign_orders(yaml.safe_dump(doc, sort_keys=False), keys[power], check=False)
            text_bytes += len(text)
            sub = replay.orders_body(
                turn=state["turn"], power=power, seq=turn,
                sha256=_sha(text), text=text, orders=body, received=_time(turn, step),
                message_id=None, key=keys[power].public.fingerprint)
            entries.append(glog.make_entry(entries[-1], replay.ORDERS, _time(turn, step), sub))
            standing[power] = sub
        orders, used, opened, stale = replay.gather_orders(AD, state, standing, None)
        result = AD.resolve(state, orders)
        resolve = {"turn": AD.orders_turn(state), "due": AD.powers_due(state), "used": used,
                   "escrow": opened, "stale": {p: [str(x) for x in v] for p, v in stale.items()},
                   "state": canonical.digest(result.state), "events": result.events,
                   "deadline": _time(turn + 1, 0)}
        entries.append(glog.make_entry(entries[-1], replay.RESOLVE, _time(turn, 9), resolve))
        table.state = result.state
    sizes = {"order_bytes": text_bytes / (turns * 4),
             "state_bytes": len(canonical.encode(table.state))}
    return b"".join(e.line() for e in entries), sizes


def _peaceful(table: Table, power: str, body: dict[str, Any]) -> dict[str, Any]:
    """Random orders that keep every power in the game for 200 turns: no departure for a home
    star, never more than half the ships at home leave it (the commitment does not cover the
    ship count), no votes to end, no withdrawals."""
    body.pop("vote_end", None)
    body.pop("withdraw", None)
    depart = body.get("depart")
    homes = {info["home"] for info in table.state["powers"].values()}
    if depart:
        star = depart.get("to") or table.vault.get((power, str(depart["warp"]),
                                                    table.state["turn"]), ("",))[0]
        if star in homes:  # nobody attacks a home star, so nobody is eliminated
            del body["depart"]
            return body
    if depart and depart["from"] == table.state["powers"][power]["home"]:
        have = table.state["stars"][depart["from"]]["ships"].get(power, 0)
        if have < 2:
            del body["depart"]
        else:
            depart["ships"] = have // 2
    return body


def _sha(text: str) -> str:
    import hashlib

    from pbem.protocol.armor import dearmor

    return hashlib.sha256(dearmor(text).body.encode("utf-8")).hexdigest()


def floor_turns_per_second(sizes: dict[str, float]) -> float:
    per_turn = (4 * (VERIFY_MS + PARSE_MS_PER_1900_BYTES * sizes["order_bytes"] / 1900)
                + DUMPS_MS_PER_50KB * sizes["state_bytes"] / 50_000)
    return 1000 / per_turn


def run() -> None:
    data, sizes = generate()
    report = audit_bytes(data, "bench")
    assert report.tally.resolutions == TURNS and report.tally.orders == 4 * TURNS
    seconds = median_seconds(lambda: audit_bytes(data, "bench"), repeat=3)
    line(f"audit: a {TURNS}-turn four-power game ({report.tally.battles} battles)",
         TURNS / seconds, "turns/s", floor_turns_per_second(sizes), rate=True)


if __name__ == "__main__":
    run()
