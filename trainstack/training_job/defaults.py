"""What a job runs with where it leaves a key null: trainstack's default, or, with
``arenaSubmit``, what ``arena submit`` sets (docs/arena-parity.md).

The chart computes the same in ``_defaults.tpl`` (``training-job.defaults.*``); the keys
are null in values.yaml so that both can tell "left to the default" from "set". Arena's
values (kubeflow/arena v0.15.5, e30882c143cc2be32b7ed767ae0f78681892741b):

- ``--working-dir`` default ``/root``, ``--image-pull-policy`` default ``Always``,
  ``--retry`` default 0 (pkg/argsbuilder/submit.go:103-109, 140-141), rendered as
  ``backoffLimit: <retry>`` by the MPIJob and PyTorchJob charts
  (charts/mpijob/templates/mpijob.yaml:31, charts/pytorchjob/templates/pytorchjob.yaml:34,
  45); the TFJob chart renders none (the operator's);
- MPI: ``--mounts-on-launcher`` default false, ``--clean-task-policy`` default ``All``
  (pkg/argsbuilder/submit_mpijob.go:75-79), rendered for ack-arena's MPIJob v1alpha1; on
  upstream's v2beta1 ``Running``, which deletes the same running workers and keeps a
  failed one (kubeflow/mpi-operator b10758da, pkg/controller/mpi_job_controller.go:
  1078-1084); TF and PyTorch: ``--clean-task-policy``
  default ``Running`` (submit_tfjob.go:147-149, submit_pytorchjob.go:81-87);
- restart policies: the MPIJob template ``Never`` (charts/mpijob/templates/mpijob.yaml:88);
  TFJob PS, Chief and Evaluator ``Never``, Worker ``OnFailure`` beside a chief, else
  ``Never`` (charts/tfjob/templates/tfjob.yaml:56, 346-352, 674, 1030); PyTorchJob Master
  ``Never``, Worker ``OnFailure`` (charts/pytorchjob/templates/pytorchjob.yaml:48-50,
  346-349).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob
    from trainstack.training_job.run_policy import RestartPolicy

ARENA_WORKING_DIR = "/root"


def working_dir(job: TrainingJob) -> str | None:
    """The containers' working directory (``None``: the image's)."""
    if job.working_dir is None and job.arena_submit:
        return ARENA_WORKING_DIR
    return job.working_dir


def pull_policy(job: TrainingJob) -> str:
    """When the kubelet pulls the image."""
    if job.image.pull_policy is not None:
        return job.image.pull_policy
    return "Always" if job.arena_submit else "IfNotPresent"


def clean_pod_policy(job: TrainingJob) -> str:
    """Which pods the operator deletes when the job ends."""
    if job.run_policy.clean_pod_policy is not None:
        return job.run_policy.clean_pod_policy
    arena_mpi = job.arena_submit and job.framework == "mpi"
    # v2beta1 removes failed workers with All and keeps them with Running; its workers run
    # sshd until the launcher ends, so both remove the same running ones: Running keeps a
    # failed worker's preflight line (docs/preflight.md). ack-arena's fork removes every
    # worker either way: Arena's All.
    return "All" if arena_mpi and job.operator_api == "arena" else "Running"


def backoff_limit(job: TrainingJob) -> int | None:
    """Retries before the job fails (``None``: the operator's)."""
    if job.run_policy.backoff_limit is None and job.arena_submit and job.framework != "tensorflow":
        return 0
    return job.run_policy.backoff_limit


def restart_policy(job: TrainingJob, role: str, own: RestartPolicy | None) -> str:
    """The restart policy of ``role`` whose own setting is ``own`` (MPI workers aside: they
    take their own or Never, whatever runPolicy says)."""
    if own is not None:
        return own
    if job.framework == "mpi" and role == "worker":
        return "Never"
    if job.run_policy.restart_policy is not None:
        return job.run_policy.restart_policy
    if not job.arena_submit:
        # A launcher is a batch Job: Never retries it with a new pod (backoffLimit counts
        # it) and keeps the failed pod with its preflight line; OnFailure's pod is deleted
        # when the Job fails (docs/preflight.md).
        return "Never" if role == "launcher" else "OnFailure"
    beside_chief = job.framework == "tensorflow" and job.tensorflow.chief.replicas > 0
    if role == "worker" and (job.framework == "pytorch" or beside_chief):
        return "OnFailure"
    return "Never"
