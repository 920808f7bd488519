"""``make demo GAME=4000ad``: a complete scripted four-power game of 4000 A.D., played by email.

Everything is real: each player has an Ed25519 key; writes orders with the player's tool from the
view.json attached to its last mail (``pbem orders new/depart/reveal/sign``), destinations kept
secret in the player's own vault behind commitments; mails the signed block into the referee's
Maildir; the referee's cron job (``pbem ingest`` + ``pbem run``) accepts the orders, resolves the
turns and mails reports into a file outbox. At the end the log is exported and audited.

Every command is printed as it runs (``$ pbem ...``, the paths relative to where ``make demo``
ran), with the two steps that are not pbem commands (saving view.json from the last mail, and
mailing the signed orders), so a newcomer can copy them and play by hand. The last lines name
the game, the exported log and the latest report mail, copied out of the 70-odd hash-named files
of the outbox to ``demo-output/report.eml`` with its HTML part beside it as ``report.html``.

The story (Independents, 4 players): Algol sends 6 ships to Hamal, then two fleets of 6 — one
from Algol (5 turns), one from Hamal right after arriving there (4 turns) — timed to come out at
Pavo together on turn 6, while Pavo's main fleet is away; Pavo's home star falls, Pavo cannot
regain it on its very next turn and is eliminated; the others expand meanwhile; the game master
then ends the game by agreement.
"""

from __future__ import annotations

from pbem.game.demo import (
    OUT,
    end_by_agreement,
    export_and_audit,
    kept_checkpoint,
    latest_view,
    run,
    show,
    start_game,
    use_vault,
)

POWERS = ("pavo", "antares", "regulus", "algol")

# turn -> power -> departure (from, ships, to); arrivals are revealed from each vault when due
SCRIPT: dict[int, dict[str, tuple[str, int | str, str]]] = {
    1: {"algol": ("Algol", 6, "Hamal"), "pavo": ("Pavo", 13, "Vega"),
        "regulus": ("Regulus", 4, "Markab"), "antares": ("Antares", 5, "Sabik")},
    2: {"algol": ("Algol", 6, "Pavo"), "regulus": ("Regulus", 4, "Adhara"),
        "antares": ("Sabik", 5, "Castor")},
    3: {"algol": ("Hamal", 6, "Pavo"), "pavo": ("Vega", 3, "Sheliak")},
    4: {"regulus": ("Markab", 2, "Schedar")},
    5: {"antares": ("Antares", 4, "Sabik")},
}
LAST_TURN = 7


def main() -> int:
    print("== keys for every player, and a new game")
    table = start_game("andromeda-7", "4000ad", "independents-4", POWERS, "4000 AD referee")
    root, game = table.root, table.game
    for turn in range(1, LAST_TURN + 1):
        print(f"== turn {turn}: every player writes, signs and mails orders")
        for power in POWERS:
            if power == "pavo" and turn == LAST_TURN:
                continue  # Pavo cannot regain its home in time and sends nothing
            home = OUT / "players" / power
            view = latest_view(root, power)
            vault = use_vault(power)
            print(f"{power}: saved view.json from the last mail it got, as {view}")
            orders = home / f"turn-{turn}.yaml"
            run("orders", "new", "--view", str(view), "-o", str(orders), "--force", who=power)
            run("orders", "reveal", str(orders), "--view", str(view), "--vault", vault,
                who=power)
            if power in SCRIPT.get(turn, {}):
                origin, ships, dest = SCRIPT[turn][power]
                run("orders", "depart", str(orders), "--from", origin, "--ships", str(ships),
                    "--to", dest, "--view", str(view), "--vault", vault, who=power)
            table.mail(power, orders)
        table.cron(turn * 2 - 1.5, turn * 2 - 1 if turn < LAST_TURN else turn * 2 - 1 + 49)
    print("== the game master ends the game by agreement")
    end_by_agreement(root, game, LAST_TURN * 2 + 60, "the players agreed to end the demo")
    print("== export the revealed log and audit it")
    log = export_and_audit(game, "andromeda-7", "--checkpoint",
                           str(kept_checkpoint(root, "algol")))
    run("archive", str(log), "-o", str(OUT / "archive"))
    return show(root, game, log, "algol",
                before=[f"archive: {(OUT / 'archive' / 'index.html').resolve()}"])
