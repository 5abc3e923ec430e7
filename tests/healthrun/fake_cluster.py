"""A stateful cluster on the loopback API server (tests/live/apiserver.py) for
``trainstack health``: Jobs and MPIJobs created by POST are listed with their pods, run
for a few polls, complete, print recorded output of each tool as their log, and go with
DELETE by label selector, as the API server and its controllers do.

The logs are the recorded outputs of tests/health/data (SOURCES.md), one section per
tool as the node check's script prints them. Knobs make one thing go wrong at a time: a
node whose pods never schedule, a node that leaves the cluster once its pods run, a 403
on creating Jobs, a hook called on each list of pods (to send Ctrl-C), someone else's Job
in the namespace (:meth:`FakeCluster.add_foreign`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.health.samples import sample
from tests.live.apiserver import RecordedApi, Route, reply_json
from tests.live.recorded_cluster import NODES, Shape, nodes
from trainstack.health.jobs import MARK

NAMESPACE = "trainstack-health"
NS_PATH = f"/api/v1/namespaces/{NAMESPACE}"
JOBS = f"/apis/batch/v1/namespaces/{NAMESPACE}/jobs"
MPIJOBS = f"/apis/kubeflow.org/v2beta1/namespaces/{NAMESPACE}/mpijobs"
PODS = f"{NS_PATH}/pods"
FOREIGN = "someone-elses-job"
"""A Job of the namespace that is not trainstack's: it must never be touched."""


def node_check_log(gpus: int = 4) -> str:
    """The node check's log: the recorded outputs, one section per tool (the script's
    markers), each GPU's GEMM lines from the recorded run with its worker's GPU id."""
    smi = "\n".join([sample("nvidia-smi-q-v100-sxm2-16gb-head.txt")] * gpus)
    fp16 = sample("dcgmproftester-1004-a100-4.x.txt")
    fp16 = "\n".join(fp16.replace("Worker 0:0", f"Worker {gpu}:0") for gpu in range(gpus))
    fp32 = fp16.replace("[1004]: TensorEngineActive", "[1007]: Fp32EngineActive")
    diag = sample("dcgmi-diag-4.2.3-partial.txt") + (
        "                                           |\n"
        "+---------------------------+------------------------------------------------+"
    )
    parts = [
        ("nvidia-smi -q", smi),
        ("dcgmproftester12 -t 1004", fp16),
        ("dcgmproftester12 --cublas -t 1007", fp32),
        ("dcgmi diag", diag),
    ]
    return "".join(f"{MARK} {name}\n{text}\n{MARK} exit 0\n" for name, text in parts)


def _matches(labels: dict[str, str], selector: str) -> bool:
    wanted = dict(part.split("=", 1) for part in selector.split(",") if part)
    return all(labels.get(key) == value for key, value in wanted.items())


def _status(code: int, reason: str, message: str) -> dict[str, Any]:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "status": "Failure",
        "reason": reason,
        "message": message,
        "code": code,
    }


