"""Header values in forms the email package gives back unchanged, read or written.

A header of one of these forms is taken or written as it is, without the email package's
header parse (pbem.mail.triage reads Subject, References and Message-ID so; pbem.mail.compose
writes its plain headers so). Each module keeps the patterns only it needs beside its own
tests; the two shared here are the same for reading and writing.
"""

from __future__ import annotations

import re
from email import policy

#: An RFC 5322 atom (the parts of a dot-atom: a Message-ID's left and right sides).
ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"

#: Printable ASCII words between single spaces: no folding, no control character, no
#: leading, trailing or repeated space (encoded words, "=?", are checked apart).
PLAIN_WORDS = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")

# 78: the limit the email package folds and encodes at
MAX_LINE: int = policy.SMTP.max_line_length or 78


def fold_words(name: str, value: str) -> bytes:
    """The email package's fold of a plain unstructured header (words of printable ASCII
    between single spaces, each fitting on a line): one line if it fits, else the whole value
    on the next line if it fits there (never for Subject: pbem.mail.compose writes a long
    Subject greedily from its own line, so no mail program shows it with a leading space),
    else the words filled greedily, each further line starting with a space. Player subjects
    and every receipt's References (the player's Message-ID) are new text each time, which
    missed the compose module's fold cache."""
    if len(name) + 2 + len(value) <= MAX_LINE:
        return f"{name}: {value}\r\n".encode("ascii")
    if len(value) + 1 <= MAX_LINE and not (name.lower() == "subject"
                                            and starts_on_the_name_line(value)):
        return f"{name}:\r\n {value}\r\n".encode("ascii")
    lines = [f"{name}:"]
    for word in value.split(" "):
        if len(lines[-1]) + 1 + len(word) <= MAX_LINE:
            lines[-1] += " " + word
        else:
            lines.append(" " + word)
    return ("\r\n".join(lines) + "\r\n").encode("ascii")


def starts_on_the_name_line(value: str) -> bool:
    """A plain Subject too long for one line, which :func:`fold_words` folds greedily from
    the ``Subject:`` line on (every subject pbem writes: the game's id and the step in words)."""
    return (len("Subject") + 2 + len(value) > MAX_LINE and "=?" not in value
            and bool(PLAIN_WORDS.fullmatch(value))
            and max(map(len, value.split(" "))) < MAX_LINE - len("Subject: "))
