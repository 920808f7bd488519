"""``make demo GAME=ashes``: a three-player game of The Ashes of Empire, played by email.

As the 4000 A.D. demo (games/fourthousand_ad/demo.py, on the kit in pbem/cli/demo.py): each player
has an Ed25519 key and a vault (which keeps his fair-chance seed), writes orders with the player's
tool from the view.json of his last mail (``pbem orders new/ashes/check/sign``), mails them into
the referee's Maildir; the referee's cron job (``pbem ingest`` + ``pbem run``) shuffles and deals
in the first step, rolls the battle dice from the committed chance and mails reports. Each player
attacks the first planet his line D reaches (the deal is fair, so it cannot be scripted in
advance); after four rounds the game master ends the game and the highest population total wins.
The log is exported and audited: every die and the shuffle are replayed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from typing import Any

from pbem.cli.demo import OUT, copy_report, latest_view, mail_orders, newest_report, run, say, when

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
    if OUT.exists():
        shutil.rmtree(OUT)
    root = OUT / "games"
    game = root / "ashes-1"
    maildir = OUT / "referee-maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    print("== keys for every player, and a new game of The Ashes of Empire")
    for power in POWERS:
        (OUT / "players" / power).mkdir(parents=True)
        run("keygen", str(OUT / "players" / power / "key"), who=power)
    run("new", str(game), "--game", "ashes", "--variant", "rounds-3", "--deadline", "48h",
        "--gm", "gm@example.org", "--from", "Ashes referee <referee@example.org>",
        "--now", when(0),
        *[a for p in POWERS for a in ("--power",
                                     f"{p}={p}@example.org:{OUT / 'players' / p / 'key.pub'}")])
    run("run", str(root), "--now", when(0.1))
    n = 0
    for step in range(ROUNDS + 1):
        print("== set-up: every player commits his chance tip" if step == 0 else
              f"== round {step}: every player writes, signs and mails orders")
        for power in POWERS:
            home = OUT / "players" / power
            view = latest_view(root, power)
            vault = str(home / "vault.json")
            os.environ["PBEM_VAULT"] = vault
            say(power, f"export PBEM_VAULT={vault}")
            orders = home / f"step-{step}.yaml"
            run("orders", "new", "--view", str(view), "--seq", str(step), "-o", str(orders),
                "--force", "--vault", vault, who=power)
            if step:
                flags = attack(json.loads(view.read_text()))
                if flags:
                    run("orders", "ashes", str(orders), *flags, "--view", str(view), who=power)
            run("orders", "check", str(orders), "--view", str(view), "--vault", vault,
                who=power)
            signed = home / f"step-{step}.signed.txt"
            run("orders", "sign", str(orders), "--key", str(home / "key.key"), "--view",
                str(view), "--vault", vault, "-o", str(signed), who=power)
            n += 1
            delivered = mail_orders(maildir, power, signed, n)
            print(f"{power}: mailed {signed} to referee@example.org (it arrived as {delivered})")
        run("ingest", str(root), "--maildir", str(maildir), "--now", when(step * 2 + 0.5))
        run("run", str(root), "--now", when(step * 2 + 1))
    print("== the game master ends the game: the highest population total wins")
    run("gm", "end", str(game), "--reason", "the demo is over", "--now", when(ROUNDS * 2 + 3))
    run("run", str(root), "--now", when(ROUNDS * 2 + 4))
    print("== export the revealed log and audit it: every die and the shuffle are replayed")
    log = OUT / "ashes-1.export.jsonl"
    run("export", str(game), "-o", str(log))
    run("audit", str(log))
    report, html = copy_report(newest_report(root, "red", "resolved"), OUT)
    print()
    print(f"game: {game.resolve()}")
    print(f"log: {log.resolve()}")
    print(f"report: {report.resolve()} (Red's last report; open {html.name} beside it in a "
          "browser)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
