"""The JSON the store keeps, named once (the formats: docs/protocol.md, "The log").

- ``LogBody``: a log entry's body, a JSON object whose keys depend on the entry's kind
  (pbem.store.kinds.EntryKind); ``BodyIn`` is its read-only form.
- ``FileRow``: one order file of a turn as the summary keeps it, ``[seq, power, sha256, bytes]``.
- ``Genesis``: the genesis entry's body (``BodyIn``: its keys are docs/protocol.md's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LogBody = dict[str, Any]
BodyIn = Mapping[str, Any]
Genesis = Mapping[str, Any]
FileRow = list[int | str | None]  # power and sha256 are None in a malformed body
