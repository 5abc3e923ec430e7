"""Run every benchmark: ``.venv/bin/python -m benchmarks`` (or ``make bench``)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path


def main() -> None:
    """Import each benchmark module of this package and run its ``main()``."""
    for module in sorted(pkgutil.iter_modules([str(Path(__file__).parent)])):
        if module.name.startswith("_"):
            continue
        importlib.import_module(f"benchmarks.{module.name}").main()


main()
