"""``preflight``: what every training pod checks first, in its own image, before it trains.

The chart adds an init container, ``preflight``, made from the pod's training container
(same image, env, resources, security context and mounts) that runs
``charts/training-job/files/preflight.sh`` with ``sh``: the GPUs the pod asked for are
visible, the workers' sshd and the launcher's ssh are set up as mpi-operator relies on
(``sshd -t`` and ``sshd -T``, ``ssh -G``), every dataset is mounted
and readable (the results claim writable), the MPI launcher resolves its workers' host
names, and the variables the job's scripts need are set. It prints one line per dataset
with the manifest digest it read there (:data:`DATASET_LINE`), which ``results collect``
records. On failure it ends with one line,
``trainstack preflight: ...``, its termination message, which ``trainstack status`` shows
as the job's reason. docs/preflight.md has each check, what it costs and where it cannot
run (a TrainJob has no init containers: the trainer's command runs after the checks
instead).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field, StringConstraints

from trainstack.core.base_model import StrictModel

SHELL_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
"""A variable a POSIX shell script can read as ``$name``."""
ShellName = Annotated[str, StringConstraints(pattern=SHELL_NAME_PATTERN)]
CONTAINER = "preflight"
"""The init container's name."""
RESOLVE_SECONDS = 600
"""How long the MPI launcher waits for its workers' host names (the chart reads it from
the generated templates/_constants.tpl). The records exist once a worker is Ready (the
job's headless Service publishes Ready pods only: kubeflow/mpi-operator b10758da
pkg/controller/mpi_job_controller.go:1418-1436), and the launcher starts with its
workers: unqueued jobs render ``launcherCreationPolicy: AtStartup`` (so that a worker
failing its preflight ends the job through the launcher), and a queued job's
WaitForWorkersReady is not applied to a job created suspended (the launcher is created at
once, L665-686, and resumed with the workers). So the wait covers a worker's start on a
node that must first pull the image: multi-GB CUDA images take minutes (unverified per
registry and node); a wait that ends too soon fails a healthy job (docs/preflight.md)."""
FAILURE_PREFIX = "trainstack preflight:"
"""How the line that names a failed check starts."""
PASSED_PREFIX = "trainstack preflight: passed"
"""How the line of a preflight that passed starts (files/preflight.sh)."""
MANIFEST_FILE = ".trainstack-manifest.sha256"
"""The manifest digest the populate Job's verify writes at the root of a file system
(docs/data.md), which the preflight reads at each dataset's mount path."""
NO_MANIFEST = "none"
"""What the dataset line says without a manifest it can trust (none, unreadable, a
sub-path mount, any other shape)."""
DATASET_LINE = re.compile(
    r"trainstack preflight: dataset ([a-z0-9][a-z0-9.-]{0,252}) manifest "
    rf"(sha256:[0-9a-f]{{64}}|{NO_MANIFEST})"
)
"""One line per dataset the pod mounts (files/preflight.sh), matched whole: the claim and
the manifest digest it read. Not a failure: a failed check's line names a path, not a
claim."""


class Preflight(StrictModel):
    """Checks every training pod runs first, in its own image (docs/preflight.md)."""

    enabled: bool = Field(
        default=True,
        description="Run the preflight: an init container, made from the training "
        "container, that checks the GPUs, sshd/ssh, mounts, workers' names and requiredEnv "
        "in seconds and fails with one line, `trainstack preflight: ...`, the job's reason "
        "in `trainstack status`; it also prints each dataset's manifest digest, which "
        "`results collect` records. false: no preflight.",
    )
    required_env: list[ShellName] = Field(
        default_factory=list,
        description="Variables the job's own scripts read: the preflight fails, naming "
        "them, when one is unset or empty.",
        examples=[["workers", "gpus"]],
    )
