"""The calls ``status``, ``logs`` and ``results collect`` make, through the bounded reader.

Calls: list a training-job kind by label selector, in the API version the stack's operator
serves (``GET /apis/kubeflow.org/v2beta1/namespaces/NS/mpijobs?labelSelector=...``;
ack-arena's: ``kubeflow.org/v1alpha1``), list pods by
label selector (``GET /api/v1/namespaces/NS/pods?labelSelector=...``), read a pod's log
(``GET /api/v1/namespaces/NS/pods/NAME/log?container=...&follow=...&tailLines=...``) and,
while following it, the pod (``GET /api/v1/namespaces/NS/pods/NAME``).
Nothing is written to the cluster. Every call goes through :class:`~trainstack.live.api.
ApiReader` (time, size, nesting, pages, credentials: one reader for every command), and
every object is checked for the fields trainstack reads (:func:`checked_pod`) before use:
an answer of the wrong shape is one clear error, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar
from urllib.parse import quote

from lightkube.generic_resource import create_global_resource, create_namespaced_resource
from lightkube.operators import Operator

from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError, JobNotFoundError
from trainstack.live.api import ApiReader, Malformed
from trainstack.live.log_stream import Hangup
from trainstack.training_job.frameworks import FrameworkSpec

Selector = str | Operator[Any]
"""A label's value, or a lightkube operator such as ``exists()``."""
T = TypeVar("T")
PODS = create_namespaced_resource("", "v1", "Pod", "pods")
CRDS = create_global_resource(
    "apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions"
)


class Cluster:
    """A read-only view of the cluster one kubeconfig context reaches."""

    def __init__(self, reader: ApiReader) -> None:
        self.reader = reader
        self._kinds: dict[str, Any] = {}

    def where(self) -> str:
        """``context X (server URL)`` for messages."""
        return self.reader.where()

    def list_jobs(
        self,
        spec: FrameworkSpec,
        namespace: str,
        labels: Mapping[str, Selector],
        keep: Callable[[dict[str, Any]], T],
        api_version: str | None = None,
    ) -> list[T]:
        """``keep(job)`` of the jobs of ``spec``'s kind in ``namespace`` with ``labels``, read
        in ``api_version`` (the serving operator's; default: the chart's default)."""
        group, _, version = (api_version or spec.api_version).partition("/")
        kind = self._kinds.get(f"{group}/{version}/{spec.kind}")
        if kind is None:
            kind = create_namespaced_resource(group, version, spec.kind, spec.plural)
            self._kinds[f"{group}/{version}/{spec.kind}"] = kind
        action = f"listing {spec.plural} in namespace {namespace}"
        missing = ClusterError(
            f"{action}: {spec.crd} is not installed on the cluster ({self.where()}): is its "
            "operator deployed (`pulumi up`)?"
        )
        return self.reader.list(
            kind, action, keep, missing=missing, namespace=namespace, labels=dict(labels)
        )

    def list_pods(self, namespace: str, labels: Mapping[str, Selector]) -> list[dict[str, Any]]:
        """The pods of ``namespace`` with ``labels``, sorted by name."""
        what = f"listing pods in namespace {namespace}"
        pods = self.reader.list(PODS, what, checked_pod, namespace=namespace, labels=dict(labels))
        return sorted(pods, key=lambda pod: str(pod["metadata"]["name"]))

    def get_crd(self, name: str) -> dict[str, Any] | None:
        """The CustomResourceDefinition ``name`` as the API server has it; ``None`` if absent."""
        return self.reader.get(CRDS, name, f"reading CustomResourceDefinition {name}")

    def log_lines(
        self,
        namespace: str,
        pod: str,
        container: str,
        *,
        follow: bool = False,
        tail: int | None = None,
        hangup: Hangup | None = None,
        limit_bytes: int | None = None,
    ) -> Iterator[str]:
        """The log of one container, line by line (each with its newline); a followed one
        ``hangup`` can end; ``limit_bytes``: the API server sends at most that many."""
        what = f"reading the log of pod {pod} (container {container}) in namespace {namespace}"
        gone = JobNotFoundError(
            f"pod {pod} is gone ({self.where()}): its log went with it; the operator's "
            "cleanPodPolicy or ttlSecondsAfterFinished removes the pods of finished jobs"
        )
        params = {"container": container}
        if follow:
            params["follow"] = "true"
        if tail is not None:
            params["tailLines"] = str(tail)
        if limit_bytes is not None:
            params["limitBytes"] = str(limit_bytes)
        path = f"{_pod_path(namespace, pod)}/log"
        return self.reader.lines(path, params, what, gone, follow, hangup)

    def pod(self, namespace: str, pod: str) -> dict[str, Any] | None:
        """Pod ``pod`` as the API server has it now (``None``: it does not exist), read in a
        request of its own deadline (:meth:`ApiReader.check`)."""
        what = f"reading pod {pod} in namespace {namespace}"
        found = self.reader.check(_pod_path(namespace, pod), what)
        if found is None:
            return None
        with self.reader.errors(what):
            return checked_pod(found)


