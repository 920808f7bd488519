"""PyYAML, imported with its own regular expressions compiled when first used (issue 30, "Fast
start"): every pbem module takes ``yaml`` from here (``from pbem.protocol.pyyaml import yaml``).

PyYAML compiles ten regular expressions as it is imported, in Python (``re._compiler``): the
pure-Python reader's test for unprintable characters (a class spanning all of Unicode, most of
the cost), the implicit resolvers' (booleans, numbers, dates...) and the constructor's timestamp.
pbem parses with libyaml (``yaml.CSafeLoader``, :mod:`pbem.protocol.safeyaml`), which never uses
the reader, and an order file's loader resolves its scalars itself, so a ``pbem ingest`` of an
order mail used none of them and paid ~75 M instructions for them (callgrind; a tenth of the
whole process). Here each ``re.compile`` that PyYAML's own modules make while it is imported
returns a :class:`LazyPattern`: the same pattern, compiled by :mod:`re` the first time it
matches, so what PyYAML parses, resolves and dumps is unchanged. Any other caller of
``re.compile`` in that moment gets a compiled pattern as always.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any


class LazyPattern:
    """``re.compile(pattern, flags)`` done at the first use of the pattern, not before: PyYAML
    calls ``match`` and ``search`` on its patterns; any other attribute is the compiled one's."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: Any, flags: int = 0) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[Any] | None = None

    def compiled(self) -> re.Pattern[Any]:
        if self._compiled is None:
            self._compiled = _COMPILE(*self._args)
        return self._compiled

    def match(self, *args: Any) -> Any:
        return self.compiled().match(*args)

    def search(self, *args: Any) -> Any:
        return self.compiled().search(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled(), name)


_COMPILE = re.compile


def _compile_for_yaml(pattern: Any, flags: int = 0) -> Any:
    """``re.compile`` while PyYAML is imported: lazy for PyYAML's own modules only."""
    if sys._getframe(1).f_globals.get("__name__", "").startswith("yaml"):
        return LazyPattern(pattern, flags)
    return _COMPILE(pattern, flags)


def _import() -> Any:
    if "yaml" in sys.modules:  # already imported (by a game, say): as it is
        return sys.modules["yaml"]
    re.compile = _compile_for_yaml  # type: ignore[assignment]
    try:
        import yaml as module
    finally:
        re.compile = _COMPILE
    return module


if TYPE_CHECKING:
    import yaml as yaml
else:
    yaml = _import()
