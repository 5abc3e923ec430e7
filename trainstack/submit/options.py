"""The options ``run`` and ``chart render --stack`` share: job values and CRD schemas."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Sets = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="A job value, as the experiment file writes it: worker.gpus=2 (repeatable).",
    ),
]
SetStrings = Annotated[
    list[str] | None,
    typer.Option(
        "--set-string",
        metavar="KEY=VALUE",
        help="A job value taken as text, as typed (repeatable).",
    ),
]
CrdDir = Annotated[
    Path | None,
    typer.Option("--crd-dir", metavar="DIR", help="CRD schemas (default: $TRAINSTACK_CRD_DIR)."),
]
