"""The plan's lines about how each dataset is filled: per populated file system (on the data
stack) and per dataset mounting one (on a cluster stack), where its data comes from (the
source's kind and where), the layout the verify step checks, and the verify mode."""

from __future__ import annotations

from trainstack.config.data_sources import ResolvedDataset, populate_job_name
from trainstack.config.loader import LoadedDataStack
from trainstack.config.populate import Populate


def file_system_lines(stack: LoadedDataStack) -> list[str]:
    """Each file system of a data stack, and how it is filled when it has ``populate``."""
    lines = []
    for file_system in stack.config.data_store.file_systems:
        lines.append(
            f"file system {file_system.name}: {file_system.summary()}, "
            f"protected: {'yes' if file_system.protection.enabled else 'no'}"
        )
        spec = file_system.populate
        if spec is None:
            lines.append("  filled by hand (no populate)")
            continue
        lines.append(
            f"  populated once by a Job on stack {spec.stack} (deadline "
            f"{spec.deadline_hours} h); the stacks mounting it wait for it"
        )
        lines += populate_lines(spec)
    return lines


def dataset_lines(resolved: ResolvedDataset) -> list[str]:
    """How a cluster stack's dataset is filled: the Job of this stack, and the spec."""
    spec = resolved.populate
    if spec is None:
        return []
    job = populate_job_name(resolved.name, resolved.populates)
    if resolved.populates:
        who = f"  populated by this stack's Job {job} (deadline {spec.deadline_hours} h)"
    else:
        who = f"  populated by stack {spec.stack}'s Job; this stack's Job {job} waits for it"
    return [who, *populate_lines(spec)]


def populate_lines(spec: Populate, indent: str = "    ") -> list[str]:
    """The source, the layout and the verify mode of ``spec`` (:meth:`Populate.summary`),
    and its optional command."""
    lines = [f"{indent}{line}" for line in spec.summary()]
    if spec.command is not None:
        lines.append(
            f"{indent}then: its command ({len(spec.command)} argument(s)); what it writes is "
            "verified only where the layout names it"
        )
    return lines
