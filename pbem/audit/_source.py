"""Where the audit reads an export or a log from: its bytes, or its file read piece by piece.

The audit never holds a whole log: it reads the lines once to verify and walk them, and again
only to find something it did not keep (the line of a duplicated entry, an order file a failing
resolution names, the entry revealing the chance secret before the walk reaches it). A file is
read up to the length it had when first opened, so entries appended meanwhile (a game running
while it is audited) are not part of this audit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.audit.export import FORMAT, ExportError, Header, parse_header
from pbem.errors import PbemError

CHUNK = 1 << 20  # bytes read at a time from a file


class Source:
    """The bytes of an export or log, read in order as often as the audit needs."""

    name: str
    size: int

    def chunks(self) -> Iterator[bytes]:
        raise NotImplementedError

    def tail(self, n: int) -> bytes:
        """The last ``n`` bytes."""
        raise NotImplementedError

    def path(self) -> str | None:
        """The file another process may read these bytes from (None: in memory only)."""
        return None

    def lines(self) -> Iterator[bytes]:
        """Every line without its newline (a last line without one is given as it is)."""
        rest = b""
        for chunk in self.chunks():
            data = rest + chunk if rest else chunk
            start = 0
            find = data.find
            while (end := find(b"\n", start)) >= 0:
                yield data[start:end]
                start = end + 1
            rest = data[start:]
        if rest:
            yield rest


class BytesSource(Source):
    def __init__(self, data: bytes, name: str) -> None:
        self.data = data
        self.name = name
        self.size = len(data)

    def chunks(self) -> Iterator[bytes]:
        yield self.data

    def lines(self) -> Iterator[bytes]:
        data, start = self.data, 0
        find = data.find
        while (end := find(b"\n", start)) >= 0:
            yield data[start:end]
            start = end + 1
        if start < len(data):
            yield data[start:]

    def tail(self, n: int) -> bytes:
        return self.data[-n:] if n else b""


class FileSource(Source):
    def __init__(self, path: Path) -> None:
        self.file = path
        self.name = str(path)
        try:
            self.size = os.stat(path).st_size
        except OSError as exc:
            raise PbemError(f"{path}: cannot read ({exc.strerror})") from None

    def chunks(self) -> Iterator[bytes]:
        try:
            fh = open(self.file, "rb")  # noqa: SIM115 - the generator closes it
        except OSError as exc:
            raise PbemError(f"{self.file}: cannot read ({exc.strerror})") from None
        with fh:
            left = self.size
            while left > 0:
                try:
                    chunk = fh.read(min(CHUNK, left))
                except OSError as exc:
                    raise PbemError(f"{self.file}: cannot read ({exc.strerror})") from None
                if not chunk:
                    raise PbemError(f"{self.file}: the file became shorter while it was "
                                    "audited")
                left -= len(chunk)
                yield chunk

    def tail(self, n: int) -> bytes:
        try:
            with open(self.file, "rb") as fh:
                fh.seek(max(self.size - n, 0))
                return fh.read(min(n, self.size))
        except OSError as exc:
            raise PbemError(f"{self.file}: cannot read ({exc.strerror})") from None

    def path(self) -> str | None:
        return str(self.file)


@dataclass(frozen=True)
class Opened:
    """An export or log whose form was checked (not empty, not cut short, header parsed)."""

    source: Source
    header: Header | None  # None: a bare log.jsonl
    first_line: int  # the file line number of the first entry line
    first_offset: int = 0  # the byte offset of the first entry line

    def entry_lines(self) -> Iterator[bytes]:
        """The entry lines, in order, without their newlines."""
        lines = self.source.lines()
        if self.header is not None:
            next(lines, None)
        return lines

    def line_of(self, seq: int) -> int:
        return self.first_line + seq


def open_source(source: Source) -> Opened:
    """Check the file's form: not empty, its last line complete (else it was cut short), its
    header (if its first line is not an entry, or names the export format) well-formed."""
    name = source.name
    if not source.size:
        raise ExportError(f"{name} is empty")
    if source.tail(1) != b"\n":
        newlines, last = 0, -1
        seen = 0
        for chunk in source.chunks():
            at = chunk.rfind(b"\n")
            if at >= 0:
                last = seen + at
            newlines += chunk.count(b"\n")
            seen += len(chunk)
        tail = source.size - last - 1
        raise ExportError(f"{name} line {newlines + 1}: the last line is incomplete "
                          f"({tail} bytes without a newline): the file was cut short",
                          newlines + 1)
    first = next(source.lines())
    if not first.startswith(b'{"body":') or FORMAT.encode() in first:
        return Opened(source, parse_header(first), 2, len(first) + 1)
    return Opened(source, None, 1)
