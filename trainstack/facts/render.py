"""A stack's facts for people: text (a terminal), markdown (a pull request), and what to heed.

Every string the cluster sent is shown through
:func:`~trainstack.console.safe_text.printable` (control characters escaped), in
markdown also HTML-escaped: a label cannot recolour a terminal or inject a link.
"""

from __future__ import annotations

from trainstack.config.stack import StackConfig
from trainstack.console.markdown import code_span
from trainstack.console.safe_text import printable
from trainstack.console.tables import markdown_table
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.facts.model import NodeFacts, NodeGroup, OperatorFacts, StackFacts

_NOT_PUBLISHED = "unknown"


def _p(value: object) -> str:
    return _NOT_PUBLISHED if value is None else printable(str(value))


def gpu_text(facts: NodeFacts) -> str:
    """``4 x Tesla-V100-SXM2-32GB (32768 MiB), driver 535.161.08, CUDA 12.2`` or ``no GPU``."""
    gpu = facts.gpu
    if gpu is None:
        gpus = facts.allocatable.gpus
        return f"{_p(gpus)} GPUs, no GPU labels" if gpus and gpus != "0" else "no GPU labels"
    memory = f" ({gpu.memory_mib} MiB)" if gpu.memory_mib is not None else ""
    return (
        f"{_p(gpu.count)} x {_p(gpu.product)}{memory}, driver {_p(gpu.driver_version)}, "
        f"CUDA {_p(gpu.cuda_version)}"
    )


def _quantity(text: str | None, binary: bool, absent: str = _NOT_PUBLISHED) -> str:
    """``47.6``, ``360.522Gi`` (a facts file's quantities are valid ones)."""
    return absent if text is None else format_quantity(parse_quantity(text), binary)


def resources_text(facts: NodeFacts) -> str:
    """``CPU 47.6 of 48, memory 360.522Gi of 369.818Gi, ...``: allocatable of capacity."""
    allocatable, capacity = facts.allocatable, facts.capacity
    return ", ".join(
        f"{what} {_quantity(getattr(allocatable, key), binary, absent)} of "
        f"{_quantity(getattr(capacity, key), binary, absent)}"
        for what, key, binary, absent in (
            ("CPU", "cpu", False, _NOT_PUBLISHED),
            ("memory", "memory", True, _NOT_PUBLISHED),
            ("GPUs", "gpus", False, "0"),  # no nvidia.com/gpu resource: none for pods
            ("ephemeral storage", "ephemeral_storage", True, _NOT_PUBLISHED),
        )
    )


def node_text(facts: NodeFacts) -> str:
    """One line of what a node is."""
    return (
        f"{_p(facts.instance_type)}: {gpu_text(facts)}; kubelet {_p(facts.kubelet_version)}, "
        f"{_p(facts.container_runtime_version)}, kernel {_p(facts.kernel_version)}, "
        f"{_p(facts.os_image)}; allocatable of capacity: {resources_text(facts)}"
    )


def _groups(groups: list[NodeGroup]) -> list[str]:
    return [f"  {group.count} x {node_text(group.facts)}" for group in groups]


def operator_text(operator: OperatorFacts) -> str:
    """``mpiOperator 0.8.2 (mpi-operator/mpi-operator, image ...)``."""
    if operator.found is None:
        return f"{operator.key}: not looked for (the catalog knows no Deployment of it)"
    if not operator.found:
        return f"{operator.key}: no Deployment {_p(operator.deployment)}"
    version = _p(operator.version) if operator.version else "version unknown"
    where = f"Deployment {_p(operator.deployment)}, image {_p(operator.image)}"
    return f"{operator.key} {version} ({where})"


