"""Compare a job trainstack renders with an upstream one, field by field, as the cluster sees
them: after the operator's and Kubernetes' defaulting, with trainstack's labels and
hardening and the names that do not change what runs set aside.

The upstream manifests are read from ``TRAINSTACK_UPSTREAM_JOBS_DIR`` (the layout of
``../shared/reference/upstream-jobs``, see its SOURCES.json); tests skip, saying why, when
it is unset. Each rule below says what it sets aside and why; nothing else is.
"""

from __future__ import annotations

import copy
import os
from decimal import Decimal
from pathlib import Path
from typing import Any

import helm_python
import pytest

from trainstack.core.quantity import parse_quantity

UPSTREAM_DIR_ENV = "TRAINSTACK_UPSTREAM_JOBS_DIR"
SKIP_REASON = (
    f"{UPSTREAM_DIR_ENV} is not set: point it at ../shared/reference/upstream-jobs to compare "
    "rendered jobs with the upstream examples"
)

# Labels and annotations that only say who made the object: trainstack's chart labels, and
# the bookkeeping Arena's charts add (kubeflow/arena charts/*/templates).
BOOKKEEPING_LABELS = {
    "helm.sh/chart",
    "app",
    "chart",
    "release",
    "heritage",
    "createdBy",
    "role",
    # the old tf-operator's label names, which Arena's chart writes on its Service
    "group-name",
    "tf-job-name",
}
BOOKKEEPING_PREFIXES = ("app.kubernetes.io/", "arena.kubeflow.org/", "master-pod-name")
BOOKKEEPING_ANNOTATIONS = {"arena.kubeflow.org/username", "requestGPUsOfJobOwner"}

# Operator defaults (applied to both sides): kubeflow/mpi-operator
# pkg/apis/kubeflow/v2beta1/default.go; kubeflow/training-operator
# pkg/apis/kubeflow.org/v1/{tensorflow,pytorch}_defaults.go.
_REPLICA_DEFAULTS: dict[str, dict[str, tuple[int, str]]] = {
    "MPIJob": {"Launcher": (1, "OnFailure"), "Worker": (0, "Never")},
    "TFJob": {"*": (1, "Never")},
    "PyTorchJob": {"*": (1, "OnFailure")},
}
_SPECS_KEY = {
    "MPIJob": "mpiReplicaSpecs",
    "TFJob": "tfReplicaSpecs",
    "PyTorchJob": "pytorchReplicaSpecs",
}
_PORTS = {
    "TFJob": ("tensorflow", "tfjob-port", 2222),
    "PyTorchJob": ("pytorch", "pytorchjob-port", 23456),
}


def upstream_dir() -> Path:
    """The upstream manifests' directory; skips the calling test when it is unset."""
    value = os.environ.get(UPSTREAM_DIR_ENV)
    if not value:
        pytest.skip(SKIP_REASON)
    directory = Path(value)
    assert directory.is_dir(), f"{UPSTREAM_DIR_ENV}={value} is not a directory"
    return directory


def read_objects(path: Path) -> list[dict[str, Any]]:
    """The objects of a (multi-document) manifest, read as the API server reads YAML."""
    documents = path.read_text(encoding="utf-8").split("\n---")
    return [obj for text in documents if (obj := helm_python.values_from_yaml(text))]


def as_applied(obj: dict[str, Any], namespace: str = "default") -> dict[str, Any]:
    """``obj`` as stored after defaulting, with what only says who made it set aside."""
    obj = copy.deepcopy(obj)
    metadata = obj.setdefault("metadata", {})
    metadata.setdefault("namespace", namespace)
    _bookkeeping(metadata)
    kind = obj["kind"]
    if (kind, obj.get("apiVersion")) == ("MPIJob", "kubeflow.org/v1alpha1"):
        _mpijob_v1alpha1(obj["spec"])
    elif kind in _SPECS_KEY:
        _job_defaults(obj["spec"], kind)
        for spec in obj["spec"][_SPECS_KEY[kind]].values():
            _pod_template(spec["template"], kind)
    elif kind == "Deployment":
        _pod_template(obj["spec"]["template"], kind)
        # trainstack's hardening aside: TensorBoard only reads its claim
        for container in obj["spec"]["template"]["spec"]["containers"]:
            for mount in container.get("volumeMounts", {}).values():
                if mount.pop("readOnly", None):
                    mount["volume"]["persistentVolumeClaim"].pop("readOnly", None)
        obj["spec"].setdefault("replicas", 1)
        obj["spec"]["selector"] = "the Deployment's own pods"  # label names aside
    elif kind == "Service":
        obj["spec"]["selector"] = "the Deployment's pods"
        for port in obj["spec"]["ports"]:
            port.setdefault("protocol", "TCP")
    return obj


