"""The press mails: a relayed message, the sender's receipt, a press rejection.

Generic (no game rules): the templates are ``press``, ``press_receipt`` and ``press_rejection``
in ``templates/common/`` (docs/reports.md). A relay names its sender only as the caller gives it
(``anonymous`` for grey press): nothing here reads the log or the sender's address.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.errors import Problem
from pbem.render.mails import RenderedMail, Renderer, _extras, _game, _player, keepsake


def _names(powers: Sequence[str]) -> str:
    return ", ".join(p.capitalize() for p in powers)


def relay(renderer: Renderer, player: Mapping[str, Any], game: Mapping[str, Any], *,
          recipient: str, sender: str, turn: int, to: Sequence[str], text: str,
          signature: str) -> RenderedMail:
    """One press message as ``recipient`` gets it; ``sender`` is a power or ``anonymous``."""
    anonymous = sender == "anonymous"
    ctx = {"game": _game(game, player), "player": _player(player), "turn": turn,
           "recipient": recipient.capitalize(), "anonymous": anonymous,
           "sender": "" if anonymous else sender.capitalize(),
           "to_all": list(to) == ["all"], "to": _names(to),
           "lines": text.rstrip("\n").split("\n"),
           "signature": keepsake(signature, "press-signature.txt")}
    # The exact text as an attachment: what the referee's statement covers (text_sha256), so
    # ``pbem press verify`` can check it whatever the mail did to the wrapped body.
    exact = ("press-message.txt", "text/plain", text.encode("utf-8"))
    return renderer.mail("press", ctx, [exact, *_extras(ctx)])


def receipt(renderer: Renderer, player: Mapping[str, Any], game: Mapping[str, Any], *,
            power: str, turn: int, messages: Sequence[Mapping[str, Any]],
            signature: str) -> RenderedMail:
    """The sender's receipt: each message, who it went to, whether it went anonymous."""
    rows = [{"to": "every other power" if m["all"] else _names(m["to"]),
             "anonymous": bool(m["anonymous"]),
             "first": str(m["text"]).strip().split("\n")[0][:60]} for m in messages]
    ctx = {"game": _game(game, player), "player": _player(player), "turn": turn,
           "name": power.capitalize(), "messages": rows,
           "signature": keepsake(signature, "press-receipt.txt")}
    return renderer.mail("press_receipt", ctx, _extras(ctx))


def rejection(renderer: Renderer, player: Mapping[str, Any], game: Mapping[str, Any],
              power: str, turn: int, problems: Sequence[Problem]) -> RenderedMail:
    """Press rejected whole: every problem with its path; nothing was relayed."""
    rows = [{"path": p.path, "message": p.message, "code": p.code} for p in problems]
    ctx = {"game": _game(game, player), "player": _player(player), "turn": turn,
           "name": power.capitalize(), "problems": rows}
    return renderer.mail("press_rejection", ctx)
