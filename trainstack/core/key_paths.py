"""How messages write where a value is: a key path such as ``nodePool.instanceTypes[0]``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def dotted_path(loc: Iterable[int | str], prefix: str = "") -> str:
    """``("nodePool", "instanceTypes", 0)`` -> ``nodePool.instanceTypes[0]`` (after ``prefix``).

    Keys that are not plain words (label keys such as ``trainstack.io/pool``) are
    written ``labels["trainstack.io/pool"]`` so that the path stays unambiguous.
    """
    text = prefix
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif not _PLAIN_KEY.fullmatch(str(part)):
            text += f"[{json.dumps(str(part))}]"
        elif text and not text.endswith((":", ".")):
            text += f".{part}"
        else:
            text += str(part)
    return text.rstrip(".")
