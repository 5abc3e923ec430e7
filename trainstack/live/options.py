"""The options every command that reads a cluster takes.

Two bounds on time, both documented in ``docs/facts.md``: ``--timeout`` is how long one
request may wait to connect and then for each part of its answer; ``--deadline`` is how
long all the requests of a command may take together (a server that trickles an answer
byte by byte never trips the first, always the second).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from trainstack.experiments.completion import complete_stack

DEFAULT_TIMEOUT = 10.0
"""Seconds to connect, and to wait for each part of an answer (lightkube's default too)."""
DEFAULT_DEADLINE = 120.0
"""Seconds all the requests of one command may take together."""


@dataclass(frozen=True)
class ClusterOptions:
    """How to reach the stack's cluster."""

    kubeconfig: Path | None = None
    context: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    deadline: float = DEFAULT_DEADLINE


Stack = Annotated[
    str,
    typer.Argument(metavar="STACK", help="Stack name, e.g. aiacc.", autocompletion=complete_stack),
]
"""The stack whose cluster the command reads."""

Kubeconfig = Annotated[
    Path | None,
    typer.Option(
        "--kubeconfig",
        metavar="FILE",
        help="The stack's kubeconfig file (e.g. from `pulumi config get --show-secrets "
        "trainstack:kubeconfig`); default: $KUBECONFIG or ~/.kube/config when the stack "
        "uses the deployer's own kubeconfig.",
    ),
]
Context = Annotated[
    str | None,
    typer.Option(
        "--context",
        metavar="NAME",
        help="Context of the kubeconfig; default: the stack's context.",
    ),
]
Timeout = Annotated[
    float,
    typer.Option(
        "--timeout",
        min=0.1,
        metavar="SECONDS",
        help="Seconds to wait for the API server to connect, and for each part of an answer.",
    ),
]
Deadline = Annotated[
    float,
    typer.Option(
        "--deadline",
        min=0.1,
        metavar="SECONDS",
        help="Seconds all the requests of the command may take together.",
    ),
]
