"""pbem's common templates written in Python, for a game's writers (docs/plugins.md,
"Writers") and pbem's own receipt (pbem.render.plain): each function writes exactly what its
template in ``templates/common/`` writes (trim_blocks, lstrip_blocks, autoescape for .html:
pbem.render.jinjaenv), so every game's writer puts the same layout, headings, notes and
keepsakes around its own parts.

- :func:`escaped`: a value as Jinja's autoescape prints it;
- :func:`h2`: ``macros.html``'s ``h2``; :data:`UL` and :data:`LI` the lists' tags it uses;
- :func:`layout`: ``layout.html`` around a body, with a footer block;
- :func:`notes_html` and :func:`notes_text`: ``_turn_notes.html`` and ``_turn_notes.txt``;
- :func:`keepsake_html` and :func:`keepsake_text`: ``macros.html``'s ``keepsake`` and
  ``_keepsakes.txt``'s;
- :func:`gm_missed_html` and :func:`gm_missed_text`: ``_gm_missed.html`` and
  ``_gm_missed.txt`` (the game master's summary: who missed the turn just resolved).

Whether a writer may be used is decided by the digest of the template sources it was written
from (pbem.render.plain.fits): a game's writer names these common sources among its own, so
an edit of one of them sends every writer using it back to Jinja until its digest follows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import escape

Context = Mapping[str, Any]
Para = Callable[..., str]
#: The filters a writer is handed (pbem.render.plain.FILTERS: the templates' own).
Filters = Mapping[str, Callable[..., Any]]
#: A game's writer: (the function writing a template from its context and filters, the
#: template sources it is written from, the SHA-256 of those sources when it was written:
#: pbem.render.plain.sources_digest).
Writer = tuple[Callable[[Context, Filters], str], tuple[str, ...], str]


def escaped(value: Any) -> str:
    """``value`` as Jinja's autoescape prints it (markupsafe's ``escape``): a plain string with
    its five characters replaced as markupsafe replaces them, a number as ``str`` prints it,
    anything else through ``escape`` (markup passes)."""
    kind = type(value)
    if kind is str:
        return (value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
                .replace("'", "&#39;").replace('"', "&#34;"))
    if kind is int or kind is float:
        return str(value)
    return str(escape(value))


_e = escaped

#: where a map drawn once for every reader takes its readers' style rule (pbem.render.mails
#: puts it in per mail: bold for the pieces of the class ``p-POWER``, ``dot`` or ``name``)
READERS_CSS = "/*pbem-readers*/"
UL = '<ul style="margin:0;padding-left:20px;">\n'
LI = '<li style="margin:0 0 4px 0;">'


def h2(title: str) -> str:
    """``macros.html``'s ``h2(title)``."""
    return ('<h2 style="margin:20px 0 8px 0;font-size:16px;letter-spacing:0.04em;'
            'text-transform:uppercase;color:#374151;border-bottom:2px solid #e5e7eb;'
            f'padding-bottom:3px;">{_e(title)}</h2>')


def layout(c: Context, body: Sequence[str], footer: str) -> str:
    """``layout.html`` around ``body`` (its ``body`` block), ``footer`` (HTML already
    escaped) in its ``footer`` block."""
    game = c["game"]
    title = _e(game["game_title"]) + (" · " if game["game_title"] else "") + _e(game["title"])
    if game["title"] != game["id"]:
        title += f" ({_e(game['id'])})"
    return "".join([
        '<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en">\n<head>\n'
        '<meta charset="utf-8" />\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'
        f"<title>{_e(c['subject'])}</title>\n</head>\n"
        '<body style="margin:0;padding:0;background-color:#eef0f3;">\n'
        '<div style="max-width:640px;margin:0 auto;padding:14px 12px;background-color:#ffffff;'
        "color:#1f2933;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
        'font-size:15px;line-height:1.45;">\n'
        f'<p style="margin:0 0 6px 0;font-size:12px;color:#6b7280;">{title}</p>\n',
        *body,
        '<p style="margin:18px 0 0 0;padding-top:8px;border-top:1px solid #e5e7eb;'
        f'font-size:12px;color:#6b7280;">{footer}</p>\n</div>\n</body>\n</html>\n'])