@dataclass
class FakeCluster:
    """The state, the knobs, and what was asked of it."""

    api: RecordedApi
    polls_to_finish: int = 2
    unschedulable: set[str] = field(default_factory=set)
    leaves: set[str] = field(default_factory=set)
    """Nodes that leave the cluster once a pod of ours runs there."""
    forbid_jobs: bool = False
    on_pods_listed: Callable[[], None] | None = None
    namespace: bool = False
    objects: dict[str, dict[str, Any]] = field(default_factory=dict)
    polls: dict[str, int] = field(default_factory=dict)
    gone: set[str] = field(default_factory=set)
    logs: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def install(self) -> None:
        shape = Shape()
        self.node_names = [n["metadata"]["name"] for n in nodes(shape)]
        self.nodes = nodes(shape)
        self._route("GET", NODES, self._nodes)
        self._route("GET", NS_PATH, self._get_namespace)
        self._route("POST", "/api/v1/namespaces", self._create_namespace)
        self._route("DELETE", NS_PATH, self._delete_namespace)
        for path in (JOBS, MPIJOBS):
            self._route("POST", path, lambda h, p=path: self._create(h, p))
            self._route("GET", path, lambda h, p=path: self._list(h, p))
            self._route("DELETE", path, lambda h, p=path: self._delete(h, p))
        self._route("GET", PODS, self._pods)

    def add_foreign(self) -> None:
        """A Job of someone else's in the namespace (it must never be touched)."""
        foreign = {"metadata": {"name": FOREIGN, "labels": {"team": "vision"}}, "kind": "Job"}
        with self.lock:
            self.objects[f"{JOBS}/{FOREIGN}"] = foreign

    def _route(
        self, method: str, path: str, send: Callable[[BaseHTTPRequestHandler], None]
    ) -> None:
        self.api.routes.append(Route(path, {}, method=method, send=send))

    def ours(self) -> list[str]:
        """The names of the objects of trainstack's still in the cluster."""
        return sorted(
            name.rsplit("/", 1)[1]
            for name, item in self.objects.items()
            if item["metadata"].get("labels", {}).get("app.kubernetes.io/managed-by")
            == "trainstack"
        )

    def _nodes(self, handler: BaseHTTPRequestHandler) -> None:
        """Every node still in the cluster, in one page."""
        items = [node for node in self.nodes if node["metadata"]["name"] not in self.gone]
        reply_json(
            handler, 200, {"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": items}
        )

    def _get_namespace(self, handler: BaseHTTPRequestHandler) -> None:
        if self.namespace:
            reply_json(handler, 200, {"kind": "Namespace", "metadata": {"name": NAMESPACE}})
        else:
            reply_json(handler, 404, _status(404, "NotFound", "namespaces not found"))

    def _create_namespace(self, handler: BaseHTTPRequestHandler) -> None:
        self.namespace = True
        reply_json(handler, 201, json.loads(handler.body))  # type: ignore[attr-defined]

    def _delete_namespace(self, handler: BaseHTTPRequestHandler) -> None:
        self.namespace = False
        reply_json(handler, 200, _status(200, "", ""))

    def _create(self, handler: BaseHTTPRequestHandler, path: str) -> None:
        document = json.loads(handler.body)  # type: ignore[attr-defined]
        if self.forbid_jobs:
            message = (
                'jobs.batch is forbidden: User "dev" cannot create resource "jobs" in API '
                f'group "batch" in the namespace "{NAMESPACE}"'
            )
            reply_json(handler, 403, _status(403, "Forbidden", message))
            return
        with self.lock:
            self.objects[f"{path}/{document['metadata']['name']}"] = document
        reply_json(handler, 201, document)

    def _list(self, handler: BaseHTTPRequestHandler, path: str) -> None:
        selector = dict(parse_qsl(urlsplit(handler.path).query)).get("labelSelector", "")
        items = []
        with self.lock:
            for key, item in sorted(self.objects.items()):
                if key.rsplit("/", 1)[0] != path:
                    continue
                if not _matches(item["metadata"].get("labels", {}), selector):
                    continue
                polls = self.polls[key] = self.polls.get(key, 0) + 1
                node = self._node_of(item)
                done = polls > self.polls_to_finish and node not in self.unschedulable
                if done and node not in self.gone:
                    kind = "Succeeded" if item["kind"] == "MPIJob" else "Complete"
                    item = {**item, "status": {"conditions": [{"type": kind, "status": "True"}]}}
                items.append(item)
        reply_json(
            handler, 200, {"kind": "List", "apiVersion": "v1", "metadata": {}, "items": items}
        )

    def _delete(self, handler: BaseHTTPRequestHandler, path: str) -> None:
        selector = dict(parse_qsl(urlsplit(handler.path).query)).get("labelSelector", "")
        with self.lock:
            for key in [k for k in self.objects if k.rsplit("/", 1)[0] == path]:
                if _matches(self.objects[key]["metadata"].get("labels", {}), selector):
                    del self.objects[key]
        reply_json(handler, 200, _status(200, "", ""))

    def _node_of(self, item: dict[str, Any]) -> str | None:
        annotation = item["metadata"].get("annotations", {}).get("trainstack.io/node", "")
        return annotation if annotation in self.node_names else None

    def _pods(self, handler: BaseHTTPRequestHandler) -> None:
        if self.on_pods_listed is not None:
            self.on_pods_listed()
        selector = dict(parse_qsl(urlsplit(handler.path).query)).get("labelSelector", "")
        pods = []
        with self.lock:
            for key, item in sorted(self.objects.items()):
                labels = item["metadata"].get("labels", {})
                if not _matches(labels, selector) or key.rsplit("/", 1)[0] not in (JOBS, MPIJOBS):
                    continue
                pods += self._pods_of(item)
        reply_json(
            handler, 200, {"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": pods}
        )

    def _pods_of(self, item: dict[str, Any]) -> list[dict[str, Any]]:
        if "spec" not in item:
            return []  # someone else's Job, written without one
        name = item["metadata"]["name"]
        labels = dict(item["metadata"]["labels"])
        if item["kind"] == "MPIJob":
            gpu = [n for n in self.node_names if "192.168.0.2" in n]
            own = {**labels, "training.kubeflow.org/job-name": name}
            log = sample("all_reduce_perf-2x8-h100.txt")
            launcher = {**own, "training.kubeflow.org/job-role": "launcher"}
            found = [self._pod(f"{name}-launcher", launcher, self.node_names[-1], "launcher", log)]
            worker = {**own, "training.kubeflow.org/job-role": "worker"}
            replicas = item["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"]
            found += [
                self._pod(f"{name}-worker-{i}", worker, gpu[i % len(gpu)], "worker", "")
                for i in range(replicas)
            ]
            return found
        node = self._node_of(item)
        container = item["spec"]["template"]["spec"]["containers"][0]["name"]
        log = node_check_log() if container == "check" else sample("all_reduce_perf-2x8-h100.txt")
        if node in self.leaves:
            self.gone.add(node)
        return [self._pod(f"{name}-abcde", {**labels, "job-name": name}, node, container, log)]

    def _pod(
        self, name: str, labels: dict[str, str], node: str | None, container: str, log: str
    ) -> dict[str, Any]:
        scheduled = node is not None and node not in self.unschedulable
        if scheduled and name not in self.logs:
            self.logs[name] = log
            route = Route(f"{PODS}/{name}/log", {"container": container}, 200, log.encode())
            route.content_type = "text/plain"
            self.api.routes.append(route)
        conditions = (
            [{"type": "PodScheduled", "status": "True"}]
            if scheduled
            else [
                {
                    "type": "PodScheduled",
                    "status": "False",
                    "reason": "Unschedulable",
                    "message": "0/6 nodes are available: 1 Insufficient nvidia.com/gpu, "
                    "5 node(s) didn't match Pod's node affinity/selector.",
                }
            ]
        )
        return {
            "metadata": {"name": name, "namespace": NAMESPACE, "labels": labels},
            "spec": {"nodeName": node if scheduled else None, "containers": [{"name": container}]},
            "status": {"phase": "Running" if scheduled else "Pending", "conditions": conditions},
        }
