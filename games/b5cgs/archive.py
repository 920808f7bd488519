"""Babylon 5 CGS's hooks for the game archive (pbem.archive.hooks): each public event as the
same sentence the reports give it (sentences.py), so a move or a jump reads "Earth Alliance's
Hyperion Cr. (t7) moved (standard) from 1,1 to 1,0, facing 1." on the archive's page too. The
archive passes only public events and the public view (None where an export withholds it:
then units and powers are named by their ids)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .sentences import sentence

#: What the sentences read of a view, empty: ids stand for names.
NO_VIEW: Mapping[str, Any] = {"powers": {}, "tokens": {}, "pack": {"tokens": {}}}


def archive_event(event: Mapping[str, Any], view: Mapping[str, Any] | None) -> str:
    return sentence(event, view if view is not None else NO_VIEW)
