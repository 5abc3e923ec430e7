"""The stack as declared against its cluster as observed (``facts/STACK.json``): warnings.

When ``trainstack inspect STACK`` has written the stack's facts, the plan compares each
pool (node count, instance type, allocatable CPU and memory per node, GPUs per node, GPU
model) and each operator's version (Kueue's chart too) with what the cluster showed, and
checks that the jobs' API versions are served and the acceleration component is there.
Each difference is a warning (``observedDiffers``) with both values: the declared one at
its key in the stack file, the observed one in the facts file. The checks themselves keep
using the declared values; without facts, the plan says so (:func:`facts_note`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainstack.checks.findings import Finding, warning
from trainstack.config.node_pool import NodePool
from trainstack.config.stack import StackConfig
from trainstack.console.safe_text import printable
from trainstack.core.quantity import format_quantity, parse_quantity
from trainstack.experiments.resolve import Experiment
from trainstack.facts.model import NodeGroup, OperatorFacts, PoolFacts, StackFacts
from trainstack.training_job.frameworks import framework

CHECK = "observedDiffers"


@dataclass(frozen=True)
class DeclaredAllocatable:
    """What a node of a pool offers pods, as the stack declares it, and from which keys."""

    cpu: Decimal | None
    memory: Decimal | None
    cpu_key: str
    memory_key: str
    cpu_why: str = "declared"
    """``declared``, or how the cluster kind derived it (``capacity 48 - 190m reserved by
    ...``)."""
    memory_why: str = "declared"


def declared_allocatable(config: StackConfig, pool: NodePool) -> DeclaredAllocatable:
    """The allocatable CPU and memory of a pool's node as the stack states it, declared or
    derived by the cluster kind (``StackConfig.allocatable``, what the capacity checks use),
    with the key each comes from."""
    allocatable = config.allocatable(pool)
    cpu, memory = allocatable.cpu, allocatable.memory
    key = f"trainstack:{config.pool_key(pool)}"
    return DeclaredAllocatable(
        cpu.allocatable if cpu else None,
        memory.allocatable if memory else None,
        f"trainstack:{cpu.key}" if cpu else f"{key}.allocatable.cpu",
        f"trainstack:{memory.key}" if memory else f"{key}.allocatable.memory",
        allocatable.why(cpu, binary=False) if cpu else "declared",
        allocatable.why(memory, binary=True) if memory else "declared",
    )


def facts_note(facts_file: str, found: bool, stack: str) -> str:
    """The plan's note on what its checks compared against."""
    if found:
        return (
            f"the pools and operators were compared with the cluster's facts in {facts_file} "
            f"(`trainstack inspect {stack}` refreshes them); the checks use the declared values"
        )
    return (
        f"no {facts_file}: the checks used the declared pools and operator versions only "
        f"(`trainstack inspect {stack}` reads the cluster's)"
    )


def gpu_model_matches(declared: str, product: str) -> bool:
    """Whether a GPU product name (``Tesla-V100-SXM2-32GB``) is of the declared model
    (``V100``): the declared letters and digits appear in it, case and punctuation aside."""

    def letters(text: str) -> str:
        return re.sub(r"[^0-9A-Z]", "", text.upper())

    return bool(letters(declared)) and letters(declared) in letters(product)


@dataclass(frozen=True)
class _Compare:
    """One stack's comparison, and how its warnings read."""

    config: StackConfig
    source: str
    facts_file: str

    def warn(
        self, subject: str, key: str, what: str, declared: str, observed: str, how: str = ""
    ) -> Finding:
        """A warning; what the cluster sent is shown with control characters escaped.
        ``how``: how the stack's value was derived, when it was not declared as such."""
        shown = printable(observed, None)
        stated = f"derived {declared} ({how})" if how else f"declared {declared}"
        message = f"{what}: {stated}, observed {shown} ({self.facts_file})"
        # A pool of a cluster template is written there: the warning names that file.
        file, written = self.config.written(key, self.source)
        return warning(file, subject, written, message, CHECK)


def observed_findings(
    experiments: Sequence[Experiment],
    config: StackConfig,
    source: str,
    facts: StackFacts,
    facts_file: str,
) -> list[Finding]:
    """A warning per declared value the facts contradict."""
    compare = _Compare(config, source, facts_file)
    pools = {pool.name: pool for pool in facts.pools}
    found: list[Finding] = []
    for pool in config.node_pools:
        observed = pools.get(pool.name)
        if observed is None:
            key = f"trainstack:{config.pool_key(pool)}"
            found.append(
                compare.warn(f"(pool {pool.name})", key, "pool", pool.name, "no such pool")
            )
            continue
        found += _pool(compare, pool, observed)
    found += _operators(compare, facts.operators)
    found += _crds(compare, experiments, facts)
    found += _acceleration(compare, facts)
    return found


