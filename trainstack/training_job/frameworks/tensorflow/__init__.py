"""``framework: tensorflow``: a TFJob (kubeflow.org/v1) with chief, workers, PS and evaluator.

Facts from kubeflow/training-operator v1 (pkg/apis/kubeflow.org/v1/tensorflow_defaults.go,
pkg/controller.v1/tensorflow): the training container must be named ``tensorflow``; the
operator gives it the port ``tfjob-port`` (2222) unless the pod names one, and writes
``TF_CONFIG`` (the cluster spec built from those ports). Replicas restart Never by default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from trainstack.core.base_model import StrictModel
from trainstack.core.limits import INT32_MAX, MAX_REPLICAS
from trainstack.training_job.frameworks.run_defaults import (
    ArenaSettings,
    RestartDefaults,
    RoleRestart,
    RunDefaults,
)
from trainstack.training_job.frameworks.spec import (
    KUBEFLOW_JOB_SETTINGS,
    ChartDocs,
    FrameworkSpec,
    Port,
    Role,
    RolePods,
    Violation,
)
from trainstack.training_job.pod import PortNumber
from trainstack.training_job.roles import (
    RoleOverrides,
    inherited_gpus_field,
    port_field,
    single_replicas_field,
)

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob


class Chief(RoleOverrides):
    """The TensorFlow chief: trains like a worker and also saves checkpoints and summaries."""

    replicas: int = single_replicas_field(
        "chief", "lets worker 0 act as chief (a TFJob needs one of them)."
    )
    gpus: int | None = inherited_gpus_field("chief")
    port: PortNumber | None = port_field()


class ParameterServers(RoleOverrides):
    """TensorFlow parameter servers: hold the variables of ParameterServerStrategy."""

    replicas: int = Field(
        default=0, ge=0, le=MAX_REPLICAS, description="Number of parameter-server pods."
    )
    gpus: int = Field(default=0, ge=0, le=INT32_MAX, description="GPUs per parameter server.")
    port: PortNumber | None = port_field()


class Evaluator(RoleOverrides):
    """The TensorFlow evaluator: evaluates checkpoints beside training."""

    replicas: int = Field(
        default=0, ge=0, le=1, description="1 runs an evaluator next to training; 0 none."
    )
    gpus: int = Field(default=0, ge=0, le=INT32_MAX, description="GPUs of the evaluator.")
    port: PortNumber | None = port_field()


class TensorFlowSettings(StrictModel):
    """A TFJob (kubeflow.org/v1): chief, workers, parameter servers and evaluator."""

    success_policy: Literal["ChiefWorker", "AllWorkers"] = Field(
        default="ChiefWorker",
        description="When the job succeeds: ChiefWorker (the chief, or worker 0 without a "
        "chief) or AllWorkers.",
    )
    chief: Chief = Field(default_factory=Chief, description="The chief replica.")
    ps: ParameterServers = Field(
        default_factory=ParameterServers, description="The parameter servers."
    )
    evaluator: Evaluator = Field(default_factory=Evaluator, description="The evaluator.")


def _role_pods(job: TrainingJob) -> list[RolePods]:
    tf, worker = job.tensorflow, job.worker
    chief_gpus = worker.gpus if tf.chief.gpus is None else tf.chief.gpus
    return [
        RolePods(
            "chief", "job.tensorflow.chief", tf.chief.replicas, chief_gpus, tf.chief.resources
        ),
        RolePods("worker", "job.worker", worker.replicas, worker.gpus, worker.resources),
        RolePods("ps", "job.tensorflow.ps", tf.ps.replicas, tf.ps.gpus, tf.ps.resources),
        RolePods(
            "evaluator",
            "job.tensorflow.evaluator",
            tf.evaluator.replicas,
            tf.evaluator.gpus,
            tf.evaluator.resources,
        ),
    ]


def _rules(job: TrainingJob) -> list[Violation]:
    if job.tensorflow.chief.replicas == 0 and job.worker.replicas == 0:
        return [
            Violation(
                "worker.replicas",
                job.worker.replicas,
                "at least 1 when tensorflow.chief.replicas is 0 (a TFJob needs a chief or a "
                "worker)",
            )
        ]
    return []


SPEC = FrameworkSpec(
    name="tensorflow",
    kind="TFJob",
    group="kubeflow.org",
    version="v1",
    plural="tfjobs",
    replica_specs_key="tfReplicaSpecs",
    roles=(
        Role("chief", "Chief", "tensorflow.chief", trains=True, container="tensorflow"),
        Role("worker", "Worker", "worker", trains=True, container="tensorflow"),
        Role("ps", "PS", "tensorflow.ps", trains=True, container="tensorflow"),
        Role(
            "evaluator",
            "Evaluator",
            "tensorflow.evaluator",
            trains=True,
            container="tensorflow",
        ),
    ),
    # The chief (or worker 0 without one) logs the training summary.
    reporting_role="chief",
    kueue_integration="kubeflow.org/tfjob",
    role_pods=_role_pods,
    summary="TensorFlow distribution strategies: TFJob v1",
    section_title="TensorFlow",
    docs=ChartDocs(
        article="a",
        operator="training-operator",
        renders=" with `Chief`, `Worker`, `PS` and `Evaluator` replicas; roles with 0 "
        "replicas are left out.",
        keywords=("tensorflow",),
    ),
    settings=KUBEFLOW_JOB_SETTINGS | {"tensorflow.successPolicy"},
    run_defaults=RunDefaults(restart=RestartDefaults("OnFailure")),
    # kubeflow/arena v0.15.5 (e30882c143cc2be32b7ed767ae0f78681892741b), docs/arena-parity.md
    arena=ArenaSettings(
        command="tf",
        app="tfjob",  # charts/tfjob/templates/tfjob.yaml, as the mpijob chart's labels
        workers=("worker",),  # env workers = --workers: pkg/argsbuilder/submit.go:653-660
        # chiefs, evaluators and workers, not parameter servers: submit_tfjob.go:505-516
        gpu_roles=("chief", "worker", "evaluator"),
        # PS, Chief and Evaluator Never, Worker OnFailure beside a chief, else Never
        # (charts/tfjob/templates/tfjob.yaml:56, 346-352, 674, 1030)
        restart=RestartDefaults("Never", (RoleRestart("worker", "OnFailure", beside="chief"),)),
        backoff_limit=None,  # the TFJob chart renders none: the operator's
        # --clean-task-policy default Running (submit_tfjob.go:147-149): trainstack's too
        hides_gpus=("ps",),  # charts/tfjob/templates/tfjob.yaml:294-304
    ),
    dialects=frozenset({"kubeflow", "arena"}),
    rules=_rules,
    port=Port("tfjob-port", 2222),
    injected_env=("TF_CONFIG",),
)
