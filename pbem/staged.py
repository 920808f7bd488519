"""Files written now and made durable together later: one phase of a group commit.

Ingest's round stores a batch of messages and records a batch of submissions; written and
fsynced one by one, each file waits for its own journal commit. :class:`Group` writes each
file's bytes to a temporary file beside it at once and leaves it out of sight; :meth:`Group.flush`
(or :func:`flush_groups` for several at once) fsyncs every one of them together
(pbem.syncs: the file system merges concurrent fsyncs into a few journal commits) and only then
moves each into place. A name never shows unsynced data, as with
:func:`pbem.atomic.replace_bytes`; the caller fsyncs the directories.

The one mechanism of pbem for "write many files durably, then place them": ingest's inbox
copies and submission records, and the file transport's messages (pbem.mail.transports), whose
names — the SHA-256 of their bytes — are computed while the fsyncs run (``named``).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from pbem import atomic, failpoints, syncs

#: Temporary files a group holds open at once (file descriptors are finite).
MANY_OPEN = 64

#: The name of a file computed from its bytes (``Group.add``'s ``named``).
Namer = Callable[[bytes], str]


class Group:
    """Files written now and made durable together later.

    :meth:`add` writes a file's bytes to a fresh temporary file beside it (not fsynced, not in
    place: no name shows it yet); :meth:`flush` fsyncs every one at once (pbem.syncs), then
    moves each into place in the order added — renamed over its name, or with ``create`` linked
    to it (never overwriting: a name holding the same bytes already is fine, other bytes raise
    :class:`pbem.atomic.FileExists`). Each file is in place only after its own fsync, so a name
    never shows unsynced data, as with :func:`pbem.atomic.replace_bytes`; the caller fsyncs the
    directories (pbem.syncs.fsync_dirs). At :data:`MANY_OPEN` files, :meth:`add` flushes
    first (file descriptors are finite). :meth:`discard` drops what is not flushed.

    With ``share``, files of a group holding the same bytes (and mode) are one file with several
    names (hard links): the first is written, the others are linked to it when they are put in
    place. A new name is cheap; a new file (an inode) costs as much as an fsync on some file
    systems. Only for files that are never written again in place (pbem replaces a file by
    renaming a new one over it, never by writing into it), e.g. the arrival time of every
    message of one batch.

    With ``named``, a file's name is computed from its bytes (``named(data)``, in the
    directory of ``path``) while the group's fsyncs run — work the flush would only wait
    otherwise (a hash of each message, for the file transport); ``path`` then names only its
    temporary file (``.NAME.tmp-PID-HEX``) and ``path in group`` does not find it.

    Until flushed, the files exist only here: a caller that looks names up before its flush
    asks ``path in group``."""

    def __init__(self) -> None:
        # (fd, temporary file, name, create, data, named); a shared name: (-1, the name it
        # links to, …). Names built here are strings: a Path costs a parse per message.
        self._items: list[tuple[int, str, Path | str, bool, bytes, Namer | None]] = []
        self._names: set[Path | str] = set()
        self._shared: dict[tuple[bytes, int], Path | str] = {}
        self._files = 0  # items with a file (and a descriptor) of their own

    def add(self, path: Path | str, data: bytes, *, mode: int = atomic.PRIVATE,
            create: bool = False, mtime_ns: int | None = None, share: bool = False,
            named: Namer | None = None) -> None:
        """Write ``data`` for ``path`` (``mtime_ns``: the file's modification time; ``share``
        and ``named``: see the class)."""
        if self._files >= MANY_OPEN:
            self.flush()
        if share and not create and mtime_ns is None and named is None:
            first = self._shared.get((data, mode))
            if first is not None:
                self._items.append((-1, os.fspath(first), path, False, data, None))
                self._names.add(path)
                return
            self._shared[(data, mode)] = path
        tmp = atomic.temp_name(os.fspath(path))
        try:
            fd = atomic.open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except OSError as exc:
            raise atomic.storage_error(path, "write", exc) from None
        try:
            os.fchmod(fd, mode)
            atomic.write_all(fd, data)
            if mtime_ns is not None:
                os.utime(fd, ns=(mtime_ns, mtime_ns))
        except BaseException as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                raise atomic.storage_error(path, "write", exc) from None
            raise
        self._items.append((fd, tmp, path, create, data, named))
        if named is None:
            self._names.add(path)
        self._files += 1

    def __contains__(self, path: object) -> bool:
        return path in self._names

    def __len__(self) -> int:
        return len(self._items)

    def flush(self) -> list[str]:
        """Every file added since the last flush: fsynced (together), then put in place; the
        paths put in place (as strings), in the order added."""
        return flush_groups([self])[0]

    def discard(self) -> None:
        """Forget the files not flushed yet (their temporary files removed)."""
        items, self._items = self._items, []
        self._names.clear()
        self._shared.clear()
        self._files = 0
        for fd, tmp, _path, _create, _data, _named in items:
            if fd >= 0:
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def _name(self) -> None:
        """The name of each ``named`` file, from its bytes (while the fsyncs run)."""
        items = self._items
        for n, (fd, tmp, path, create, data, named) in enumerate(items):
            if named is not None:
                head, sep, _name = os.fspath(path).rpartition("/")
                items[n] = (fd, tmp, f"{head}{sep}{named(data)}", create, data, None)

    def _place(self, placed: list[str]) -> None:
        """Put the fsynced files in place, in order, each added to ``placed`` (after a failure
        :func:`flush_groups` discards the rest: nothing of it is put in place)."""
        items = self._items
        while items:
            fd, tmp, path, create, data, _named = items[0]
            if fd >= 0:
                os.close(fd)
            del items[0]
            placed.append(os.fspath(path))
            try:
                if fd < 0:  # a second name of a file put in place before it (``share``)
                    link = atomic.temp_name(os.fspath(path))
                    os.link(tmp, link)
                    atomic.rename_into_place(link, path)
                    continue
                if not create:
                    atomic.rename_into_place(tmp, path)
                    continue
                try:
                    os.link(tmp, path)
                except FileExistsError:
                    if Path(path).is_symlink() or Path(path).read_bytes() != data:
                        raise atomic.FileExists(f"{path} exists already with other content: "
                                                "refusing to overwrite", Path(path)) from None
                finally:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp)
            except OSError as exc:
                raise atomic.storage_error(path, "write", exc) from None


def _name_all(groups: Sequence[Group]) -> None:
    for group in groups:
        group._name()


def flush_groups(groups: Sequence[Group]) -> list[list[str]]:
    """Flush several groups at once: every file of every group fsynced together (the names of
    ``named`` files computed meanwhile), then each group's files put in place (group by group,
    each in its order). Returns each group's paths put in place (as strings)."""
    fds: list[int] = []
    naming: list[Group] = []  # groups with a ``named`` file
    for group in groups:
        fds += [item[0] for item in group._items if item[0] >= 0]
        if any(item[5] is not None for item in group._items):
            naming.append(group)
    first = next((item[2] for group in groups for item in group._items), ".")
    try:
        syncs.fsync_each(fds, meanwhile=functools.partial(_name_all, naming) if naming else None)
        if fds:
            failpoints.reached("staged-synced")
    except BaseException as exc:  # (an fsync's, or a ``named`` function's)
        for group in groups:
            group.discard()
        if isinstance(exc, OSError):
            raise atomic.storage_error(first, "write", exc,
                                       "no file of its group was put in place") from None
        raise
    placed: list[list[str]] = [[] for _group in groups]
    try:
        for group, names in zip(groups, placed, strict=True):
            group._place(names)
    finally:
        for group in groups:  # a failure: nothing of the rest is put in place
            group.discard()
    return placed
