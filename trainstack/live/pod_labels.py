"""The labels each training operator puts on the pods of a job, to select them by role.

Keyed by the operator of ``trainstack:operators`` that serves the job's kind on the stack
(``Operators.served_crds``); to be folded into the operator catalog.

- mpi-operator v2 (MPIJob ``kubeflow.org/v2beta1``): ``defaultLabels(jobName, role)`` in
  kubeflow/mpi-operator ``pkg/controller/mpi_job_controller.go`` sets
  ``training.kubeflow.org/job-name=<job>`` and ``training.kubeflow.org/job-role=<launcher|worker>``
  (with ``training.kubeflow.org/operator-name=mpi-operator``).
- Kubeflow training-operator v1 (TFJob, PyTorchJob ``kubeflow.org/v1``): ``GenLabels`` in
  kubeflow/training-operator ``pkg/controller.v1/common/job_controller.go`` sets
  ``training.kubeflow.org/job-name=<job>``, and ``createNewPod`` in ``common/pod.go`` adds
  ``training.kubeflow.org/replica-type=<replica type, lower case>`` (``chief``, ``master``...).
- Arena's bundled tf-/pytorch-operators predate those labels; their pods (like every pod
  the training-job chart renders) carry the chart's ``app.kubernetes.io/instance=<release>``
  and ``app.kubernetes.io/component=<role>``, the fallback for any operator not listed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PodLabels:
    """The label keys of a job's name and of a pod's role."""

    job: str
    role: str

    def selector(self, job: str, role: str | None = None) -> dict[str, str]:
        """Labels selecting the pods of ``job`` (of one ``role`` when given)."""
        labels = {self.job: job}
        if role is not None:
            labels[self.role] = role
        return labels


OPERATOR_POD_LABELS: dict[str, PodLabels] = {
    "mpiOperator": PodLabels("training.kubeflow.org/job-name", "training.kubeflow.org/job-role"),
    "trainingOperator": PodLabels(
        "training.kubeflow.org/job-name", "training.kubeflow.org/replica-type"
    ),
}
CHART_POD_LABELS = PodLabels("app.kubernetes.io/instance", "app.kubernetes.io/component")
"""The training-job chart's own labels (the job's release is the job's name)."""


def pod_label_choices(operator: str | None) -> list[PodLabels]:
    """The label sets to try, in order: the operator's own, then the chart's."""
    own = OPERATOR_POD_LABELS.get(operator or "")
    return [own, CHART_POD_LABELS] if own else [CHART_POD_LABELS]
