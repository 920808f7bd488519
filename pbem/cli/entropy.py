"""The player's chance contribution, as ``pbem orders sign`` writes it (docs/protocol.md, "Fair
chance" and "The player's tool never reveals ahead").

A game with chance says so in the view (``chance: {step, tip}``): the set-up file commits a new
chain's tip, every later file reveals the chain's value for the step. The tool:

* **never signs without it**: where neither the view nor the vault can tell the step (a file
  signed without ``--view`` for a game the vault knows draws dice, and no view of that turn
  read before), it refuses with one sentence saying what to pass;
* **never reveals ahead**: revealing the value for step t gives away the values of every step
  before t, so the referee could predict the player's contribution to each of them. The vault
  keeps the last step revealed (``chance_last``) and the log length the referee's signed
  checkpoint claimed then; the tool reveals the next step, or after missed steps the one the
  view names when the report mail's signed checkpoint supports it: the step is at most the
  log's length (each step is a resolve entry), at most as far past the last one as the log
  grew since, and at most ``MAX_AHEAD`` past it. Anything further is refused with one sentence,
  the vault unchanged and nothing written;
* for a power the step listens to but does not ask orders of (the defender, the target), writes
  a file that carries the value alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.chance.kinds import Contribution
from pbem.chance.player import new_seed, player_reveal, player_tip
from pbem.cli.savedmail import checkpoint_texts, is_mail
from pbem.errors import UsageError
from pbem.protocol.envelope import parse_envelope
from pbem.protocol.safeyaml import load_order_yaml
from pbem.protocol.vault import Vault
from pbem.store.checkpoint import Checkpoint, CheckpointError

if TYPE_CHECKING:
    from pbem.game.shapes import GameView

#: The most steps past the last one revealed that the tool reveals at once, whatever the
#: checkpoint claims (a player away for longer signs again from a newer report: see the
#: refusal).
MAX_AHEAD = 64
LAST, VIEW = "chance_last", "chance_view"


class Refused(UsageError):
    """The tool will not sign: one sentence saying why and what to pass."""


@dataclass(frozen=True)
class Asked:
    """What a view (or the vault's record of one) asks for: the step, the committed tip (None:
    the set-up, commit one), whether the step only listens to the power, and the log length
    the referee's signed checkpoint claims (None: no checkpoint at hand)."""

    game: str  # the vault's key: game id and instance
    game_id: str
    power: str
    step: int
    tip: str | None
    listened: bool
    length: int | None


def vault_key(game_id: str, instance: object) -> str:
    """Seeds are kept per game instance: a game made again under the same id never reuses
    one."""
    return f"{game_id}#{instance if isinstance(instance, str) else ''}"


def asked_by_view(view: GameView, view_path: Path | None) -> Asked | None:
    """What the view asks for (None: the game draws no dice, or not yet)."""
    info = view.get("chance")
    if not isinstance(info, dict) or not isinstance(info.get("step"), int):
        return None
    # ``contribute`` (the host's word for what the step needs of this power): "tip", "value",
    # "offer" (a listened power: its value enters the seed if it sends a file) or null (nothing:
    # a step that draws nothing, or a tip committed in this very step). Views made before it
    # say only the step and the tip.
    need = info.get("contribute",
                    Contribution.TIP if info.get("tip") is None else Contribution.VALUE)
    if need is None:
        return None
    listened = need == Contribution.OFFER
    tip = info.get("tip")
    return Asked(vault_key(view["game_id"], view.get("instance")), str(view["game_id"]),
                 str(view["viewer"]), int(info["step"]), str(tip) if tip is not None else None,
                 listened, checkpoint_length(view_path, str(view["game_id"])))


def checkpoint_length(path: Path | None, game_id: str) -> int | None:
    """The log length the referee's signed checkpoint in a saved report mail claims (None: the
    file is a bare view.json, or holds no checkpoint of this game)."""
    if path is None:
        return None
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    if not is_mail(raw):
        return None  # JSON, not a mail
    for text in checkpoint_texts(raw):
        try:
            cp = Checkpoint.parse(text)
        except CheckpointError:
            continue
        if cp.game == game_id:
            return cp.length
    return None


def remember_view(vault_path: Path | None, asked: Asked, turn: int) -> None:
    """Keep the step the view of ``turn`` asks for, so a file of that turn signed without
    ``--view`` gets its value too (``pbem orders new --view``)."""
    vault = Vault.load(vault_path)
    vault.note_chance(asked.game, asked.power, VIEW, turn=turn, step=asked.step,
                      length=asked.length, setup=int(asked.tip is None))
    vault.save()


#: The step a ``chance_view`` mark records for a view that asked the power for nothing (a step
#: that draws nothing, or whose tip was committed already): steps that draw count from 1.
NOTHING = 0


