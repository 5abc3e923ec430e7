"""How the operator runs and cleans up the job."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX, INT64_MAX

RestartPolicy = Literal["Never", "OnFailure", "ExitCode"]


class RunPolicy(StrictModel):
    """Clean-up, retries and time limits (``runPolicy`` of the job)."""

    clean_pod_policy: Literal["None", "Running", "All"] | None = Field(
        default=None,
        description="Pods deleted when the job ends: Running frees the GPUs and keeps finished "
        "pods' logs (and a failed preflight's line); All deletes every pod (the launchers of "
        "MPI jobs are kept); None keeps them. null: Running, or with arenaSubmit what arena "
        "submit sets (All for ack-arena's MPIJob v1alpha1).",
    )
    ttl_seconds_after_finished: int | None = Field(
        default=None,
        ge=0,
        le=INT32_MAX,
        description="Delete the job this long after it ends; null keeps it. With Pulumi "
        "leave it null: a deleted job is re-created, and re-run, by the next update.",
    )
    backoff_limit: int | None = Field(
        default=None,
        ge=0,
        le=INT32_MAX,
        description="Retries before the job is failed; null: the operator's (with "
        "arenaSubmit, arena submit's --retry default 0 for MPI and PyTorch).",
    )
    active_deadline_seconds: int | None = Field(
        default=None, ge=1, le=INT64_MAX, description="Fail the job when it runs longer than this."
    )
    restart_policy: RestartPolicy | None = Field(
        default=None,
        description="Restart policy of the TensorFlow and PyTorch replicas and of the MPI "
        "launcher (MPI workers never restart); ExitCode is not for MPI. null: OnFailure (the "
        "MPI launcher: Never, retried as a new pod), or with arenaSubmit arena submit's per "
        "role (Never; OnFailure for TensorFlow workers beside a chief and PyTorch workers).",
    )
