"""Python source parsed for the tests that read the project's own code (layers, facades,
the extending page), with the garbage collector held off, each file once per session.

CPython 3.11 counts the AST constructor's depth in state that a parse shares with any
other parse that starts inside it: a finalizer run by the collector mid-parse (an asyncio
future an earlier test left unretrieved logs its traceback, and the traceback parses
source lines for its carets) makes the outer parse fail with "AST constructor recursion
depth mismatch" (python/cpython#106905). With the collector off, no finalizer of a
cycle runs inside the parse. It is not run first either: a full collection of a test
session's heap (the example plans are kept) takes about a second, and the layer and
extending-page tests parse the project's ~400 modules many times over.
"""

from __future__ import annotations

import ast
import gc
from functools import cache
from pathlib import Path


def parse_python(path: Path) -> ast.Module:
    """The syntax tree of the Python file at ``path`` (parsed again when it changed)."""
    state = path.stat()
    return _parsed(path.resolve(), state.st_mtime_ns, state.st_size)


@cache
def _parsed(path: Path, _mtime_ns: int, _size: int) -> ast.Module:
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    finally:
        if enabled:
            gc.enable()