def _bookkeeping(metadata: dict[str, Any]) -> None:
    labels = {
        key: value
        for key, value in (metadata.pop("labels", None) or {}).items()
        if key not in BOOKKEEPING_LABELS and not key.startswith(BOOKKEEPING_PREFIXES)
    }
    annotations = {
        key: value
        for key, value in (metadata.pop("annotations", None) or {}).items()
        if key not in BOOKKEEPING_ANNOTATIONS
    }
    if labels:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations


def _mpijob_v1alpha1(spec: dict[str, Any]) -> None:
    """ack-arena's MPIJob: the fork's defaults (AliyunContainerService/mpi-operator
    d40ff84155fbcd6f2cbf8e49714e00b963e8b059, pkg/controllers/mpi_job_controller.go:
    backoffLimit 6 when unset, L955-958; an unset mountsOnLauncher is false, L1037;
    cleanPodPolicy "Defaults to None", its CRD) and one pod template."""
    spec.setdefault("backoffLimit", 6)
    spec.setdefault("cleanPodPolicy", "None")
    spec.setdefault("mountsOnLauncher", False)
    # trainstack's preflight aside (docs/preflight.md): the workers only report it, and
    # the launcher reads their reports with the fork's kubectl before the command
    (container,) = spec["template"]["spec"]["containers"]
    command = container.get("command") or []
    if command[:2] == ["sh", "-c"] and "preflight-workers.sh" in command[2].partition("\n")[0]:
        container["command"] = command[4:]
        container["env"] = [e for e in container["env"] if e["name"] not in _WORKERS_ENV]
    if not spec.get("launcherResources"):
        spec.pop("launcherResources", None)  # none: the launcher requests nothing
    _pod_template(spec["template"], "MPIJob")


_WORKERS_ENV = {"TRAINSTACK_PREFLIGHT_WORKERS", "TRAINSTACK_KUBECTL"}


def _job_defaults(spec: dict[str, Any], kind: str) -> None:
    policy = spec.setdefault("runPolicy", {})
    policy.setdefault("cleanPodPolicy", "None")
    for name, replica in spec[_SPECS_KEY[kind]].items():
        replicas, restart = _REPLICA_DEFAULTS[kind].get(name) or _REPLICA_DEFAULTS[kind]["*"]
        replica.setdefault("replicas", replicas)
        replica.setdefault("restartPolicy", restart)
    if kind == "MPIJob":
        spec.setdefault("slotsPerWorker", 1)
        spec.setdefault("sshAuthMountPath", "/root/.ssh")
        spec.setdefault("mpiImplementation", "OpenMPI")
    if kind == "TFJob":
        spec.setdefault("successPolicy", "")
    if kind == "PyTorchJob":
        elastic = spec.get("elasticPolicy")
        if elastic is not None:
            workers = spec["pytorchReplicaSpecs"]["Worker"]["replicas"]
            low, high = elastic.get("minReplicas"), elastic.get("maxReplicas")
            elastic["minReplicas"] = (
                low if low is not None else high if high is not None else workers
            )
            elastic["maxReplicas"] = high if high is not None else elastic["minReplicas"]
        if elastic is None or "nProcPerNode" not in elastic:
            spec.setdefault("nprocPerNode", "auto")


