"""The plan's MPI transport lines: per MPI API the stack serves, how the ranks start, when
the launcher starts and how the job's env reaches the ranks; per MPI experiment its image,
how its ssh setup is known, and what is exported to every rank
(``trainstack.training_job.transports``, ``frameworks/mpi/openmpi.py``)."""

from __future__ import annotations

from collections import defaultdict

from trainstack.config.loader import LoadedStack
from trainstack.experiments.image_facts import ssh_setup
from trainstack.experiments.resolve import Experiment
from trainstack.plan.model import Plan
from trainstack.training_job.frameworks import framework
from trainstack.training_job.frameworks.mpi.openmpi import RANK_ENV_ANNOTATION, rank_env
from trainstack.training_job.transports import TRANSPORTS, TransportFacts


def transport_lines(plan: Plan, stack: LoadedStack) -> list[str]:
    """Per MPI API served on the stack: the operator, how the ranks start, what the image
    must contain, when the launcher starts and how the env reaches the ranks; under it,
    each MPI experiment with its image (over ssh: the workers' command, the image's ssh
    setup and the variables exported to every rank)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for experiment in plan.experiments:
        spec = framework(experiment.job.framework)
        serving = stack.config.operators.serving(spec.crd)
        transport = None if serving is None else serving[1].transport
        if serving is None or transport is None or experiment.run != 1:
            continue
        operator, served = serving
        facts = TRANSPORTS[transport]
        title = "\n".join(
            (
                f"MPI transport: ranks over {facts.name}, {served.kind} {served.api_version} "
                f"served by {operator.label}",
                f"  how: {facts.how}",
                f"  the image must contain: {facts.image_needs}",
                f"  the launcher starts: {facts.start}",
                f"  the job's env reaches the ranks as: {facts.rank_env}",
            )
        )
        groups[title].extend(_experiment_lines(experiment, facts))
    return [line for title, lines in groups.items() for line in (*title.split("\n"), *lines)]


def _experiment_lines(experiment: Experiment, facts: TransportFacts) -> list[str]:
    job = experiment.job
    line = f"  {experiment.point_name}: image {job.image.name}"
    if not facts.image_ssh:
        return [line]
    command = job.mpi.worker_command or ["the image's ENTRYPOINT"]
    line += f", workers run {' '.join([*command, *job.mpi.worker_args])}"
    exported = rank_env(job)
    forwarded = sorted(name for name in job.env if name.startswith("OMPI_"))
    parts = []
    if exported:
        parts.append(f"{', '.join(exported)} (Open MPI's env file, {RANK_ENV_ANNOTATION})")
    if forwarded:
        parts.append(f"{', '.join(forwarded)} (OMPI_*: Open MPI forwards them)")
    return [
        line,
        f"    ssh setup of the image: {ssh_setup(experiment.image_facts)}",
        f"    exported to every rank: {'; '.join(parts) or 'nothing of the job env'}",
    ]
