"""``framework: tensorflow``: a TFJob (kubeflow.org/v1) with chief, workers, PS and evaluator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.frameworks.registry import register
from trainstack.frameworks.spec import FrameworkSpec, Role, RolePods

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob


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


TENSORFLOW = register(
    FrameworkSpec(
        name="tensorflow",
        kind="TFJob",
        group="kubeflow.org",
        version="v1",
        plural="tfjobs",
        replica_specs_key="tfReplicaSpecs",
        roles=(
            Role("chief", "Chief", "tensorflow.chief", trains=True),
            Role("worker", "Worker", "worker", trains=True),
            Role("ps", "PS", "tensorflow.ps", trains=True),
            Role("evaluator", "Evaluator", "tensorflow.evaluator", trains=True),
        ),
        # The chief (or worker 0 without one) logs the training summary.
        reporting_role="chief",
        kueue_integration="kubeflow.org/tfjob",
        role_pods=_role_pods,
        summary="TensorFlow distribution strategies: TFJob v1",
    )
)