def _pod_path(namespace: str, pod: str) -> str:
    return f"/api/v1/namespaces/{quote(namespace, safe='')}/pods/{quote(pod, safe='')}"


def _field(item: Mapping[str, Any], path: str, kind: type | tuple[type, ...]) -> Any:
    """``item``'s field at the dotted ``path`` (``None`` when absent), of type ``kind``."""
    value: Any = item
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    if value is not None and not isinstance(value, kind):
        raise Malformed(f"`{path}` is {type(value).__name__}, not {_type_name(kind)}")
    return value


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {dict: "an object", list: "a list", str: "a string", int: "an integer"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def checked_pod(item: dict[str, Any]) -> dict[str, Any]:
    """A pod as the API returned it, once the fields trainstack reads have their types."""
    name = _field(item, "metadata.name", str)
    if not name:
        raise Malformed("a pod without `metadata.name`")
    where = f"pod {printable(name, 80)}: "
    try:
        for path, kind in (("spec", dict), ("status", dict), ("spec.nodeName", str)):
            _field(item, path, kind)
        for container in _field(item, "spec.containers", list) or []:
            if not isinstance(container, dict) or not isinstance(container.get("name"), str):
                raise Malformed("`spec.containers` holds an entry without a string `name`")
        for condition in _field(item, "status.conditions", list) or []:
            if not isinstance(condition, dict):
                raise Malformed("`status.conditions` holds an entry that is no object")
        _field(item, "status.phase", str)
        for key in ("initContainerStatuses", "containerStatuses"):
            for index, entry in enumerate(_field(item, f"status.{key}", list) or []):
                _check_container_status(entry, f"status.{key}[{index}]")
    except Malformed as error:
        raise Malformed(f"{where}{error}") from None
    return item


_CONTAINER_STATUS = (("name", str), ("restartCount", int), ("state", dict), ("lastState", dict))
_STATE = (("running", dict), ("waiting", dict), ("terminated", dict))
_TERMINATED = (("exitCode", int), ("message", str), ("reason", str), ("finishedAt", str))


def _check_container_status(entry: object, path: str) -> None:
    """One entry of a pod's ``status.containerStatuses``: the fields ``logs``, ``status``,
    the preflight's reason and goodput read (``core/v1`` ``ContainerStatus``)."""
    if not isinstance(entry, dict):
        raise Malformed(f"`{path}` is {type(entry).__name__}, not an object")
    fields = [*_CONTAINER_STATUS]
    for state in ("state", "lastState"):
        fields += [(f"{state}.{key}", kind) for key, kind in _STATE]
        fields += [(f"{state}.terminated.{key}", kind) for key, kind in _TERMINATED]
    try:
        for key, kind in fields:
            _field(entry, key, kind)
    except Malformed as error:
        raise Malformed(f"{path}: {error}") from None


def checked_job(item: dict[str, Any], spec: FrameworkSpec) -> dict[str, Any]:
    """A job as the API returned it, once the fields trainstack reads have their types."""
    name = _field(item, "metadata.name", str)
    if not name:
        raise Malformed(f"a {spec.kind} without `metadata.name`")
    try:
        for path, kind in (
            ("metadata.namespace", str),
            ("metadata.creationTimestamp", str),
            ("metadata.labels", dict),
            ("metadata.annotations", dict),
            ("status", dict),
            ("status.startTime", str),
            ("status.completionTime", str),
            ("status.conditions", list),
            (f"spec.{spec.replica_specs_key}", dict),
        ):
            _field(item, path, kind)
        for role, replica in (_field(item, f"spec.{spec.replica_specs_key}", dict) or {}).items():
            replicas = replica.get("replicas") if isinstance(replica, dict) else replica
            if replicas is not None and (type(replicas) is not int or replicas < 0):
                raise Malformed(
                    f"`spec.{spec.replica_specs_key}.{printable(str(role), 40)}.replicas` is "
                    f"{printable(repr(replicas), 40)}, not a number of pods"
                )
    except Malformed as error:
        raise Malformed(f"{spec.kind} {printable(name, 80)}: {error}") from None
    return item
