"""Two environments side by side: which facts differ, and which of them change training speed.

A stack's facts (``facts/STACK.json``) and a run's environment (in its results file) are
both seen as a *view*: for each place (the cluster, a pool, an operator...) and fact, the
distinct values found there. Two views differ where a place's fact has other values; a
difference is *speed-relevant* when it is of a kind that changes training speed (the GPU
model and memory, GPUs per node, the driver's or CUDA's major version, the instance type,
the number of nodes, an operator's version), and *acceleration* when it is the
acceleration component itself (the one difference two compared stacks are meant to have).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trainstack.facts.model import (
    AccelerationFacts,
    NodeFacts,
    OperatorFacts,
    RunEnvironment,
    StackFacts,
)

View = dict[tuple[str, str], tuple[str, ...]]
"""(place, fact) -> the distinct values found there, sorted."""

CLUSTER = "cluster"
ACCELERATION = "acceleration"
OTHER_NODES = "nodes of no pool"
UNKNOWN = "unknown"

SPEED_FACTS = frozenset(
    {"nodes", "instance type", "GPU model", "GPU memory MiB", "GPUs per node", "version"}
)
"""Facts whose every difference changes training speed (``version``: an operator's)."""
MAJOR_FACTS = frozenset({"driver", "CUDA"})
"""Facts whose difference changes training speed when the major version differs."""


@dataclass(frozen=True)
class Difference:
    """One fact with other values on the two sides."""

    place: str
    fact: str
    a: str
    b: str
    speed: bool
    """Of a kind that changes training speed."""
    acceleration: bool
    """The acceleration component itself."""

    def __str__(self) -> str:
        """``kubelet v1.30.1 vs v1.30.7 on gpu-v100``, ``operator kueue version 0.16.1 vs ...``."""
        if self.place.startswith(_SOFTWARE):
            return f"{self.place} {self.fact} {self.a} vs {self.b}"
        return f"{self.fact} {self.a} vs {self.b} on {self.place}"


_SOFTWARE = (CLUSTER, ACCELERATION, "operator ", "CRD ", "Kueue")
"""Places that are not nodes: named before the fact."""


def _text(value: object) -> str:
    return UNKNOWN if value is None else str(value)


def _node_facts(facts: NodeFacts) -> dict[str, str]:
    gpu = facts.gpu
    gpus = facts.allocatable.gpus or (str(gpu.count) if gpu and gpu.count is not None else None)
    return {
        "instance type": _text(facts.instance_type),
        "kubelet": _text(facts.kubelet_version),
        "OS image": _text(facts.os_image),
        "kernel": _text(facts.kernel_version),
        "container runtime": _text(facts.container_runtime_version),
        "architecture": _text(facts.architecture),
        "allocatable CPU": _text(facts.allocatable.cpu),
        "allocatable memory": _text(facts.allocatable.memory),
        "GPUs per node": _text(gpus or "0"),
        "GPU model": _text(gpu.product if gpu else "none"),
        "GPU memory MiB": _text(gpu.memory_mib if gpu else "none"),
        "driver": _text(gpu.driver_version if gpu else "none"),
        "CUDA": _text(gpu.cuda_version if gpu else "none"),
    }


Collecting = dict[tuple[str, str], set[str]]


def _add_nodes(view: Collecting, place: str, groups: Iterable[NodeFacts]) -> None:
    for facts in groups:
        for fact, value in _node_facts(facts).items():
            view.setdefault((place, fact), set()).add(value)


def _add_software(
    view: Collecting,
    operators: Sequence[OperatorFacts],
    acceleration: AccelerationFacts,
) -> None:
    for operator in operators:
        if operator.found is None:
            value = "not checked"
        elif not operator.found:
            value = "not installed"
        elif operator.version is None:
            value = f"unknown (image {operator.image})"
        else:
            value = operator.version
        view[(f"operator {operator.key}", "version")] = {value}
    found = {True: "found", False: "not found", None: "not checked"}[acceleration.found]
    component = acceleration.declared or "none"
    if acceleration.version:
        component += f" {acceleration.version}"
    view[(ACCELERATION, "component")] = {f"{component} ({found})"}


def _sorted(view: Collecting) -> View:
    return {key: tuple(sorted(values)) for key, values in sorted(view.items())}


def stack_view(facts: StackFacts) -> View:
    """The facts of a stack's cluster as a view."""
    view: Collecting = {(CLUSTER, "Kubernetes"): {_text(facts.kubernetes.git_version)}}
    for pool in facts.pools:
        view[(pool.name, "nodes")] = {str(pool.node_count)}
        _add_nodes(view, pool.name, (group.facts for group in pool.groups))
    # Only how many: no job runs on them (jobs select their pools' labels).
    view[(OTHER_NODES, "nodes")] = {str(sum(group.count for group in facts.other_nodes))}
    for crd in facts.crds:
        served = ", ".join(crd.served) if crd.found else "not installed"
        view[(f"CRD {crd.name}", "served versions")] = {served or "none"}
    if facts.kueue is not None:
        kueue = facts.kueue
        config = (kueue.sha256 or "")[:12] if kueue.found else "not found"
        view[("Kueue", "configuration")] = {config}
        view[("Kueue", "integrations")] = {", ".join(kueue.frameworks) or "none"}
    _add_software(view, facts.operators, facts.acceleration)
    return _sorted(view)


def run_view(environment: RunEnvironment) -> View:
    """Where a run ran, as a view: per pool, the nodes its pods used."""
    view: Collecting = {(CLUSTER, "Kubernetes"): {_text(environment.kubernetes.git_version)}}
    counts: dict[str, int] = {}
    for group in environment.nodes:
        place = group.pool or OTHER_NODES
        counts[place] = counts.get(place, 0) + len(group.nodes)
        _add_nodes(view, place, [group.facts])
    for place, count in counts.items():
        view[(place, "nodes")] = {str(count)}
    if environment.gone:
        view[(CLUSTER, "nodes gone")] = {str(len(environment.gone))}
    _add_software(view, environment.operators, environment.acceleration)
    return _sorted(view)


def digest(view: View) -> str:
    """``sha256:...`` of a view (no node names are in one)."""
    text = json.dumps([[*key, list(values)] for key, values in sorted(view.items())])
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _majors(values: tuple[str, ...]) -> set[str]:
    return {value.split(".")[0] for value in values}


def differences(a: View, b: View) -> list[Difference]:
    """Every fact with other values in ``a`` than in ``b``, in place and fact order."""
    found = []
    for key in sorted(set(a) | set(b)):
        old, new = a.get(key, ("absent",)), b.get(key, ("absent",))
        if old == new:
            continue
        place, fact = key
        speed = fact in SPEED_FACTS or (fact in MAJOR_FACTS and _majors(old) != _majors(new))
        speed = speed and place != OTHER_NODES  # no job runs there
        found.append(
            Difference(place, fact, " + ".join(old), " + ".join(new), speed, place == ACCELERATION)
        )
    return found
