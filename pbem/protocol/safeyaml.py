"""The one safe YAML loader for every order file (docs/protocol.md, "YAML rules").

Why not ``yaml.safe_load``: it follows YAML 1.1, where ``no`` is False, ``012`` is 10 and ``1:30``
is 90; it keeps the last of two duplicate keys; it expands aliases (a 323-byte "billion laughs"
holds 387 million leaves); and it recurses without a limit. Order files come from strangers, so
this loader builds the data itself from the parser's event stream, in one pass (or, for the plain
block form the tools write, line by line: :mod:`pbem.protocol.blockyaml`, the same data four
times faster; any other text goes to the event stream):

* the size is capped (``MAX_BYTES``) before anything is parsed;
* anchors, aliases and explicit tags are refused;
* nesting deeper than ``MAX_DEPTH`` is refused as soon as it is seen;
* a key that appears twice in one mapping is refused, with its path and both lines (``1`` and
  ``'1'`` count as the same key);
* keys must be names or whole numbers;
* plain scalars are typed by a strict resolver (``resolve_plain``): only ``true``/``false``
  are booleans, ``null``, ``~`` and the empty value are null, integers are
  ``[-+]?(0|[1-9][0-9]*)``, decimal fractions ``[-+]?[0-9]+.[0-9]+`` are floats (so a validator
  can say "not a whole number"), everything else -- ``no``, ``yes``, ``on``, ``012``,
  ``1:30``, ``2026-11-30`` -- is a string. Quoted scalars are always strings.

Every problem is a :class:`~pbem.errors.Problem` with a field path (``orders.depart.ships``,
``orders.resources[0].star``); ``load_order_yaml`` raises :class:`~pbem.errors.Rejected` listing
all problems it can find in the document. Types are not checked here: the envelope and game
validators do that on the loaded data.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import Problem, Rejected
from pbem.protocol import blockyaml
from pbem.protocol.blockyaml import resolve_plain as resolve_plain
from pbem.protocol.pyyaml import yaml
from pbem.record import Mutable

MAX_BYTES = 64 * 1024
MAX_DEPTH = 32

try:  # libyaml is several times faster (bench/README.md, "One machine's floor")
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - only without libyaml
    _Loader = yaml.SafeLoader


def join_path(parent: str, key: object) -> str:
    """``orders`` + ``depart`` -> ``orders.depart`` (the path of a key in a mapping)."""
    return f"{parent}.{key}" if parent else str(key)


class _BadKey:
    """Stands for a key that was rejected, so its value is dropped quietly."""


_BAD_KEY = _BadKey()


class _Frame(Mutable):
    """One open mapping or sequence while the event stream is walked."""

    __slots__ = ("path", "value", "line", "key", "have_key", "key_line", "is_list")
    _fields = ("path", "value", "line", "key", "have_key", "key_line", "is_list")
    path: str
    value: dict[Any, Any] | list[Any]
    line: int
    key: Any
    have_key: bool
    key_line: dict[Any, int]
    is_list: bool  # value is a list (set once: asked for every node in the frame)

    def __init__(self, path: str, value: dict[Any, Any] | list[Any], line: int, key: Any = None,
                 have_key: bool = False, key_line: dict[Any, int] | None = None,
                 is_list: bool = False) -> None:
        self.path = path
        self.value = value
        self.line = line
        self.key = key
        self.have_key = have_key
        self.key_line = {} if key_line is None else key_line
        self.is_list = is_list

    def at_key(self) -> bool:
        """Whether the next node in this frame is a mapping key."""
        return not self.is_list and not self.have_key

    def child_path(self) -> str:
        if self.is_list:
            return f"{self.path}[{len(self.value)}]"
        return join_path(self.path, self.key)


class _Builder:
    """Turns parser events into plain data, collecting problems instead of raising."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.documents = 0
        self.stop = False  # a problem after which the rest of the stream is not worth reading

    def problem(self, code: str, path: str, message: str) -> None:
        self.problems.append(Problem(code, path, message))

    def here(self) -> str:
        """Path of the node the next event belongs to (for a key: its mapping's path)."""
        if not self.stack:
            return ""
        top = self.stack[-1]
        return top.path if top.at_key() else top.child_path()

    def add(self, value: Any, line: int, collection: bool = False) -> None:
        """Attach a finished node to its parent (or make it the document)."""
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if top.is_list:
            top.value.append(value)  # type: ignore[union-attr]
        elif not top.have_key:
            self._take_key(top, value, line, collection)
        else:
            top.have_key = False
            if top.key is not _BAD_KEY:
                top.value[top.key] = value

    def _take_key(self, top: _Frame, key: Any, line: int, collection: bool) -> None:
        top.have_key = True
        top.key = _BAD_KEY
        if collection or isinstance(key, bool) or not isinstance(key, str | int):
            shown = "a list or mapping" if collection else repr(key)
            self.problem("bad-key", top.path, f"a key must be a name or a number, not {shown}")
        elif str(key) in top.key_line:  # 1 and '1' count as the same key: they read alike
            self.problem(
                "duplicate-key",
                join_path(top.path, key),
                f"key {key} appears twice (lines {top.key_line[str(key)]} and {line}); "
                "write it once",
            )
        else:
            top.key_line[str(key)] = line
            top.key = key

    def open(self, value: dict[Any, Any] | list[Any], line: int) -> None:
        if len(self.stack) >= MAX_DEPTH:
            path = self.here()
            self.problem(
                "too-deep",
                path if len(path) <= 40 else path[:40] + "…",
                f"nested more than {MAX_DEPTH} levels deep; an order file never needs that",
            )
            self.stop = True
            return
        self.stack.append(_Frame(self.here(), value, line, is_list=type(value) is list))

    def close(self) -> None:
        frame = self.stack.pop()
        is_key = bool(self.stack) and self.stack[-1].at_key()
        self.add(frame.value, frame.line, collection=is_key)

    def event(self, ev: Any) -> None:  # parser events are untyped (C or Python parser)
        kind = type(ev)
        if kind is yaml.ScalarEvent:  # most events: keep this path short
            if ev.anchor is not None or ev.tag is not None:
                self.node_checks(ev)
            plain = ev.implicit[0] and ev.tag is None
            self.add(resolve_plain(ev.value) if plain else ev.value, ev.start_mark.line + 1)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if ev.anchor is not None or ev.tag is not None:
                self.node_checks(ev)
            self.open({} if kind is yaml.MappingStartEvent else [], ev.start_mark.line + 1)
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            self.close()
        elif kind is yaml.AliasEvent:
            self.problem(
                "alias",
                self.here(),
                f"aliases (*{ev.anchor}) are not allowed in order files; write the value out",
            )
            self.add(None, ev.start_mark.line + 1)
        elif kind is yaml.DocumentStartEvent:
            self.documents += 1
            if self.documents > 1:
                self.problem(
                    "many-documents",
                    "",
                    "an order file holds one YAML document, not several (remove the extra ---)",
                )
                self.stop = True

    def node_checks(self, ev: Any) -> None:
        """Anchors and explicit tags are refused (a bare ``!`` just means "text")."""
        if ev.anchor is not None:
            self.problem(
                "anchor", self.here(), f"anchors (&{ev.anchor}) are not allowed in order files"
            )
        tag = getattr(ev, "tag", None)
        if tag is not None and tag != "!":
            self.problem(
                "tag", self.here(), f"explicit tags ({tag}) are not allowed in order files"
            )


