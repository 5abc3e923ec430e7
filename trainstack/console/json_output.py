"""The one way commands print a JSON document (``--format json``; docs/scripting.md)."""

from __future__ import annotations

import json
from typing import Any


def json_text(document: Any) -> str:
    """``document`` indented, ASCII-escaped (no control character a cluster, log or file
    holds reaches a terminal raw), with one newline at the end; its keys in the order given."""
    return json.dumps(document, indent=2, ensure_ascii=True) + "\n"
