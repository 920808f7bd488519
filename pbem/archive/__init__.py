"""``pbem archive``: a static replay site of a game, built from its export (docs/archive.md).

The site is plain HTML, CSS and a little JavaScript with no request beyond its own pages: a
summary (variant, powers, result, length, charts), a page per step (the public view's map, the
public events, each power's numbers), the audit's verdict and the referee's checkpoint, and a
button that re-checks the embedded export's hash chain (and the referee's Ed25519 signatures
where the browser has them) with Web Crypto. It shows only what the export holds, each step
through the plugin's public view; a game tells the archive more through the optional hooks of
:mod:`pbem.archive.hooks`.
"""

from __future__ import annotations

from pbem.archive.build import ArchiveError, ArchiveSummary, build_archive
from pbem.archive.hooks import ArchiveHooks

__all__ = ["ArchiveError", "ArchiveHooks", "ArchiveSummary", "build_archive"]