def _describe(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    return f"not valid YAML: {what}{where}"


def scan(text: str) -> tuple[Any, list[Problem]]:
    """Load ``text`` and return (data, problems); data is meaningless if problems is not empty."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        return None, [Problem("too-large", "", f"the order file is {size} bytes; the limit is "
                              f"{MAX_BYTES} bytes ({MAX_BYTES // 1024} KiB)")]
    plain = blockyaml.read(text)  # the plain block form the tools write, line by line
    if plain is not None:
        return plain, []
    return scan_events(text)


def scan_events(text: str) -> tuple[Any, list[Problem]]:
    """``scan`` from libyaml's event stream, whatever the text's form (no size check: ``scan``
    makes it first). ``scan`` reads the plain block form line by line instead
    (pbem.protocol.blockyaml), which gives the same data."""
    builder = _Builder()
    loader = None
    try:  # yaml.parse's loop without its generator and check_event: get_event gives None
        loader = _Loader(text)  # at the stream's end (both parsers)
        while (ev := loader.get_event()) is not None:
            builder.event(ev)
            if builder.stop:
                break
    except yaml.YAMLError as exc:
        if "depth" in str(getattr(exc, "problem", "")):  # libyaml's own nesting limit
            builder.problem("too-deep", "", f"nested more than {MAX_DEPTH} levels deep")
        else:
            builder.problems.append(Problem("not-yaml", "", _describe(exc)))
    except RecursionError:  # the pure-Python parser on pathological nesting
        builder.problem("too-deep", "", f"nested more than {MAX_DEPTH} levels deep")
    except ValueError as exc:  # e.g. a lone surrogate the reader cannot encode
        builder.problem("not-yaml", "", f"not valid YAML: {exc}")
    finally:
        if loader is not None:
            loader.dispose()
    return builder.root, builder.problems


def load_order_yaml(text: str) -> dict[Any, Any]:
    """Load an order document safely; raise Rejected with every problem found.

    The document must be one YAML mapping. Types of the values are not checked here.
    """
    data, problems = scan(text)
    if not problems:
        if data is None:
            problems.append(Problem("empty", "", "the order file is empty"))
        elif not isinstance(data, dict):
            problems.append(Problem("not-mapping", "", "the order file must be a YAML mapping "
                                    "(lines of key: value), not a "
                                    f"{_kind(data)}"))
    if problems:
        raise Rejected(problems)
    assert isinstance(data, dict)
    return data


def _kind(value: object) -> str:
    return "list" if isinstance(value, list) else f"single value ({value!r})"