def facts_text(facts: StackFacts, where: str) -> str:
    """The summary ``inspect`` prints."""
    kubernetes = facts.kubernetes
    lines = [
        f"stack {facts.stack}: Kubernetes {_p(kubernetes.git_version)} "
        f"({_p(kubernetes.platform)}), {where}"
    ]
    for pool in facts.pools:
        selector = ",".join(f"{k}={v}" for k, v in sorted(pool.labels.items())) or "no labels"
        lines.append(f"pool {pool.name} ({printable(selector)}): {pool.node_count} node(s)")
        lines += _groups(pool.groups)
    others = sum(group.count for group in facts.other_nodes)
    lines.append(f"nodes of no pool: {others}")
    lines += _groups(facts.other_nodes)
    lines += [f"operator {operator_text(operator)}" for operator in facts.operators]
    for crd in facts.crds:
        served = ", ".join(printable(v) for v in crd.served) or "none"
        state = f"served {served} (storage {_p(crd.storage)})" if crd.found else "not installed"
        lines.append(f"CRD {crd.name}: {state}")
    if facts.kueue is not None:
        kueue = facts.kueue
        if kueue.found:
            integrations = ", ".join(printable(f) for f in kueue.frameworks) or "none"
            lines.append(
                f"Kueue {kueue.config_map}: {_p(kueue.api_version)}, integrations {integrations}"
            )
        else:
            lines.append(f"Kueue {kueue.config_map}: not found")
    lines.append(f"acceleration: {acceleration_text(facts)}")
    return "\n".join(lines) + "\n"


def acceleration_text(facts: StackFacts) -> str:
    """What the stack's acceleration component is, and whether it was found."""
    found = facts.acceleration
    if found.declared is None:
        return "no cluster component declared (AIACC-Training ships in the training image)"
    state = {True: "found", False: "not found", None: "not visible through the Kubernetes API"}
    version = f" {_p(found.version)}" if found.version else ""
    return f"{found.declared}: {state[found.found]}{version}"


def facts_markdown(facts: StackFacts) -> str:
    """The summary as a markdown section (a pull-request comment)."""

    def cell(text: str) -> str:
        return code_span(text, printed=True)  # what the cluster sent, already printable

    rows = [
        [cell(pool.name), str(group.count), cell(node_text(group.facts))]
        for pool in facts.pools
        for group in pool.groups
    ]
    rows += [
        ["(no pool)", str(group.count), cell(node_text(group.facts))] for group in facts.other_nodes
    ]
    head = (
        f"### Facts of `{facts.stack}`\n\nKubernetes {cell(_p(facts.kubernetes.git_version))}; "
        + ", ".join(f"pool {cell(p.name)}: {p.node_count} node(s)" for p in facts.pools)
        + "\n\n"
    )
    software = [f"- operator {cell(operator_text(o))}\n" for o in facts.operators]
    software += [
        f"- CRD {cell(c.name)}: {cell(', '.join(c.served)) if c.found else 'not installed'}\n"
        for c in facts.crds
    ]
    software.append(f"- acceleration: {cell(acceleration_text(facts))}\n")
    table = markdown_table(["pool", "nodes", "what they are"], rows, {1}) if rows else ""
    return head + table + "\n" + "".join(software)


def observation_notes(facts: StackFacts, config: StackConfig) -> list[str]:
    """What to heed in the facts: pools without nodes, GPU nodes without GPU labels."""
    notes = []
    for pool, observed in zip(config.node_pools, facts.pools, strict=True):
        if not pool.labels:
            notes.append(
                f"pool {pool.name}: declares no labels, so no node can be matched to it; "
                "give it `labels` its nodes carry (on ACK also alibabacloud.com/nodepool-id)"
            )
        elif observed.node_count == 0:
            notes.append(
                f"pool {pool.name}: no node carries its labels "
                f"{', '.join(f'{k}={v}' for k, v in sorted(pool.labels.items()))} "
                f"(it declares {pool.max_nodes}): not created yet, or labelled otherwise"
            )
        if pool.is_gpu:
            bare = sum(group.count for group in observed.groups if group.facts.gpu is None)
            if bare:
                notes.append(
                    f"pool {pool.name}: {bare} of {observed.node_count} node(s) carry no GPU "
                    "labels (neither GPU feature discovery's nvidia.com/gpu.* nor ACK's "
                    "aliyun.accelerator/nvidia_*): their GPU model, driver and CUDA are unknown"
                )
    return notes
