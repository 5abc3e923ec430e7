"""File names built from names users and programs chose: safe, inside their directory, unique.

Every file a command writes is named here. Names from the outside (stack names, Pulumi
resource names, Kubernetes kinds, namespaces and names) never become paths as they are:

- a stack name must be a valid Pulumi stack name and not ``.``, ``..`` or hidden;
- parts of a view's file name are encoded injectively: letters, digits, ``.`` (but a
  leading one) and single inner ``-`` stay as they are
  (``MPIJob--vision--imagenet-tensorflow.yaml``); ``:`` becomes ``_`` and ``/``
  becomes ``+`` (Pulumi type tokens); everything else is ``%XX``-escaped (its UTF-8
  bytes). Parts are joined by ``--``, which no encoded part contains, so ``x--y`` in
  namespace ``w`` and ``y`` in namespace ``w--x`` get two files;
- a name longer than a file name can be, or equal to another but for letter case
  (case-insensitive file systems), gets ``~`` and a digest of the whole identity;
- :func:`child` resolves the result and refuses anything that would leave its directory.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from trainstack.core.errors import OutputError, StackNameError

# Pulumi's own rule (pulumi/pulumi pkg/backend/httpstate/backend.go, validateStackName:
# `^[A-Za-z0-9_.-]{1,100}$`; "stack names may only contain alphanumeric, hyphens,
# underscores, or periods"). `.`, `..` and names starting with `.` are valid for Pulumi
# but name the directory itself, its parent or a hidden entry (trainstack's staging
# directories are hidden): refused.
STACK_NAME_PATTERN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}")
STACK_NAME_RULE = (
    "a Pulumi stack name: 1 to 100 letters, digits, '-', '_' and '.', not starting with '.'"
)

SEPARATOR = "--"
_KEPT = re.compile(r"[A-Za-z0-9.]")
_REPLACED = {":": "_", "/": "+"}
_MAX_NAME_BYTES = 200  # file systems allow 255; room for suffixes
_DIGEST_CHARS = 16

T = TypeVar("T")


def check_stack_name(name: str) -> str:
    """``name`` if it can name a Pulumi stack and a plan directory; raises otherwise."""
    if STACK_NAME_PATTERN.fullmatch(name) is None:
        shown = name if len(name) <= 100 else name[:97] + "..."
        raise StackNameError(f"stack name {shown!r} is invalid; allowed: {STACK_NAME_RULE}")
    return name


def encode_part(text: str) -> str:
    """One part of a file name, encoded injectively (see the module docstring)."""
    if not text:
        return "_"  # no encoded non-empty part is a lone "_" (":" alone encodes to "_"+)
    out: list[str] = []
    for index, char in enumerate(text):
        if _KEPT.fullmatch(char) and not (char == "." and index == 0):
            out.append(char)  # a leading "." is escaped: no view is a hidden file
        elif char == "-" and 0 < index < len(text) - 1 and text[index - 1] != "-":
            out.append(char)  # a single inner hyphen; "--" and edge hyphens are escaped
        elif char in _REPLACED:
            out.append(_REPLACED[char])
        else:
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8")))
    encoded = "".join(out)
    # ":" alone would encode to "_", the empty part's spelling
    return "%3A" if encoded == "_" else encoded


def file_name(parts: Sequence[str], suffix: str = "") -> str:
    """The file name of an object identified by ``parts`` (e.g. kind, namespace, name)."""
    name = SEPARATOR.join(encode_part(part) for part in parts)
    if len(name.encode("utf-8")) + len(suffix) > _MAX_NAME_BYTES:
        keep = _MAX_NAME_BYTES - len(suffix) - _DIGEST_CHARS - 1
        name = f"{name[:keep]}~{_digest(parts)}"
    return name + suffix


def unique_file_names(items: Iterable[tuple[Sequence[str], T]], suffix: str) -> dict[str, T]:
    """A file name per item, never two alike, not even but for letter case.

    Items whose names differ only in case get the digest of their identity appended;
    two items with the same identity are an error (one file would overwrite the other).
    """
    named: list[tuple[str, tuple[str, ...], T]] = []
    seen: dict[tuple[str, ...], None] = {}
    for parts, item in items:
        identity = tuple(parts)
        if identity in seen:
            raise OutputError(f"two objects are both {'/'.join(identity)}: one would overwrite")
        seen[identity] = None
        named.append((file_name(identity, suffix), identity, item))
    folded: dict[str, int] = {}
    for name, _, _ in named:
        folded[name.casefold()] = folded.get(name.casefold(), 0) + 1
    result: dict[str, T] = {}
    for name, identity, item in named:
        if folded[name.casefold()] > 1:
            base = name.removesuffix(suffix) if suffix else name
            name = f"{base[: _MAX_NAME_BYTES - len(suffix) - _DIGEST_CHARS - 1]}~"
            name += _digest(identity) + suffix
        result[name] = item
    return result


def child(directory: Path, name: str) -> Path:
    """``directory / name``, refusing a name that is not one plain entry of ``directory``."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise OutputError(f"refusing to write {name!r} in {directory}: not a plain file name")
    path = directory / name
    if path.parent.resolve() != directory.resolve():
        raise OutputError(f"refusing to write {name!r}: it would leave {directory}")
    return path


def _digest(parts: Sequence[str]) -> str:
    raw = "\0".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).hexdigest()[:_DIGEST_CHARS]
