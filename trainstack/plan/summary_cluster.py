"""Summary lines about the cluster a plan targets: what its nodes really offer, the
acceleration layer, and what deploying it fetches from outside the cluster's region."""

from __future__ import annotations

import json
from collections.abc import Sequence

from trainstack.config.acceleration import HelmComponent, override_keys
from trainstack.config.stack import StackConfig
from trainstack.core.mentions import Files
from trainstack.core.names import is_placeholder
from trainstack.core.quantity import format_quantity
from trainstack.core.yaml.positions import locate_mentions
from trainstack.experiments.image_facts import shown
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.frameworks import framework


def pool_lines(config: StackConfig, source: str, files: Files) -> list[str]:
    """Each pool: its nodes and GPUs, then per node its capacity and its allocatable (what
    pods can request, which every check uses), with where the allocatable comes from (the
    key to set, with its line where it is written in ``files``)."""
    lines = []
    for pool in config.node_pools:
        line = f"pool {pool.name}: {pool.describe()}"
        if pool.nvidia_driver is not None:
            line += f", NVIDIA driver {pool.nvidia_driver}"
        allocatable = config.allocatable(pool)
        capacity = _per_node(
            None if pool.cpu_capacity is None else format_quantity(pool.cpu_capacity, False),
            None if pool.memory_capacity is None else format_quantity(pool.memory_capacity),
        )
        cpu, memory = allocatable.cpu, allocatable.memory
        allowed = _per_node(
            None if cpu is None else cpu.show(False), None if memory is None else memory.show(True)
        )
        if capacity:
            line += f"; per node: capacity {', '.join(capacity)}"
        if allowed:
            line += f"; allocatable {', '.join(allowed)} ({allocatable.source})"
        elif capacity:
            line += "; allocatable unknown (nothing checked against it)"
        lines.append(line)
        lines += [
            f"  assumed, not verified: {fact}; set "
            f"{locate_mentions(config.mention(key, source), files)}"
            for fact, key in allocatable.assumed
        ]
    return lines


def _per_node(cpu: str | None, memory: str | None) -> list[str]:
    """``["48 CPU", "368Gi"]``: the amounts that are known."""
    return [text for text in (None if cpu is None else f"{cpu} CPU", memory) if text]


def image_lines(experiments: Sequence[Experiment]) -> list[str]:
    """Each experiment file's image and what it holds (CUDA; sshd where its framework's
    workers run it), with the source of those facts, once per file and image (matrix
    points and runs share them)."""
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()
    for experiment in experiments:
        image = experiment.job.image.name
        if (experiment.source, image) in seen:
            continue
        seen.add((experiment.source, image))
        facts = experiment.image_facts
        head = f"image of {experiment.file_experiment} ({experiment.source}): {image}"
        if facts is None:
            lines.append(f"{head}: no imageFacts (CUDA, sshd unverified)")
            continue
        held = [f"CUDA {shown(facts.cuda)}"]
        if framework(experiment.job.framework).image_sshd:
            held.append(f"sshd {shown(facts.sshd)}")
        lines.append(f"{head}: {', '.join(held)} (source: {facts.source})")
    return lines


def acceleration_lines(config: StackConfig) -> list[str]:
    """The acceleration layer: on or off, its cluster component, and each job-side value
    with the source that documents it (or unverified)."""
    acceleration = config.acceleration
    lines = [f"acceleration: {'on' if acceleration.enabled else 'off'}"]
    if not acceleration.enabled:
        return lines
    component = acceleration.component
    if component is None:
        lines.append("  cluster component: none")
    elif isinstance(component, HelmComponent):
        chart = component.chart
        lines.append(f"  cluster component: chart {chart.repo}/{chart.name} {chart.version}")
    else:
        named = (component.name, component.version)
        pending = " (set before deploying)" if any(map(is_placeholder, named)) else ""
        lines.append(f"  cluster component: {component.kind} {' '.join(named)}{pending}")
    for key, value in override_keys(acceleration.experiment_overrides).items():
        source = acceleration.sources.get(key)
        where = (
            f"documented by {source}"
            if source
            else "unverified: no source in trainstack:acceleration.sources"
        )
        lines.append(f"  job setting {key} = {json.dumps(value)}: {where}")
    return lines
