"""Read and write ``facts/STACK.json``: bounded and validated on read, atomic on write.

The file is ``trainstack inspect``'s own output, reviewed and committed like code: keys
sorted, two-space indents, ASCII only (a control character a cluster sent is written as
``\\u001b``, never raw), a final newline; the same facts give the same bytes. Writing
replaces it whole, with one rename, or leaves it as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from trainstack.core.errors import FactsFileError, OutputError, Problem
from trainstack.core.json_depth import ALLOWED_DEPTH, TOO_DEEP, TOO_MANY_DIGITS, raw_too_deep
from trainstack.core.limits import MAX_FACTS_FILE_BYTES
from trainstack.core.validation import problems_from
from trainstack.facts.model import StackFacts

FACTS_DIR = "facts"
_RESTORE = (
    "a facts file as `trainstack inspect` writes it: restore it with `git checkout -- FILE`, "
    "or write it again with `trainstack inspect STACK`"
)

Display = Callable[[Path], str]
M = TypeVar("M", bound=BaseModel)


def facts_path(root: Path, stack: str) -> Path:
    """Where the facts of ``stack`` are kept: ``facts/STACK.json`` in the project."""
    return root / FACTS_DIR / f"{stack}.json"


def facts_json(facts: StackFacts) -> str:
    """The file's text (the same facts, the same bytes)."""
    return document_json(facts)


def document_json(model: BaseModel) -> str:
    """A model as a reviewed file's text: sorted keys, two-space indents, ASCII only, a
    final newline (the same model, the same bytes)."""
    document = model.model_dump(mode="json", by_alias=True)
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def read_facts(root: Path, stack: str, display: Display) -> StackFacts | None:
    """The facts of ``stack``, validated; ``None`` when it has none yet."""
    return read_document(facts_path(root, stack), stack, StackFacts, display, _RESTORE)


def read_document(
    path: Path, stack: str, model: type[M], display: Display, restore: str
) -> M | None:
    """The file at ``path`` read as ``model`` (its ``stack`` that of the file name), bounded
    and validated; ``None`` when there is none. Every problem is one error naming the file,
    with ``restore`` as what is allowed."""
    if not path.exists() and not path.is_symlink():
        return None
    where = display(path)

    def problem(found: str, allowed: str = restore) -> FactsFileError:
        return FactsFileError(where, [Problem("(document)", found, allowed)])

    try:
        if not path.is_file():
            raise problem("not a regular file")
        if path.stat().st_size > MAX_FACTS_FILE_BYTES:
            raise problem(f"more than {MAX_FACTS_FILE_BYTES} bytes")
        data = path.read_bytes()
    except OSError as error:
        raise problem(f"unreadable ({error.strerror or error})") from None
    if raw_too_deep(data):
        raise problem(TOO_DEEP, ALLOWED_DEPTH)
    try:
        document = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise problem(f"invalid JSON ({type(error).__name__})") from None
    except ValueError:  # an integer of too many digits (core/json_depth.py)
        raise problem(TOO_MANY_DIGITS) from None
    try:
        found = model.model_validate(document)
    except ValidationError as error:
        raise FactsFileError(where, problems_from(error, model)) from None
    if getattr(found, "stack", stack) != stack:
        shown = json.dumps(getattr(found, "stack", None))
        raise FactsFileError(where, [Problem("stack", shown, f'"{stack}", as in the file name')])
    return found


def write_facts(root: Path, facts: StackFacts) -> tuple[Path, bool]:
    """Write the facts of their stack; return the file and whether its bytes changed."""
    path = facts_path(root, facts.stack)
    return path, write_document(path, facts_json(facts), "trainstack inspect")


def write_document(path: Path, text: str, command: str) -> bool:
    """Replace ``path`` with ``text`` (ASCII) in one rename; whether its bytes changed.
    ``command`` names who writes it in the error about a symbolic link."""
    data = text.encode("ascii")
    directory = path.parent
    for place in (directory, path):
        if place.is_symlink():
            raise OutputError(f"{place} is a symbolic link: {command} writes no link")
    try:
        if path.is_file() and path.read_bytes() == data:
            return False
        directory.mkdir(exist_ok=True)
        temporary = directory / f".{path.name}.{os.getpid()}.tmp"
        try:
            temporary.write_bytes(data)
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    return True
