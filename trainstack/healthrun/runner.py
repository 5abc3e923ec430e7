"""A health run on a cluster: create the checks phase by phase, watch them, read their
logs, and delete everything of the run (by its label) on every way out.

Phases (one after the other: each check needs every GPU of its nodes): the node checks
(DCGM image), the interconnect within each node, then each multi-node shape. A phase is
watched by listing its Jobs, its pods and the cluster's nodes (paged) every
:data:`POLL_SECONDS` until every check ended or ``--timeout`` passed: a check still
pending then is "never scheduled" with the scheduler's message, one whose node left the
cluster says so. Logs are read once a check ended (a failed one too: what it printed is
kept). The ``finally`` deletes the run's Jobs and MPIJobs by ``trainstack.io/health-run``
(their pods go with them) and the namespace if this run created it and nothing else
has been put there since (then it is kept, and said); Ctrl-C and SIGTERM
unwind through it, and the stop's guard runs the same cleanup if unwinding stalls.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from trainstack.console.safe_text import printable
from trainstack.console.signals import on_stop
from trainstack.core.errors import TrainstackError
from trainstack.health.jobs import CHECK_LABEL, NODE_ANNOTATION, RUN_LABEL
from trainstack.healthrun.checks import MPI_V2, Checks
from trainstack.healthrun.pods import (
    ended_state,
    node_name,
    owner_of,
    reporting_pod,
    unschedulable_reason,
)
from trainstack.live.api import ApiReader
from trainstack.live.inspect import NODES
from trainstack.live.writes import ClusterWriter, collection_path

POLL_SECONDS = 5.0
"""How often a phase's Jobs and pods are listed (three small requests)."""
MAX_LOG_BYTES = 4 << 20
"""The most of one check's log kept (its end): the tools print a few hundred lines."""
JOBS = ("batch/v1", "jobs")
MPIJOBS = (MPI_V2, "mpijobs")
Progress = Callable[[str], None]


@dataclass
class Outcome:
    """What one check left: its log and what went wrong."""

    log: str | None = None
    failures: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)


