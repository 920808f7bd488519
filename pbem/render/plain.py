"""The receipt written without Jinja, exactly as its templates write it (issue 30, "Fast start").

Why: every accepted order mail is a ``pbem ingest --stdin`` process of its own, and its one
rendered mail is the receipt; importing jinja2 and loading the receipt's compiled templates cost
that process about a sixth of its time. Here each of the receipt's three templates
(``receipt.subject.txt``, ``receipt.txt`` with ``_keepsakes.txt`` and ``footer.txt``,
``receipt.html`` with ``layout.html`` and ``macros.html``) is a function giving the same text
(trim_blocks, lstrip_blocks, autoescape for .html: pbem.render.jinjaenv).

The templates stay the one definition: :func:`fits` compares the SHA-256 of the sources the
renderer would load (the first of each name along its search path: a game's own override
included) with the digest of the sources these functions were written from, and the renderer
uses Jinja for any other source. A template edited without this module is still rendered
right, through Jinja; tests/engine/render/test_render_plain.py then fails until the functions
and the digests in :data:`WRITERS` follow (it compares both renderings, every branch, for
every game).

A game does the same for its own mails in the same form: its presenter's ``writers`` maps a
template name to (the function writing it, the template sources it was written from, their
digest), as :data:`WRITERS` does; each function is called with the context and the filters the
templates have (:data:`FILTERS`), and used only where :func:`fits` (docs/plugins.md,
"Writers"; 4000 A.D.'s turn report: games/fourthousand_ad/writers.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from markupsafe import escape

from pbem.game.marks import for_readers
from pbem.game.partials import Filters, Writer, layout
from pbem.game.partials import keepsake_html as _keepsake_html
from pbem.game.partials import keepsake_text as _keepsake_text
from pbem.render.environment import para

#: The filters a game's writer is handed: the templates' own (pbem.render.jinjaenv).
FILTERS: Mapping[str, Callable[..., Any]] = {"para": para, "for_readers": for_readers}


def _e(value: Any) -> str:
    return str(escape(value))


def _subject(c: Mapping[str, Any], filters: Filters | None = None) -> str:
    game = c["game"]
    if c["standing"]:
        return f"[{game['id']}] Standing file received: {c['name']} (seq {c['seq']})"
    return f"[{game['id']}] Orders received: {c['name']}, turn {c['turn']} (seq {c['seq']})"


def _text(c: Mapping[str, Any], filters: Filters | None = None) -> str:
    game, name, turn, seq, next_seq = c["game"], c["name"], c["turn"], c["seq"], c["next_seq"]
    late, standing = c["late"], c["standing"]
    out = [f"{game['game_title']} · {game['title']}\n", "\n"]
    if standing:
        out.append(para(f"Your standing file for {name} (seq {seq}) was received, checked "
                        f"against turn {turn} and accepted. It is used at every later step you "
                        "send no orders for, until a standing file with a higher seq "
                        f"({next_seq} or more) replaces it. Your standing answers:") + "\n")
    else:
        out.append(para(f"Your orders for {name}, turn {turn} (seq {seq}), were received, "
                        "checked and accepted. This is what they will do:") + "\n")
    out.append("\n")
    out.extend(para(line, 4, "  - ") + "\n" for line in c["lines"])
    out.append("\n")
    if c.get("seat"):
        out.append(para(c["seat"]) + "\n\n")
    if c["chance"]:
        out.append(para(c["chance"]) + "\n\n")
    if standing:
        pass
    elif late:
        out.append(para(f"These orders arrived {late['received']['utc']}, after the deadline "
                        f"for turn {turn} ({late['deadline']['utc']}). This game takes late "
                        "orders until the turn is resolved, so they will be used: the turn is "
                        "resolved at the referee's next run, and a correction may come too "
                        "late.") + "\n")
    elif not c["early"]:
        out.append(para("The turn is resolved at the deadline, not before: until then a later "
                        f"file with a higher seq ({next_seq} or more) replaces these "
                        "orders.") + "\n")
    elif c["ready"]:
        out.append(para("Your orders are marked ready: the turn resolves when every power's "
                        "orders are ready, or at the deadline. Until then a later file with a "
                        f"higher seq ({next_seq} or more) replaces them; to keep the turn open "
                        "for a correction, send them with `ready: false`.") + "\n")
    else:
        out.append(para("Your orders are marked not ready (ready: false): you can still replace "
                        f"them with a later file with a higher seq ({next_seq} or more), and the "
                        "turn waits for you until the deadline. When they are final, send them "
                        "again with `ready: true` and a higher seq.") + "\n")
    deadline = game["deadline"]
    if deadline and not standing:
        local = f" ({deadline['local']} your time)" if deadline["local"] else ""
        out.append(para(f"Orders for turn {turn}{' were' if late else ' are'} due "
                        f"{deadline['utc']}{local}.") + "\n")
    out.append("\n")
    out.append(_keepsake_text(c["signature"], "RECEIPT signed by the referee") + "\n")
    out.append(f"\n-- \nSent by the referee of {game['id']}. Reply with your signed orders as "
               "plain\ntext (the block `pbem orders sign` prints); HTML-only mail is not read.\n")
    return "".join(out)


_P = '<p style="margin:0 0 8px 0;">'
_NOTE = '<p style="margin:0 0 8px 0;padding:6px 8px;background-color:#fef3c7;">'
_H1 = '<h1 style="margin:0 0 8px 0;font-size:20px;">'


def _body(c: Mapping[str, Any]) -> list[str]:
    game, name, turn, next_seq = c["game"], _e(c["name"]), _e(c["turn"]), _e(c["next_seq"])
    late, standing, seq = c["late"], c["standing"], _e(c["seq"])
    if standing:
        out = [f"{_H1}Standing file received: {name}</h1>\n",
               f"{_P}Your standing file (seq {seq}) was received, checked against turn {turn} "
               "and accepted. It is used at every later step you send no orders for, until a "
               f"standing file with a higher seq ({next_seq} or more) replaces it. Your "
               "standing answers:</p>\n"]
    else:
        out = [f"{_H1}Orders received: {name}, turn {turn}</h1>\n",
               f"{_P}Your orders (seq {seq}) were received, checked and accepted. This is what "
               "they will do:</p>\n"]
    out.append('<ul style="margin:0 0 8px 0;padding-left:20px;">\n')
    out.extend(f'<li style="margin:0 0 4px 0;">{_e(line)}</li>\n' for line in c["lines"])
    out.append("</ul>\n")
    if c.get("seat"):
        out.append('<p style="margin:0 0 8px 0;padding:6px 8px;background-color:#dcfce7;">'
                   f"{_e(c['seat'])}</p>\n")
    if c["chance"]:
        out.append(f"{_NOTE}{_e(c['chance'])}</p>\n")
    if standing:
        pass
    elif late:
        out.append(f"{_NOTE}These orders arrived {_e(late['received']['utc'])}, <strong>after "
                   f"the deadline</strong> for turn {turn} ({_e(late['deadline']['utc'])}). "
                   "This game takes late orders until the turn is resolved, so they will be "
                   "used: the turn is resolved at the referee's next run, and a correction may "
                   "come too late.</p>\n")
    elif not c["early"]:
        out.append(f"{_P}The turn is resolved at the deadline, not before: until then a later "
                   f"file with a higher seq ({next_seq} or more) replaces these orders.</p>\n")
    elif c["ready"]:
        out.append(f"{_P}Your orders are <strong>marked ready</strong>: the turn resolves when "
                   "every power's orders are ready, or at the deadline. Until then a later file "
                   f"with a higher seq ({next_seq} or more) replaces them; to keep the turn open "
                   "for a correction, send them with <code>ready: false</code>.</p>\n")
    else:
        out.append(f"{_P}Your orders are <strong>marked not ready</strong> (<code>ready: "
                   "false</code>): you can still replace them with a later file with a higher "
                   f"seq ({next_seq} or more), and the turn waits for you until the deadline. "
                   "When they are final, send them again with <code>ready: true</code> and a "
                   "higher seq.</p>\n")
    deadline = game["deadline"]
    if deadline and not standing:
        local = f" ({_e(deadline['local'])})" if deadline["local"] else ""
        out.append(f"{_P}Orders for turn {turn} {'were' if late else 'are'} due "
                   f"<strong>{_e(deadline['utc'])}</strong>{local}.</p>\n")
    out.append(_keepsake_html(c["signature"], "Receipt signed by the referee") + "\n")
    return out


def _html(c: Mapping[str, Any], filters: Filters | None = None) -> str:
    return layout(c, _body(c), f"Sent by the referee of {_e(c['game']['id'])}. Reply to this "
                  "mail with your signed orders as plain text.")


#: pbem's own writers (the receipt's), as a game's presenter declares its ``writers``: template
#: name -> (the function, the template sources it is written from, the SHA-256 of those sources
#: when it was written: :func:`sources_digest`).
WRITERS: dict[str, Writer] = {
    "receipt.subject.txt": (
        _subject, ("receipt.subject.txt",),
        "4569df98c1254ed73ad539c6cecaccc7e89cec57b4ea0048d0e4f4c67e78cdcc"),
    "receipt.txt": (
        _text, ("receipt.txt", "_keepsakes.txt", "footer.txt"),
        "838a8f2303acba77d5a96405d3ea44152bcfa939c1b00fc39da702f29ee26b38"),
    "receipt.html": (
        _html, ("receipt.html", "layout.html", "macros.html"),
        "b0c759f768c2c1e7422bc101c05ed8154b9540bdf98be1cf2c4776f673fbf5cb"),
}


def sources_digest(names: Sequence[str], search_path: Sequence[Path]) -> str | None:
    """SHA-256 over each of ``names`` and the source a renderer with ``search_path`` loads for
    it (the first found along the path, as Jinja's loaders look); None if one is missing."""
    digest = hashlib.sha256()
    for name in names:
        for folder in search_path:
            try:
                data = (Path(folder) / name).read_bytes()
            except OSError:
                continue
            break
        else:
            return None
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def fits(name: str, search_path: Sequence[Path],
         writers: Mapping[str, Writer] = WRITERS) -> bool:
    """Whether :func:`render` writes ``name`` as the templates along ``search_path`` would
    (``writers``: pbem's own, or a game's)."""
    own = writers.get(name)
    return own is not None and sources_digest(own[1], search_path) == own[2]


def render(name: str, context: Mapping[str, Any],
           writers: Mapping[str, Writer] = WRITERS) -> str:
    """Template ``name`` rendered with ``context`` (only where :func:`fits`)."""
    return writers[name][0](context, FILTERS)