def _pool(compare: _Compare, pool: NodePool, observed: PoolFacts) -> list[Finding]:
    subject, key = f"(pool {pool.name})", f"trainstack:{compare.config.pool_key(pool)}"
    found: list[Finding] = []
    count, scaling = observed.node_count, pool.scaling
    if scaling is not None and not scaling.min_size <= count <= scaling.max_size:
        bounds = f"{scaling.min_size}-{scaling.max_size} (autoscaling)"
        found.append(compare.warn(subject, f"{key}.autoscaling", "nodes", bounds, str(count)))
    elif scaling is None and count != pool.desired_size:
        declared = str(pool.desired_size)
        found.append(compare.warn(subject, f"{key}.desiredSize", "nodes", declared, str(count)))
    groups = observed.groups
    types = sorted({g.facts.instance_type or "unknown" for g in groups})
    if pool.instance_types and any(t not in pool.instance_types for t in types):
        declared, shown = ", ".join(pool.instance_types), ", ".join(types)
        found.append(
            compare.warn(subject, f"{key}.instanceTypes", "instance type", declared, shown)
        )
    found += _allocatable(compare, subject, declared_allocatable(compare.config, pool), groups)
    gpus = sorted({_gpus(group) for group in groups})
    if groups and gpus != [pool.gpus_per_node]:
        observed_gpus = ", ".join(str(g) for g in gpus)
        declared = str(pool.gpus_per_node)
        found.append(
            compare.warn(subject, f"{key}.gpusPerNode", "GPUs per node", declared, observed_gpus)
        )
    if pool.gpu_model is not None and groups:
        products = sorted({_product(group) for group in groups})
        if not all(gpu_model_matches(pool.gpu_model, product) for product in products):
            observed_models = ", ".join(products)
            found.append(
                compare.warn(
                    subject, f"{key}.gpuModel", "GPU model", pool.gpu_model, observed_models
                )
            )
    return found


def _gpus(group: NodeGroup) -> int:
    """GPUs a node offers pods: its allocatable ``nvidia.com/gpu`` (none: 0)."""
    allocatable = group.facts.allocatable.gpus
    return int(parse_quantity(allocatable)) if allocatable is not None else 0


def _product(group: NodeGroup) -> str:
    gpu = group.facts.gpu
    if gpu is None:
        return "unknown (no GPU labels)"
    return gpu.product or "unknown"


def _allocatable(
    compare: _Compare, subject: str, declared: DeclaredAllocatable, groups: Sequence[NodeGroup]
) -> list[Finding]:
    found = []
    for what, value, key, why, binary in (
        ("allocatable CPU per node", declared.cpu, declared.cpu_key, declared.cpu_why, False),
        (
            "allocatable memory per node",
            declared.memory,
            declared.memory_key,
            declared.memory_why,
            True,
        ),
    ):
        texts = [g.facts.allocatable.memory if binary else g.facts.allocatable.cpu for g in groups]
        observed = sorted({parse_quantity(text) for text in texts if text is not None})
        if value is not None and observed and observed != [value]:
            shown = ", ".join(format_quantity(v, binary) for v in observed)
            how = "" if why == "declared" else why
            stated = format_quantity(value, binary)
            found.append(compare.warn(subject, key, what, stated, shown, how))
    return found


def _declared_versions(config: StackConfig) -> dict[str, tuple[str, str]]:
    """Operator key -> (declared version, its key), Kueue's chart included."""
    found = {
        operator.key: (operator.release.version, f"trainstack:operators.{operator.key}.version")
        for operator in config.operators.enabled()
    }
    if config.queueing.enabled:
        found["kueue"] = (config.queueing.chart.version, "trainstack:queueing.chart.version")
    return found


def _operators(compare: _Compare, operators: Sequence[OperatorFacts]) -> list[Finding]:
    observed = {operator.key: operator for operator in operators}
    found = []
    for key, (version, where) in sorted(_declared_versions(compare.config).items()):
        seen = observed.get(key)
        if seen is None or seen.found is None:
            continue
        if not seen.found:
            shown = f"no Deployment {seen.deployment}"
        elif seen.version is None:
            shown = f"unknown (image {seen.image})"
        elif seen.version != version:
            shown = seen.version
        else:
            continue
        found.append(compare.warn("(operators)", where, f"{key} version", version, shown))
    return found


def _crds(compare: _Compare, experiments: Sequence[Experiment], facts: StackFacts) -> list[Finding]:
    crds = {crd.name: crd for crd in facts.crds}
    found = []
    for crd_name in sorted({framework(e.job.framework).crd for e in experiments}):
        serving = compare.config.operators.serving(crd_name)
        crd = crds.get(crd_name)
        if serving is None or crd is None:
            continue
        operator, api = serving
        version = api.api_version.rpartition("/")[2]
        if crd.found and version in crd.served:
            continue
        shown = f"served {', '.join(crd.served) or 'none'}" if crd.found else "not installed"
        found.append(
            compare.warn(
                "(operators)",
                f"trainstack:operators.{operator.key}",
                crd_name,
                f"{api.api_version} served",
                shown,
            )
        )
    return found


def _acceleration(compare: _Compare, facts: StackFacts) -> list[Finding]:
    observed = facts.acceleration
    if observed.declared is None or observed.found is not False:
        return []
    return [
        compare.warn(
            "(acceleration)",
            "trainstack:acceleration.component",
            "acceleration component",
            observed.declared,
            "not found",
        )
    ]