def notes_html(notes: Context) -> list[str]:
    """``_turn_notes.html`` (pbem's common partial)."""
    out: list[str] = []
    gm, missed, order = notes["gm"], notes["missed"], notes["order"]
    if gm or missed or order:
        if gm:
            out += [h2("Game master notices"), "\n", UL]
            out.extend(f"{LI}{_e(line)}</li>\n" for line in gm)
            out.append("</ul>\n")
        if missed:
            out += [h2("Missed turn"), "\n", UL]
            out.extend(f"{LI}{_e(line)}</li>\n" for line in missed)
            out.append("</ul>\n")
        if order:
            out += [h2("Order of play this round"), "\n",
                    '<p style="margin:0;">The powers were resolved one after the other, in this '
                    f"order: {_e(', '.join(str(p) for p in order))}.</p>\n"]
    for key, title in (("earlier", "Since your last mail"), ("standing", "Standing answers")):
        if notes.get(key):
            out += [h2(title), "\n", UL]
            out.extend(f"{LI}{_e(line)}</li>\n" for line in notes[key])
            out.append("</ul>\n")
    chance = notes.get("chance")
    if chance:
        out += [h2(f"Fair chance, step {chance['step']}"), "\n", UL]
        out.extend(f"{LI}{_e(line)}</li>\n" for line in chance["draws"])
        out.extend(f"{LI}<strong>{_e(line)}</strong></li>\n" for line in chance["missing"])
        out.append(f'</ul>\n<p style="margin:0;">{_e(chance["verify"])}</p>\n')
    return out


def notes_text(para: Para, notes: Context) -> list[str]:
    """``_turn_notes.txt`` (pbem's common partial)."""
    out: list[str] = []
    gm, missed, order = notes["gm"], notes["missed"], notes["order"]
    if gm or missed or order:
        out.append("\n")
        if gm:
            out.append("GAME MASTER NOTICES\n")
            out.extend(para(line, 4, "  - ") + "\n" for line in gm)
        if missed:
            if gm:
                out.append("\n")
            out.append("MISSED TURN\n")
            out.extend(para(line, 4, "  - ") + "\n" for line in missed)
        if order:
            if gm or missed:
                out.append("\n")
            out.append("ORDER OF PLAY THIS ROUND\n")
            out.append(para("The powers were resolved one after the other, in this order: "
                            + ", ".join(str(p) for p in order) + ".", 2, "  ") + "\n")
    if notes.get("earlier"):
        out.append("\nSINCE YOUR LAST MAIL\n")
        out.extend(para(line, 4, "  - ") + "\n" for line in notes["earlier"])
    if notes.get("standing"):
        out.append("\nSTANDING ANSWERS\n")
        out.extend(para(line, 4, "  - ") + "\n" for line in notes["standing"])
    chance = notes.get("chance")
    if chance:
        out.append(f"\nFAIR CHANCE, STEP {chance['step']}\n")
        out.extend(para(line, 4, "  - ") + "\n" for line in chance["draws"])
        out.extend(para(line, 4, "  ! ") + "\n" for line in chance["missing"])
        out.append(para(chance["verify"], 2, "  ") + "\n")
    return out


def keepsake_text(item: Context | None, what: str) -> str:
    """``_keepsakes.txt``'s keepsake: signed text kept whole (pbem.render.environment
    ``keepsake``), or "" without one."""
    if not item:
        return ""
    out = [what, f": {item['summary']}" if item["summary"] else "", ".\n"]
    if item["attached"]:
        out.append(f"  Keep this mail: the signed text is attached as {item['filename']}.\n")
    else:
        out.append("  Keep this mail: the signed text below proves it.\n")
        out.extend(f"{line}\n" for line in item["lines"])
    return "".join(out)


def keepsake_html(item: Context | None, what: str) -> str:
    """``macros.html``'s ``keepsake(item, what)``, or "" without one."""
    if not item:
        return ""
    summary = f": {_e(item['summary'])}" if item["summary"] else ""
    return ('<div style="margin:14px 0 0 0;padding:8px 10px;background-color:#f9fafb;'
            'border:1px solid #e5e7eb;">\n'
            f'<p style="margin:0 0 4px 0;font-size:13px;"><strong>{_e(what)}</strong>{summary}.'
            " Keep this mail: the signed text below proves it.</p>\n"
            '<pre style="margin:0;font-family:Menlo,Consolas,monospace;font-size:11px;'
            'white-space:pre-wrap;word-break:break-all;overflow-x:auto;max-width:100%">'
            f"{_e(item['text'])}</pre>\n</div>\n")


def gm_missed_text(para: Para, missed_now: Sequence[str]) -> str:
    """``_gm_missed.txt`` (pbem's common partial), or "" when nobody missed the turn."""
    if not missed_now:
        return ""
    return "\nMISSED THIS TURN\n" + "".join(para(line, 4, "  - ") + "\n" for line in missed_now)


def gm_missed_html(missed_now: Sequence[str]) -> str:
    """``_gm_missed.html`` (pbem's common partial), or "" when nobody missed the turn."""
    if not missed_now:
        return ""
    return ('<h2 style="margin:12px 0 4px 0;font-size:16px;">Missed this turn</h2>\n'
            '<ul style="margin:0;padding-left:22px;">\n'
            + "".join(f"<li>{_e(line)}</li>\n" for line in missed_now) + "</ul>\n")
