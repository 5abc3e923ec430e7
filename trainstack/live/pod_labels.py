"""Which labels find a job's pods: the serving operator's (from the catalog), then the chart's.

The operators' labels are catalog facts (``ServedApi.pod_labels``, with their sources in
``trainstack/operators/``). Every pod the training-job chart renders also carries the
chart's ``app.kubernetes.io/instance=<release>`` and ``app.kubernetes.io/component=<role>``:
the fallback when an operator's labels are unknown or unverified (Arena's forks).
"""

from __future__ import annotations

from trainstack.operators.spec import PodLabels

CHART_POD_LABELS = PodLabels("app.kubernetes.io/instance", "app.kubernetes.io/component")
"""The training-job chart's own labels (the job's release is the job's name)."""


def pod_label_choices(operator: PodLabels | None) -> list[PodLabels]:
    """The label sets to try, in order: the operator's own, then the chart's."""
    return [operator, CHART_POD_LABELS] if operator else [CHART_POD_LABELS]
