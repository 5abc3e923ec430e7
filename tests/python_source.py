"""Python source parsed for the tests that read the project's own code (layers, facades,
the extending page), with the garbage collector held off.

CPython 3.11 counts the AST constructor's depth in state that a parse shares with any
other parse that starts inside it: a finalizer run by the collector mid-parse (an asyncio
future an earlier test left unretrieved logs its traceback, and the traceback parses
source lines for its carets) makes the outer parse fail with "AST constructor recursion
depth mismatch" (python/cpython#106905). Pending finalizers run before the parse instead.
"""

from __future__ import annotations

import ast
import gc
from pathlib import Path


def parse_python(path: Path) -> ast.Module:
    """The syntax tree of the Python file at ``path``."""
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    finally:
        if enabled:
            gc.enable()
