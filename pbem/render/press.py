"""The press mails: a relayed message, the sender's receipt, a press rejection.

Generic (no game rules): the templates are ``press``, ``press_receipt`` and ``press_rejection``
in ``templates/common/`` (docs/reports.md). A relay names its sender only as the caller gives it
(``anonymous`` for grey press): nothing here reads the log or the sender's address.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

from pbem.errors import Problem
from pbem.render.mails import RenderedMail, Renderer, _extras, _game, _player, keepsake

if TYPE_CHECKING:
    from pbem.game.shapes import MailFacts, PlayerInfo


def _names(powers: Sequence[str]) -> str:
    return ", ".join(p.capitalize() for p in powers)


def relay(renderer: Renderer, player: PlayerInfo, game: MailFacts, *,
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


#: The lines around the message in the text part of a relay (templates/common/press.txt).
MESSAGE_START = "----- message -----"
MESSAGE_END = "----- end of message -----"
#: The message in the HTML part of a relay (templates/common/press.html): its one <pre> that
#: is not the keepsake's (the signed statement, from pbem.host.press.signed_text).
_PRE = re.compile(r"<pre\b[^>]*>(.*?)</pre>", re.S | re.I)
STATEMENT_TAG = "pbem-press "


def shown_messages(msg: EmailMessage) -> list[tuple[str, str | None]]:
    """What each body part of a relay mail shows as the message, as ("text" | "html", text),
    for `pbem press verify`: the text between :data:`MESSAGE_START` and :data:`MESSAGE_END`,
    the HTML part's <pre> unescaped (the keepsake's, holding the statement, aside). None for a
    part where that is not exactly one block, or where the <pre> holds markup (text hidden or
    styled by a forwarder)."""
    out: list[tuple[str, str | None]] = []
    for part in msg.walk():
        if (part.get_content_maintype() != "text" or part.get_filename() is not None
                or part.get_content_disposition() == "attachment"):
            continue
        kind = "html" if part.get_content_subtype() == "html" else "text"
        try:
            content = str(part.get_content())
        except (LookupError, ValueError):
            out.append((kind, None))
            continue
        if kind == "html":
            found = [m for m in _PRE.findall(content)
                     if not html.unescape(m).lstrip().startswith(STATEMENT_TAG)]
            ok = len(found) == 1 and "<" not in found[0]
            out.append((kind, html.unescape(found[0]) if ok else None))
            continue
        lines = content.splitlines()
        starts = [i for i, line in enumerate(lines) if line.strip() == MESSAGE_START]
        ends = [i for i, line in enumerate(lines) if line.strip() == MESSAGE_END]
        ok = len(starts) == 1 and len(ends) == 1 and starts[0] < ends[0]
        out.append((kind, "\n".join(lines[starts[0] + 1:ends[0]]) if ok else None))
    return out


def shows(kind: str, shown: str | None, text: str) -> bool:
    """Whether a part's shown message is ``text``: exactly for HTML (a <pre> keeps the lines),
    every character but white space for the plain text (its lines are wrapped at 78 columns,
    long words broken)."""
    if shown is None:
        return False
    if kind == "html":
        return shown.rstrip("\n") == text.rstrip("\n")
    return "".join(shown.split()) == "".join(text.split())


def receipt(renderer: Renderer, player: PlayerInfo, game: MailFacts, *,
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


def rejection(renderer: Renderer, player: PlayerInfo, game: MailFacts,
              power: str, turn: int, problems: Sequence[Problem]) -> RenderedMail:
    """Press rejected whole: every problem with its path; nothing was relayed."""
    rows = [{"path": p.path, "message": p.message, "code": p.code} for p in problems]
    ctx = {"game": _game(game, player), "player": _player(player), "turn": turn,
           "name": power.capitalize(), "problems": rows}
    return renderer.mail("press_rejection", ctx)