def remember_nothing(vault_path: Path | None, view: GameView) -> None:
    """Keep that the view of its turn asks the power for no chance (``chance.contribute``
    null), so a file of that turn signed without ``--view`` is signed as it is instead of being
    refused for a view the tool has not read (``pbem orders new --view``)."""
    info = view.get("chance")
    if (not isinstance(info, dict) or not isinstance(info.get("step"), int)
            or "contribute" not in info or info["contribute"] is not None):
        return
    vault = Vault.load(vault_path)
    vault.note_chance(vault_key(view["game_id"], view.get("instance")), str(view["viewer"]),
                      VIEW, turn=int(view["turn"]), step=NOTHING, length=None, setup=0)
    vault.save()


def asked_by_vault(text: str, vault: Vault) -> Asked | None:
    """What a file signed without ``--view`` must carry, from the vault alone (None: the vault
    knows no chance of this game: a game without dice, as far as the tool can tell). Refuses
    when the game draws dice but no view of the file's turn was read with this vault."""
    env = parse_envelope(load_order_yaml(text))
    game = vault_key(env.game, env.instance)
    seen = vault.chance_mark(game, env.power, VIEW)
    seed = vault.chance_seed(game, env.power, None)
    if seen is None and seed is None:
        return None
    if seen is not None and seen["turn"] == env.turn and seen["step"] == NOTHING:
        return None  # the view of this turn asked for nothing
    if seen is None or seen["turn"] != env.turn or seen["step"] is None:
        raise Refused(f"this game draws dice: pass --view REPORT.eml (the report or welcome "
                      f"mail for turn {env.turn}) so your contribution for its step is added; "
                      "nothing was signed")
    tip = None if seen["setup"] or seed is None else player_tip(bytes.fromhex(seed)).hex()
    return Asked(game, env.game, env.power, int(seen["step"]), tip, False, seen["length"])


def highest_allowed(asked: Asked, vault: Vault) -> tuple[int, int]:
    """(the last step revealed, the highest step the tool may reveal now)."""
    last = vault.chance_mark(asked.game, asked.power, LAST) or {"step": 0, "length": None}
    s0, l0 = int(last["step"] or 0), last["length"]
    if asked.length is None:
        return s0, s0 + 1
    limit = min(asked.length, s0 + MAX_AHEAD)
    if l0 is not None:
        limit = min(limit, s0 + max(asked.length - l0, 0))
    return s0, max(limit, s0 + 1)


def check_ahead(asked: Asked, vault: Vault) -> None:
    """Refuse (one sentence, nothing revealed) a step further than the player's records and
    the checkpoint support."""
    s0, limit = highest_allowed(asked, vault)
    if asked.step <= limit:
        return
    if asked.length is None:
        raise Refused(f"the view asks for your chance value for step {asked.step}, but your "
                      f"vault's last is for step {s0}: pass the report mail itself (--view "
                      "REPORT.eml), whose signed checkpoint shows the game has come that far; "
                      "nothing was signed")
    raise Refused(f"refused: the view asks for your chance value for step {asked.step}, but "
                  f"your vault's last value is for step {s0} and the referee's signed "
                  f"checkpoint (a log of {asked.length} entries) supports at most step {limit}, "
                  "and revealing it would give away your value for every step before it; "
                  "nothing was signed or revealed (sign from your newest report mail, or ask "
                  "the game master)")


def contribution(asked: Asked, vault: Vault) -> tuple[str, bool]:
    """The ``entropy`` line for the file and whether it reveals a chain value (the vault is
    changed in memory: a new seed, the marks; the caller saves it once the file is signed)."""
    if asked.tip is None:
        seed_hex = vault.chance_seed(asked.game, asked.power, None)
        if seed_hex is None:
            seed = new_seed()
            vault.add_chance_seed(asked.game, asked.power, seed.hex(), player_tip(seed).hex())
        else:
            seed = bytes.fromhex(seed_hex)
        vault.note_chance(asked.game, asked.power, LAST, step=asked.step, length=asked.length)
        return f"entropy: {{tip: {player_tip(seed).hex()}}}\n", False
    seed_hex = vault.chance_seed(asked.game, asked.power, asked.tip)
    if seed_hex is None:
        raise Refused(f"this game draws dice, but your vault holds no chance seed for "
                      f"{asked.power} in {asked.game_id} (tip {asked.tip[:16]}…): sign with the "
                      "vault you signed the set-up file with (--vault FILE), or ask the game "
                      "master to reset your chain (pbem gm replace); nothing was signed")
    check_ahead(asked, vault)
    last = vault.chance_mark(asked.game, asked.power, LAST) or {"step": 0}
    if asked.step > int(last["step"] or 0):
        vault.note_chance(asked.game, asked.power, LAST, step=asked.step, length=asked.length)
    value = player_reveal(bytes.fromhex(seed_hex), asked.step).hex()
    return f"entropy: {value}\n", True


def with_entropy(text: str, asked: Asked, vault: Vault) -> str:
    """The file with its ``entropy`` line (a file that has one already is left alone)."""
    if "entropy" in load_order_yaml(text):
        return text
    line, _ = contribution(asked, vault)
    match = re.search(r"^orders:", text, re.M)
    if match is None:
        return text + ("" if text.endswith("\n") else "\n") + line
    return text[:match.start()] + line + text[match.start():]
