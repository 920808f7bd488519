"""Compiled templates kept between processes, in ``ROOT/.pbem-run/jinja/``: a cache, not a record.

Why: every ``pbem ingest --stdin`` is a process of its own, and each compiled the receipt's
templates from source (Jinja's lexer, parser and code generator: ~10 ms CPU of an order mail's
~80, measured in one process). Jinja's bytecode cache stores each compiled template as
marshalled code, checked against a SHA-1 of its source when loaded, so a changed template is
compiled again. The key of a cached template here names, besides the template and its file,
what else the compiled code depends on (the Python and Jinja versions, the environment's
syntax, whitespace options and extensions, and whether the template is autoescaped), so an
environment made with other options never loads another's code. A lost, torn or unreadable
file is compiled again; a file that cannot be written is skipped. The folder is the run's own
(0700, pbem.store.layout.run_dir).
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import sys
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from pbem.store.layout import run_dir

FOLDER = "jinja"


class _Cache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, keyed by what the compiled code depends on, never failing a render."""

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        escape = environment.autoescape
        if callable(escape):
            escape = escape(name)
        e = environment
        options = (sys.version, jinja2.__version__, type(e).__qualname__, e.trim_blocks,
                   e.lstrip_blocks, e.keep_trailing_newline, e.newline_sequence, e.optimized,
                   e.is_async, e.finalize is not None, sorted(e.extensions), e.block_start_string,
                   e.block_end_string, e.variable_start_string, e.variable_end_string,
                   e.comment_start_string, e.comment_end_string, e.line_statement_prefix,
                   e.line_comment_prefix, bool(escape), name, filename)
        key = hashlib.sha256(repr(options).encode("utf-8")).hexdigest()
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError, TypeError, pickle.UnpicklingError):
            bucket.reset()  # compiled again

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # a cache: the next process compiles it again
            super().dump_bytecode(bucket)


def cache_templates(env: Any, root: Path) -> None:
    """Give ``env`` (a renderer's Jinja environment, shared in the process) the root's cache of
    compiled templates, unless it has one."""
    if env.bytecode_cache is not None:
        return
    try:
        folder = run_dir(root) / FOLDER
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return
    env.bytecode_cache = _Cache(str(folder))
