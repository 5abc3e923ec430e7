"""The options every command that reads a cluster takes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class ClusterOptions:
    """How to reach the stack's cluster."""

    kubeconfig: Path | None = None
    context: str | None = None
    timeout: float = DEFAULT_TIMEOUT


Kubeconfig = Annotated[
    Path | None,
    typer.Option(
        "--kubeconfig",
        help="The stack's kubeconfig file (e.g. from `pulumi config get --show-secrets "
        "trainstack:kubeconfig`); default: $KUBECONFIG or ~/.kube/config when the stack "
        "uses the deployer's own kubeconfig.",
    ),
]
Context = Annotated[
    str | None,
    typer.Option("--context", help="Context of the kubeconfig; default: the stack's context."),
]
Timeout = Annotated[
    float,
    typer.Option("--timeout", min=0.1, help="Seconds to wait for the API server."),
]