class Runner:
    """One run's checks against one cluster (module documentation)."""

    def __init__(
        self,
        reader: ApiReader,
        checks: Checks,
        timeout: float,
        progress: Progress,
        poll: float | None = None,
    ) -> None:
        self.reader = reader
        self.writer = ClusterWriter(reader)
        self.checks = checks
        self.timeout = timeout
        self.progress = progress
        self.poll = POLL_SECONDS if poll is None else poll
        self.namespace = str(checks.namespace["metadata"]["name"])
        self.selector = f"{RUN_LABEL}={checks.run}"
        self.created_namespace = False
        self._cleaning = threading.Lock()
        """Held by whoever cleans up: the main thread's ``finally`` or a stop's guard (the
        other waits, then finds it done)."""
        self._cleaned = False

    def run(self) -> dict[str, Outcome]:
        """Every check's outcome by its object's name; nothing of the run left behind."""
        with on_stop(self.cleanup):
            try:
                return self._run()
            finally:
                self.cleanup()

    def _run(self) -> dict[str, Outcome]:
        outcomes: dict[str, Outcome] = {}
        ends = time.monotonic() + self.timeout
        self._namespace()
        phases: list[tuple[str, Sequence[dict[str, Any]], tuple[str, str]]] = [
            ("node checks", [job for _, job in self.checks.node_jobs], JOBS),
            ("interconnect within nodes", [job for _, job in self.checks.nccl_jobs], JOBS),
        ]
        phases += [
            (f"interconnect {span.name}", [job], MPIJOBS) for span, job in self.checks.span_jobs
        ]
        for label, jobs, kind in phases:
            if jobs:
                outcomes.update(self._phase(label, jobs, kind, ends))
        return outcomes

    def _namespace(self) -> None:
        path = f"/api/v1/namespaces/{self.namespace}"
        if self.reader.check(path, f"reading namespace {self.namespace}") is not None:
            return
        self.writer.create(
            "/api/v1/namespaces",
            self.checks.namespace,
            f"creating namespace {self.namespace}",
            "create namespaces",
        )
        self.created_namespace = True

    def _phase(
        self, label: str, jobs: Sequence[dict[str, Any]], kind: tuple[str, str], ends: float
    ) -> dict[str, Outcome]:
        path = collection_path(kind[0], kind[1], self.namespace)
        for job in jobs:
            name = job["metadata"]["name"]
            verb = f"create {kind[1]} in namespace {self.namespace}"
            self.writer.create(path, job, f"creating {job['kind']} {name}", verb)
        check = jobs[0]["metadata"]["labels"][CHECK_LABEL]
        selector = f"{self.selector},{CHECK_LABEL}={check}"
        names = {job["metadata"]["name"]: job for job in jobs}
        ended: dict[str, str] = {}
        pods: list[dict[str, Any]] = []
        shown = ""
        while True:
            listed = self.writer.list(path, selector, f"listing the {label}")
            pods = self.writer.list(
                collection_path("v1", "pods", self.namespace),
                selector,
                f"listing pods of the {label}",
            )
            for item in listed:
                name = item.get("metadata", {}).get("name")
                if name in names and name not in ended:
                    state = ended_state(item)
                    if state:
                        ended[name] = state
            gone = self._gone_nodes(pods, ended)
            for name, node in gone.items():
                ended.setdefault(name, f"node {node} left the cluster while its check ran")
            status = f"{label}: {len(ended)}/{len(names)} ended"
            if status != shown:
                self.progress(status)
                shown = status
            if len(ended) == len(names) or time.monotonic() >= ends:
                break
            time.sleep(min(self.poll, max(0.0, ends - time.monotonic())))
        return {name: self._outcome(job, ended.get(name), pods) for name, job in names.items()}

    def _gone_nodes(self, pods: list[dict[str, Any]], ended: dict[str, str]) -> dict[str, str]:
        """Checks whose pod's node no longer exists: check name -> node (one list of the
        nodes, paged, whatever the number of checks)."""
        running = {
            owner: str(node)
            for pod in pods
            if (node := (pod.get("spec") or {}).get("nodeName"))
            and (owner := owner_of(pod)) is not None
            and owner not in ended
        }
        if not running:
            return {}
        present = set(self.reader.list(NODES, "listing nodes", node_name))
        return {owner: node for owner, node in running.items() if node not in present}

    def _outcome(
        self, job: dict[str, Any], state: str | None, pods: list[dict[str, Any]]
    ) -> Outcome:
        name = job["metadata"]["name"]
        where = job["metadata"]["annotations"][NODE_ANNOTATION]
        mine = [pod for pod in pods if owner_of(pod) == name]
        nodes = {str(pod["spec"]["nodeName"]) for pod in mine if pod["spec"].get("nodeName")}
        outcome = Outcome(nodes=sorted(nodes))
        if state is None:
            reason = next((found for pod in mine if (found := unschedulable_reason(pod))), None)
            limit = f"within --timeout {self.timeout:g} s"
            if reason is not None or not mine:
                shown = reason or "no pod was created"
                outcome.failures.append(f"never scheduled on {where} {limit}: {shown}")
            else:
                outcome.failures.append(f"did not finish {limit}")
            return outcome
        if state not in ("Complete", "Succeeded"):
            outcome.failures.append(f"{job['kind']} {name}: {state}")
        reporting = reporting_pod(mine)
        if reporting is not None:
            outcome.log = self._log(reporting)
        elif state in ("Complete", "Succeeded", "Failed"):
            outcome.failures.append(f"{job['kind']} {name}: its pod is gone, with its log")
        return outcome

    def _log(self, pod: dict[str, Any]) -> str | None:
        name = pod["metadata"]["name"]
        container = pod["spec"]["containers"][0]["name"]
        path = f"/api/v1/namespaces/{self.namespace}/pods/{name}/log"
        what = f"reading the log of pod {name}"
        missing = TrainstackError(f"{what}: the pod is gone")
        kept: list[str] = []
        size = 0
        try:
            for line in self.reader.lines(path, {"container": container}, what, missing, False):
                kept.append(line)
                size += len(line)
                while size > MAX_LOG_BYTES and kept:
                    size -= len(kept.pop(0))
        except TrainstackError:
            return None
        return "".join(kept)

    def cleanup(self) -> None:
        """Delete every object of this run (by its label); the namespace if it made it.
        Once, whoever calls it first (the other caller waits for the end)."""
        with self._cleaning:
            if not self._cleaned:
                self._clean()
                self._cleaned = True

    def _clean(self) -> None:
        for version, plural in (JOBS, MPIJOBS) if self.checks.span_jobs else (JOBS,):
            path = collection_path(version, plural, self.namespace)
            what = f"deleting the {plural} of health run {self.checks.run}"
            self.writer.delete_all(path, self.selector, what, f"delete {plural}")
        if self.created_namespace:
            others = self._others()
            if others:
                self.progress(
                    f"note: namespace {self.namespace} kept: it holds objects that are not this "
                    f"run's ({', '.join(others[:3])}); delete it yourself when they are done"
                )
                return
            self.writer.delete(
                f"/api/v1/namespaces/{self.namespace}",
                f"deleting namespace {self.namespace}",
                "delete namespaces",
            )

    def _others(self) -> list[str]:
        """Jobs and pods of the namespace this run did not create (someone used it since)."""
        found = []
        kinds = [JOBS, ("v1", "pods")] + ([MPIJOBS] if self.checks.span_jobs else [])
        for version, plural in kinds:
            path = collection_path(version, plural, self.namespace)
            listed = self.writer.list(path, "", f"listing the {plural} of {self.namespace}")
            found += [
                f"{plural} {printable(str(item.get('metadata', {}).get('name')), 80)}"
                for item in listed
                if (item.get("metadata", {}).get("labels") or {}).get(RUN_LABEL) != self.checks.run
            ]
        return sorted(found)
