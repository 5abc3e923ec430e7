"""The MPI launcher runs the command: what it reads must be mounted on it."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.defaults import working_dir
from trainstack.training_job.frameworks import framework

_PATH = re.compile(r"(?<![\w.-])(/[^\s'\";|&<>()]*)")


def launcher_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """An error when the launcher's command or working dir sits on a worker-only dataset."""
    return [found for experiment in experiments for found in _launcher(experiment)]


def _launcher(experiment: Experiment) -> list[Finding]:
    job = experiment.job
    if framework(job.framework).command_has_data(job):
        return []
    command = job.command if isinstance(job.command, list) else [job.command or ""]
    used = {path for part in [*command, *job.args] for path in _PATH.findall(part)}
    directory = working_dir(job)
    if directory:
        used.add(directory)
    why = " (arena submit's default: arenaSubmit)" if job.mpi.mounts_on_launcher is None else ""
    findings = []
    for index, dataset in enumerate(job.datasets):
        root = posixpath.normpath(dataset.mount_path)
        hits = sorted(p for p in used if posixpath.normpath(p) == root or p.startswith(root + "/"))
        if hits:
            findings.append(
                Finding(
                    experiment.source,
                    experiment.release_name,
                    "job.mpi.mountsOnLauncher",
                    f"the launcher uses {', '.join(hits)} on dataset {dataset.claim_name!r} "
                    f"(job.datasets[{index}], mounted at {dataset.mount_path}) but "
                    f"mountsOnLauncher is false{why}, so the launcher does not see it; set "
                    "mountsOnLauncher: true",
                )
            )
    return findings