def _pod_template(template: dict[str, Any], kind: str) -> None:
    metadata = template.setdefault("metadata", {})
    metadata.pop("name", None)  # ignored by Kubernetes in a template (Arena sets one)
    _bookkeeping(metadata)
    if not metadata:
        del template["metadata"]
    pod = template["spec"]
    # trainstack's preflight aside (docs/preflight.md): an init container that checks the
    # pod and exits, before anything the upstream job runs
    init = [c for c in pod.get("initContainers", []) if c.get("name") != "preflight"]
    if init:
        pod["initContainers"] = init
    else:
        pod.pop("initContainers", None)
    # trainstack's hardening aside: no API token
    if pod.get("automountServiceAccountToken") is False:
        del pod["automountServiceAccountToken"]
    pod.setdefault("dnsPolicy", "ClusterFirst")
    volumes = {volume.pop("name"): _volume(volume) for volume in pod.pop("volumes", [])}
    for key in ("containers", "initContainers"):
        for container in pod.get(key, []):
            _container(container, volumes, kind, init=key == "initContainers")
    if "initContainers" in pod:
        # naming aside: what runs before training, by image
        pod["initContainers"] = {c.pop("name") and c["image"]: c for c in pod["initContainers"]}
    if kind == "MPIJob":
        # mpi-operator takes each pod's first container whatever its name
        for container in pod["containers"]:
            container.pop("name")
    if kind in _PORTS:
        name, port, number = _PORTS[kind]
        for container in pod["containers"]:
            if container["name"] == name and not any(
                p.get("name") == port for p in container.get("ports", [])
            ):
                container.setdefault("ports", []).append({"name": port, "containerPort": number})


def _volume(volume: dict[str, Any]) -> dict[str, Any]:
    host = volume.get("hostPath")
    if host is not None and host.get("type") == "Directory":
        del host["type"]  # trainstack's hardening aside: a missing directory fails
    empty = volume.get("emptyDir")
    if empty is not None and "sizeLimit" in empty:
        empty["sizeLimit"] = _quantity(empty["sizeLimit"])
    return volume


def _container(
    container: dict[str, Any], volumes: dict[str, Any], kind: str, *, init: bool
) -> None:
    for key in [key for key, value in container.items() if value is None]:
        del container[key]  # a null field is an unset one
    image = str(container["image"])
    tag = image.rsplit("/", 1)[-1].partition(":")[2]
    container.setdefault("imagePullPolicy", "Always" if tag in ("", "latest") else "IfNotPresent")
    resources = {k: v for k, v in (container.pop("resources", None) or {}).items() if v}
    limits = {name: _quantity(value) for name, value in (resources.get("limits") or {}).items()}
    requests = {name: _quantity(value) for name, value in (resources.get("requests") or {}).items()}
    requests = {**limits, **requests}  # Kubernetes: an unset request is the limit
    if limits or requests:
        container["resources"] = {
            k: v for k, v in (("limits", limits), ("requests", requests)) if v
        }
    env = container.pop("env", None) or []
    if env:
        # order matters only to $(VAR) references, which none of these jobs use
        assert not any("$(" in str(item.get("value", "")) for item in env)
        container["env"] = {item["name"]: _env_value(item) for item in env}
    # naming aside: each mount by where it appears, with what it mounts
    container["volumeMounts"] = {
        mount["mountPath"]: {
            **{k: v for k, v in mount.items() if k not in ("name", "mountPath")},
            "volume": volumes[mount["name"]],
        }
        for mount in container.get("volumeMounts", [])
    }
    if not container["volumeMounts"]:
        del container["volumeMounts"]
    for probe in ("readinessProbe", "livenessProbe"):
        if probe in container:
            for key, value in (
                ("timeoutSeconds", 1),
                ("periodSeconds", 10),
                ("successThreshold", 1),
                ("failureThreshold", 3),
            ):
                container[probe].setdefault(key, value)
    for port in container.get("ports", []):
        port.setdefault("protocol", "TCP")
    _security(container)


def _security(container: dict[str, Any]) -> None:
    """trainstack's hardening aside: exactly the defaults it adds, nothing a job asked for."""
    context = container.get("securityContext")
    if not context:
        container.pop("securityContext", None)
        return
    if context.get("allowPrivilegeEscalation") is False:
        del context["allowPrivilegeEscalation"]
    if context.get("seccompProfile") == {"type": "RuntimeDefault"}:
        del context["seccompProfile"]
    capabilities = context.get("capabilities") or {}
    if capabilities.get("drop") in (["NET_RAW"], ["ALL"]):  # ALL: TensorBoard's
        del capabilities["drop"]
    if "capabilities" in context and not capabilities:
        del context["capabilities"]
    if not context:
        del container["securityContext"]


def _env_value(item: dict[str, Any]) -> Any:
    source = item.get("valueFrom")
    if source is None:
        return str(item.get("value", ""))
    field = source.get("fieldRef")
    if field is not None:
        field.setdefault("apiVersion", "v1")
    return source


def _quantity(value: Any) -> str:
    return str(Decimal(parse_quantity(value)).normalize())
