"""Which kubeconfig and context reach a stack's cluster, without ever showing their contents.

The program reaches the cluster through the secret ``trainstack:kubeconfig`` (never
decrypted offline), through ACK's API for ``clusterId``, or, on an ``existing`` cluster
without the secret, through the deployer's own kubeconfig and ``cluster.context``. Only in
that last case is the default kubeconfig (``$KUBECONFIG``, ``~/.kube/config``) surely the
same cluster; otherwise the user names the file or context, so that results are never
read from the wrong cluster.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from trainstack.config.loader import KUBECONFIG_KEY, LoadedStack
from trainstack.errors import ClusterError, InputLimitError, YamlSyntaxError
from trainstack.live.options import ClusterOptions
from trainstack.yaml_io import read_text
from trainstack.yaml_scan import check_yaml

DEFAULT_KUBECONFIG = Path("~/.kube/config")


@dataclass(frozen=True)
class Target:
    """A kubeconfig file and the context in it that reaches the stack's cluster."""

    path: Path
    context: str | None
    """``None``: the file's current context."""
    document: dict[str, Any]

    @property
    def context_name(self) -> str:
        """The context used (the current one when none was named)."""
        return self.context or str(self.document.get("current-context") or "")

    def server(self) -> str:
        """The API server's URL of the context (shown in errors; it is no secret)."""
        contexts = {
            c.get("name"): c.get("context") or {} for c in self.document.get("contexts") or []
        }
        cluster_name = contexts.get(self.context_name, {}).get("cluster")
        clusters = {
            c.get("name"): c.get("cluster") or {} for c in self.document.get("clusters") or []
        }
        return str(clusters.get(cluster_name, {}).get("server") or "(unknown server)")


def _how_to_get(stack: LoadedStack) -> str:
    return (
        f"write the cluster's kubeconfig to a file, e.g. `pulumi config get --show-secrets "
        f"{KUBECONFIG_KEY} -s {stack.name} > {stack.name}.kubeconfig` (on ACK also: console > "
        f"cluster > Connection Information), and pass --kubeconfig {stack.name}.kubeconfig; "
        "or --context NAME of a kubeconfig context that reaches it"
    )


def default_kubeconfig_path() -> Path:
    """``$KUBECONFIG``'s first file, else ``~/.kube/config`` (as kubectl and Pulumi read it)."""
    configured = os.environ.get("KUBECONFIG", "")
    first = next((part for part in configured.split(os.pathsep) if part), None)
    return Path(first) if first else DEFAULT_KUBECONFIG.expanduser()


def resolve_target(stack: LoadedStack, options: ClusterOptions) -> Target:
    """The kubeconfig and context for ``stack``; an error says how to provide them."""
    cluster = stack.config.cluster
    stack_context = cluster.kubeconfig_context
    if options.kubeconfig is None and options.context is None:
        if stack.kubeconfig is not None:
            raise ClusterError(
                f"stack {stack.name} reaches its cluster through the secret {KUBECONFIG_KEY}, "
                f"which trainstack does not decrypt: {_how_to_get(stack)}"
            )
        if stack_context is None and cluster.cloud_services:
            raise ClusterError(
                f"stack {stack.name} is an ACK cluster ({stack.source}) whose kubeconfig the "
                f"program fetches from ACK: {_how_to_get(stack)}"
            )
    path = options.kubeconfig or default_kubeconfig_path()
    context = options.context or stack_context
    return Target(path, context, _read(path, stack))


def _read(path: Path, stack: LoadedStack) -> dict[str, Any]:
    try:
        text = read_text(path, str(path))
    except InputLimitError as error:
        raise ClusterError(
            f"cannot read kubeconfig {path}: {error.problems[0].found}; {_how_to_get(stack)}"
        ) from None
    except YamlSyntaxError:
        raise ClusterError(f"kubeconfig {path} is not UTF-8 text") from None
    try:
        # Its size and depth checked before the parser builds it; syntax errors are left to
        # the parser below, which names the line (and only the line).
        check_yaml(text, str(path))
    except InputLimitError as error:
        # Where and what is wrong, never the value found: a kubeconfig holds credentials.
        reasons = "; ".join(f"{p.path}: {p.allowed}" for p in error.problems)
        raise ClusterError(f"cannot read kubeconfig {path}: {reasons}") from None
    except YamlSyntaxError:
        pass
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        # The parser's message quotes the file: name the line only, never its text.
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise ClusterError(f"kubeconfig {path} is not valid YAML{where}") from None
    if not isinstance(document, dict) or not isinstance(document.get("contexts"), list):
        raise ClusterError(f"kubeconfig {path} has no `contexts` list: not a kubeconfig")
    return document
