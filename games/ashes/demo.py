"""``make demo GAME=ashes``: a three-player game of The Ashes of Empire, played by email.

As the 4000 A.D. demo (games/fourthousand_ad/demo.py, on the kit in pbem/game/demo.py): each player
has an Ed25519 key and a vault (which keeps his fair-chance seed), writes orders with the player's
tool from the view.json of his last mail (``pbem orders new/ashes/check/sign``), mails them into
the referee's Maildir; the referee's cron job (``pbem ingest`` + ``pbem run``) takes every
player's chance tip in the set-up step (which draws nothing), shuffles and deals in the next
step from every player's value, rolls the battle dice from the committed chance and mails
reports. Each player
attacks the first planet his line D reaches (the deal is fair, so it cannot be scripted in
advance); after four rounds the game master ends the game and the highest population total wins.
The log is exported and audited: every die and the shuffle are replayed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pbem.game.demo import latest_view, start_game

POWERS = ("red", "blue", "green")
ROUNDS = 4


def attack(view: dict[str, Any]) -> list[str]:
    """``pbem orders ashes`` options: conquer the first reachable planet with up to 6 ships."""
    cards = view["cards"]
    me = view["viewer"]

    def bare(c: str) -> str:
        return c.removeprefix("planet:")

    hand = {bare(c): n for c, n in view["you"]["hand"].items()}
    cols = {bare(c): n for c, n in view["powers"][me]["colonies"].items()}
    targets = [bare(c) for c in view["galaxy"]] + [
        bare(c) for p, info in view["powers"].items() if p != me for c in info["colonies"]]

    def reach(src: str, t: str) -> bool:
        return int(cards[t]["number"]) in cards[src]["reach"]["D"]

    for t in targets:
        for s in sorted(cols):
            if cols[s] and reach(s, t):
                return ["--conquer", t, "--from", s, "--ships", str(min(6, cols[s]))]
    for t in targets:
        for s in sorted(hand):
            if reach(s, t) and not any(reach(c, t) for c in cols):
                take, budget = [], 6
                for c in sorted(hand):
                    k = min(hand[c], budget)
                    if k:
                        take.append(f"{c}={k}")
                        budget -= k
                if take:
                    return ["--conquer", t, "--from", s, "--ships", *take]
    return []


def main() -> int:
    print("== keys for every player, and a new game of The Ashes of Empire")
    table = start_game("ashes-1", "ashes", "rounds-3", POWERS, "Ashes referee")
    for step in range(ROUNDS + 2):
        print("== set-up: every player commits his chance tip" if step == 0 else
              "== the deal: every player reveals his first chance value" if step == 1 else
              f"== round {step - 1}: every player writes, signs and mails orders")
        for power in POWERS:
            view = json.loads(latest_view(table.root, power).read_text())
            table.orders(power, f"step-{step}", "ashes", attack(view) if step >= 2 else [],
                         seq=step)
        table.cron(step * 2 + 0.5, step * 2 + 1)
    return table.finish(ROUNDS * 2 + 5, "red", "resolved",
                        ended=": the highest population total wins",
                        audited=": every die and the shuffle are replayed")


if __name__ == "__main__":
    sys.exit(main())
