"""Header values in forms the email package gives back unchanged, read or written.

A header of one of these forms is taken or written as it is, without the email package's
header parse (pbem.mail.triage reads Subject, References and Message-ID so; pbem.mail.compose
writes its plain headers so). Each module keeps the patterns only it needs beside its own
tests; the two shared here are the same for reading and writing.
"""

from __future__ import annotations

import re

#: An RFC 5322 atom (the parts of a dot-atom: a Message-ID's left and right sides).
ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"

#: Printable ASCII words between single spaces: no folding, no control character, no
#: leading, trailing or repeated space (encoded words, "=?", are checked apart).
PLAIN_WORDS = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")
