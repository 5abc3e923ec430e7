"""The few API calls trainstack makes, through lightkube, with errors users can act on.

Calls: list a training-job kind by label selector, in the API version the stack's operator
serves (``GET /apis/kubeflow.org/v2beta1/namespaces/NS/mpijobs?labelSelector=...``;
ack-arena's: ``kubeflow.org/v1alpha1``), list pods by
label selector (``GET /api/v1/namespaces/NS/pods?labelSelector=...``) and read a pod's log
(``GET /api/v1/namespaces/NS/pods/NAME/log?container=...&follow=...&tailLines=...``).
Nothing is written to the cluster.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

import httpx2
from lightkube import ApiError, Client, ConfigError
from lightkube.generic_resource import create_namespaced_resource
from lightkube.operators import Operator
from lightkube.resources.apiextensions_v1 import CustomResourceDefinition
from lightkube.resources.core_v1 import Pod

from trainstack.core.errors import ClusterError, JobNotFoundError
from trainstack.live.kubeconfig import Target
from trainstack.training_job.frameworks import FrameworkSpec

Selector = str | Operator[Any]
"""A label's value, or a lightkube operator such as ``exists()``."""


class Cluster:
    """A read-only view of the cluster one kubeconfig context reaches."""

    def __init__(self, target: Target, timeout: float) -> None:
        self.target = target
        self.timeout = timeout
        config = target.config()
        try:
            self._client = Client(config=config, timeout=httpx2.Timeout(timeout), trust_env=False)
        except ConfigError as error:
            raise ClusterError(f"kubeconfig {target.path}: {error}") from None
        self._kinds: dict[str, Any] = {}

    def where(self) -> str:
        """``context X (server URL)`` for messages."""
        return self.target.where()

    def list_jobs(
        self,
        spec: FrameworkSpec,
        namespace: str,
        labels: Mapping[str, Selector],
        api_version: str | None = None,
    ) -> list[dict[str, Any]]:
        """The jobs of ``spec``'s kind in ``namespace`` with ``labels`` (values or operators),
        read in ``api_version`` (the serving operator's; default: the chart's default)."""
        group, _, version = (api_version or spec.api_version).partition("/")
        kind = self._kinds.get(f"{group}/{version}/{spec.kind}")
        if kind is None:
            kind = create_namespaced_resource(group, version, spec.kind, spec.plural)
            self._kinds[f"{group}/{version}/{spec.kind}"] = kind
        with self._errors(f"listing {spec.plural} in namespace {namespace}", crd=spec.crd):
            return [
                item.to_dict()
                for item in self._client.list(kind, namespace=namespace, labels=dict(labels))
            ]

    def list_pods(self, namespace: str, labels: Mapping[str, Selector]) -> list[dict[str, Any]]:
        """The pods of ``namespace`` with ``labels``, sorted by name."""
        with self._errors(f"listing pods in namespace {namespace}"):
            pods = [
                pod.to_dict()
                for pod in self._client.list(Pod, namespace=namespace, labels=dict(labels))
            ]
        return sorted(pods, key=lambda pod: str(pod["metadata"]["name"]))

    def get_crd(self, name: str) -> dict[str, Any] | None:
        """The CustomResourceDefinition ``name`` as the API server has it; ``None`` if absent."""
        with self._errors(f"reading CustomResourceDefinition {name}"):
            try:
                return self._client.get(CustomResourceDefinition, name=name).to_dict()
            except ApiError as error:
                if error.status.code == 404:
                    return None
                raise

    def log_lines(
        self,
        namespace: str,
        pod: str,
        container: str,
        *,
        follow: bool = False,
        tail: int | None = None,
    ) -> Iterator[str]:
        """The log of one container, line by line (each with its newline)."""
        what = f"reading the log of pod {pod} (container {container}) in namespace {namespace}"
        with self._errors(what, pod=pod):
            lines = self._client.log(
                pod, namespace=namespace, container=container, follow=follow, tail_lines=tail
            )
            # The response is read as the lines are consumed: errors can come mid-stream.
            yield from lines

    @contextlib.contextmanager
    def _errors(
        self, action: str, crd: str | None = None, pod: str | None = None
    ) -> Iterator[None]:
        """Turn lightkube's and the HTTP client's exceptions into one clear message."""
        where = self.where()
        try:
            yield
        except ApiError as error:
            code = error.status.code
            message = error.status.message or error.status.reason or ""
            if code == 404 and pod is not None:
                raise JobNotFoundError(
                    f"pod {pod} is gone ({where}): its log went with it; the operator's "
                    "cleanPodPolicy or ttlSecondsAfterFinished removes the pods of finished jobs"
                ) from None
            if code == 404 and crd is not None:
                raise ClusterError(
                    f"{action}: {crd} is not installed on the cluster ({where}): is its "
                    "operator deployed (`pulumi up`)?"
                ) from None
            raise ClusterError(
                f"{action}: the API server answered {code}: {message} ({where})"
            ) from None
        except httpx2.TimeoutException:
            raise ClusterError(
                f"{action}: no answer from the API server within {self.timeout:g} s ({where}); "
                "is the cluster up and reachable from here? (--timeout)"
            ) from None
        except httpx2.HTTPStatusError as error:
            code = error.response.status_code
            raise ClusterError(f"{action}: the API server answered {code} ({where})") from None
        except (httpx2.HTTPError, OSError) as error:
            raise ClusterError(
                f"{action}: cannot reach the API server ({where}): {_reason(error)}"
            ) from None


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:200]
