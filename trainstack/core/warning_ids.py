"""Every kind of plan-time warning, by its stable id, and how a file acknowledges one.

A warning does not stop a plan; a reviewer reads it in the plan summary and in
``trainstack diff``. A warning that describes a deliberate choice (workload 2's host
network) is acknowledged where the choice is made, with the reason, so that it is shown
as acknowledged instead of being one more warning to learn to ignore:

- an experiment file: ``acknowledge: [{warning: hostNetwork, key: job.hostNetwork,
  reason: ...}]`` covers that warning at that key wherever the file's experiments (every
  matrix point and run) get it;
- a stack file: ``trainstack:acknowledge: [{warning: borrowing, key: team, experiment:
  ..., reason: ...}]`` covers what depends on the stack (its teams, queueing, pools), for
  one experiment (or matrix) or, without ``experiment``, anywhere on the stack.

Each names the warning's kind *and* its key: an acknowledgement written for a team's GPU
quota (``trainstack:teams[0].quota.gpu``) never covers a new warning of the same kind
about its CPU quota.

An acknowledgement that matches no warning is a warning itself (``staleAcknowledgement``,
see :mod:`trainstack.checks.acknowledge`): a stale one would silently cover the next,
different, problem of the same kind.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.describe import did_you_mean

WARNING_IDS: dict[str, str] = {
    "sharedMemory": "/dev/shm off, or under 1Gi, on a multi-GPU (NCCL) job",
    "memoryLimit": "GPU pods without a memory limit (and no team default)",
    "shmOverMemory": "/dev/shm's sizeLimit at or above the pod's memory limit (team jobs)",
    "ttlAfterFinished": "runPolicy.ttlSecondsAfterFinished: the next `pulumi up` re-runs the "
    "deleted job",
    "privileged": "privileged containers",
    "hostNetwork": "pods on the node's network",
    "openMpiPtrace": "several Open MPI ranks per pod that cannot attach to each other's "
    "memory (no SYS_PTRACE under RuntimeDefault seccomp)",
    "trainJobToken": "a TrainJob whose pods get the API token the job turned off",
    "operatorEnv": "an environment variable the operator writes itself (TF_CONFIG, "
    "MASTER_ADDR, OMPI_MCA_*...)",
    "plainCredential": "an environment variable named like a credential, in plain text",
    "unbackedWrite": "an output directory (--model-dir, --output_dir...) under no mounted "
    "volume: what the job writes there is lost with its pods",
    "unknownNamespace": "a namespace that is neither `default` nor a team's",
    "taintsReplaced": "taintPolicy force: other managers' taints on existing nodes removed",
    "notQueued": "with queueing: a job Kueue cannot hold (its operator cannot suspend it)",
    "borrowing": "with queueing: a job larger than its team's own quota, admitted only "
    "while the cohort lends it GPUs",
    "queuedTogether": "with queueing: a team's experiments need more than its quota "
    "together, so they run one after another",
    "observedDiffers": "the cluster as `trainstack inspect` last read it (facts/STACK.json) "
    "differs from what the stack declares: a pool's nodes, an operator's version...",
    "selectedByNoStack": "an experiment file no stack's trainstack:experiments selects: "
    "checked, never deployed (it cannot be acknowledged: select it, or remove the file)",
    "staleAcknowledgement": "an acknowledgement that matches no warning of the plan (it "
    "cannot be acknowledged itself)",
}
"""Warning id -> what it warns about (docs/warnings.md lists them)."""


UNACKNOWLEDGEABLE = frozenset({"staleAcknowledgement", "selectedByNoStack"})


def _known_warning(name: str) -> str:
    if name not in WARNING_IDS or name in UNACKNOWLEDGEABLE:
        ids = sorted(set(WARNING_IDS) - UNACKNOWLEDGEABLE)
        hint = did_you_mean(name, ids)
        raise constraint("", name, f"a warning id{hint}: {', '.join(ids)}")
    return name


WarningId = Annotated[str, AfterValidator(_known_warning)]
ExperimentName = Annotated[
    str, StringConstraints(pattern=r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", max_length=63)
]
"""An experiment, matrix or matrix point name (a DNS label; this module imports no config,
which imports it)."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _one_line_of_text(reason: str) -> str:
    """A reason is shown within trainstack's own lines (plan, diff, the PR comment): a
    terminal's control sequence would be replayed, a newline would start a line that reads
    as trainstack's (``warning: ... no data at risk``)."""
    found = _CONTROL.search(reason)
    if found:
        where = f"character {found.start() + 1}"
        control = f"U+{ord(found[0]):04X}, a control character, at {where}"
        raise constraint("", control, "one line of text without control characters")
    return reason


Reason = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=500),
    AfterValidator(_one_line_of_text),
]
WarnedKey = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=256)]


class Acknowledgement(StrictModel):
    """A warning this file means, and why (an experiment file's ``acknowledge`` item)."""

    warning: WarningId = Field(
        description="The warning's id (the `[id]` after each warning), e.g. `hostNetwork`."
    )
    key: WarnedKey = Field(
        description="The key the warning names, as the plan prints it after the experiment "
        "(`job.hostNetwork`, `trainstack:teams[0].quota.gpu`, `team`): the acknowledgement "
        "covers that warning there only, so a new one of the same kind elsewhere (another "
        "key, another resource) is shown as a new warning."
    )
    reason: Reason = Field(
        description="Why the warned-about setting is deliberate (shown with the warning)."
    )


class StackAcknowledgement(Acknowledgement):
    """A warning this stack means (a ``trainstack:acknowledge`` item)."""

    experiment: ExperimentName | None = Field(
        default=None,
        description="The experiment (or matrix) whose warning this is; unset: every warning "
        "of this id on the stack (team- and pool-wide warnings have no experiment).",
    )
