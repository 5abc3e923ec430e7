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
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from lightkube import ConfigError, KubeConfig
from lightkube.config.kubeconfig import SingleConfig

from trainstack.config.loader import LoadedStack
from trainstack.config.secret_keys import KUBECONFIG_KEY
from trainstack.console.safe_text import printable
from trainstack.core.credentials import masked_url
from trainstack.core.errors import ClusterError, InputLimitError, YamlSyntaxError
from trainstack.core.files import read_source
from trainstack.core.yaml.scan import check_yaml
from trainstack.live.options import ClusterOptions

DEFAULT_KUBECONFIG = Path("~/.kube/config")
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LINE = re.compile(r"line \d+")


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

    def _entry(self, section: str, kind: str, name: object) -> dict[str, Any]:
        """The mapping ``kind`` of the entry named ``name`` in the list ``section`` (the last
        one of that name, as lightkube reads them); empty when there is none."""
        found: dict[str, Any] = {}
        for entry in self.document.get(section) or []:
            if isinstance(entry, dict) and entry.get("name") == name:
                value = entry.get(kind)
                found = value if isinstance(value, dict) else {}
        return found

    def _cluster(self) -> dict[str, Any]:
        context = self._entry("contexts", "context", self.context_name)
        return self._entry("clusters", "cluster", context.get("cluster"))

    def server(self) -> str:
        """The API server's URL of the context, for messages: a ``user:password@`` or a
        query in it masked, control characters escaped."""
        server = str(self._cluster().get("server") or "(unknown server)")
        return printable(masked_url(server))

    def exec_settings(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The context's user's ``exec`` mapping and its cluster's mapping, as written.

        lightkube's models drop what kubectl reads there beyond the command
        (``interactiveMode``, ``provideClusterInfo``; the cluster's ``tls-server-name``,
        ``proxy-url``, ``extensions``...): :mod:`trainstack.live.exec_plugin` reads them here.
        """
        context = self._entry("contexts", "context", self.context_name)
        user = self._entry("users", "user", context.get("user"))
        plugin = user.get("exec")
        return (plugin if isinstance(plugin, dict) else {}), self._cluster()

    def where(self) -> str:
        """``context X (server URL)`` for messages."""
        return f"context {printable(repr(self.context_name))} ({self.server()})"

    def config(self) -> SingleConfig:
        """The context's cluster and user as lightkube reads them; an error names the file
        and the contexts it has, never what the file holds."""
        try:
            config = KubeConfig.from_dict(self.document, fname=self.path).get(self.context)
        except ConfigError as error:
            contexts = sorted(str(c.get("name")) for c in self.document.get("contexts") or [])
            raise ClusterError(
                f"kubeconfig {self.path}: {printable(str(error))} (contexts: "
                f"{printable(', '.join(contexts)) or 'none'})"
            ) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ClusterError(
                f"kubeconfig {self.path}: context {printable(repr(self.context_name))} is "
                f"incomplete ({type(error).__name__})"
            ) from None
        if config is None or config.user is None:
            raise ClusterError(
                f"kubeconfig {self.path}: context {printable(repr(self.context_name))} names "
                "no user: trainstack reads the cluster as the context's user"
            )
        return config


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
        if stack_context is None and cluster.supports("kubeconfig-api"):
            raise ClusterError(
                f"stack {stack.name} is {cluster.label} ({stack.source}) whose kubeconfig the "
                f"program fetches from {cluster.kind.api}: {_how_to_get(stack)}"
            )
    path = options.kubeconfig or default_kubeconfig_path()
    context = options.context or stack_context
    return Target(path, context, _read(path, stack))


def _read(path: Path, stack: LoadedStack) -> dict[str, Any]:
    try:
        text = read_source(path).text
    except InputLimitError as error:
        raise ClusterError(
            f"cannot read kubeconfig {path}: {error.problems[0].found}; {_how_to_get(stack)}"
        ) from None
    except YamlSyntaxError:
        raise ClusterError(f"kubeconfig {path} is not UTF-8 text") from None
    return parse_kubeconfig(text, str(path))


def parse_kubeconfig(text: str, source: str) -> dict[str, Any]:
    """A kubeconfig's document, bounded like every file trainstack reads.

    Its size, depth and shape are checked on the parser's events before any object is
    built (so nothing deep reaches a recursive reader), and errors say where, never what:
    a kubeconfig holds credentials.
    """
    try:
        check_yaml(text, source)
    except InputLimitError as error:
        reasons = "; ".join(f"{p.path}: {p.allowed}" for p in error.problems)
        raise ClusterError(f"cannot read kubeconfig {source}: {reasons}") from None
    except YamlSyntaxError as error:
        # The line only: a key path or the parser's words could quote a credential.
        lines = (_LINE.search(problem.path) for problem in error.problems)
        where = "".join(f" ({found[0]})" for found in lines if found)
        raise ClusterError(f"kubeconfig {source} is not valid YAML{where}") from None
    document = yaml.load(text, Loader=_Loader)  # checked above: one plain, bounded mapping
    if not isinstance(document, dict) or not isinstance(document.get("contexts"), list):
        raise ClusterError(f"kubeconfig {source} has no `contexts` list: not a kubeconfig")
    return document
