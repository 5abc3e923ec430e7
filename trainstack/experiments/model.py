"""What an experiment file says: who runs it, where, its matrix, and the job itself.

The ``job`` section is exactly the values of ``charts/training-job``: it is validated as a
:class:`~trainstack.training_job.TrainingJob` after the matrix point and the stack's
overrides are applied, so the same file runs unchanged with ``helm install -f``.
"""

from __future__ import annotations

import itertools
import math
import string
from typing import Annotated, Any

from pydantic import Field, StringConstraints, model_validator

from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.durations import Duration
from trainstack.core.limits import MAX_MATRIX_POINTS
from trainstack.core.names import RELEASE_NAME_MAX, DnsLabel
from trainstack.core.warning_ids import Acknowledgement
from trainstack.experiments.image_facts import ImageFacts
from trainstack.experiments.work import Work
from trainstack.metrics.spec import MetricSpec

# Helm release names: DNS label, at most 53 characters (Helm keeps 10 for its suffixes).
MAX_JOB_PATH = 256
MAX_AXES = 16
RELEASE_NAME_PATTERN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
ReleaseName = Annotated[
    str, StringConstraints(pattern=RELEASE_NAME_PATTERN, max_length=RELEASE_NAME_MAX)
]
AxisName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9]*$", max_length=63)]
JobPath = Annotated[
    str,
    StringConstraints(
        pattern=r"^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$", max_length=MAX_JOB_PATH
    ),
]
AxisValue = int | str | bool


class Matrix(StrictModel):
    """Run the same experiment at several points, e.g. nodes x GPUs per node."""

    axes: dict[AxisName, JobPath] = Field(
        min_length=1,
        max_length=MAX_AXES,
        description="Each axis and the job key it sets, e.g. `nodes: worker.replicas`.",
    )
    points: list[dict[AxisName, AxisValue]] = Field(
        default_factory=list,
        max_length=MAX_MATRIX_POINTS,
        description="The points to run, each a value per axis, e.g. `{nodes: 2, gpusPerNode: 2}`.",
    )
    product: dict[AxisName, list[AxisValue]] = Field(
        default_factory=dict,
        description="Alternatively, values per axis: every combination is a point.",
    )
    name_template: str | None = Field(
        default=None,
        max_length=253,
        description="Name of each point, with `{name}` and `{<axis>}` placeholders, e.g. "
        "`{name}-{nodes}x{gpusPerNode}`; default: the name and the values joined by `-`.",
    )

    @model_validator(mode="after")
    def _well_formed(self) -> Matrix:
        if bool(self.points) == bool(self.product):
            raise constraint("points", self.points, "a list of points, or `product` (not both)")
        axes = set(self.axes)
        if self.product and set(self.product) != axes:
            raise constraint("product", sorted(self.product), f"exactly the axes {sorted(axes)}")
        if self.product:
            # Counted before anything is expanded: a billion points are refused at once.
            count = self.point_count
            if count > MAX_MATRIX_POINTS:
                sizes = " x ".join(str(len(values)) for values in self.product.values())
                raise constraint(
                    "product",
                    f"{count} points ({sizes})",
                    f"at most {MAX_MATRIX_POINTS} points (trainstack's limit: each is a release)",
                )
        for index, point in enumerate(self.points):
            if set(point) != axes:
                raise constraint(
                    f"points[{index}]", point, f"a value for each axis {sorted(axes)}, no other"
                )
        if self.name_template is not None:
            problem = _template_problem(self.name_template, ["name", *self.axes])
            if problem is not None:
                placeholders = ", ".join(f"{{{name}}}" for name in ["name", *self.axes])
                raise constraint(
                    "nameTemplate",
                    self.name_template,
                    f"text with the placeholders {placeholders} only, each as written "
                    f"(no index, attribute, conversion or format): {problem}",
                )
        return self

    @property
    def point_count(self) -> int:
        """How many points the matrix has (computed, not expanded)."""
        if self.points:
            return len(self.points)
        return math.prod(len(values) for values in self.product.values())

    def expanded_points(self) -> list[dict[str, AxisValue]]:
        """Every point, in declaration order (the product varies the last axis fastest)."""
        if self.points:
            return [dict(point) for point in self.points]
        axes = list(self.axes)
        return [
            dict(zip(axes, values, strict=True))
            for values in itertools.product(*(self.product[axis] for axis in axes))
        ]

    def point_name(self, name: str, point: dict[str, AxisValue]) -> str:
        """The experiment name of one point."""
        if self.name_template is not None:
            return self.name_template.format(name=name, **point)
        return "-".join([name, *(str(point[axis]).lower() for axis in self.axes)])


def _template_problem(template: str, names: list[str]) -> str | None:
    """What is wrong with a name template (``None``: nothing); it is never run to find out."""
    try:
        fields = [
            (field, spec, conversion)
            for _, field, spec, conversion in string.Formatter().parse(template)
            if field is not None
        ]
    except ValueError as error:
        return str(error)
    for field, spec, conversion in fields:
        if field not in names:
            return f"{{{field}}} is not a placeholder"
        if spec or conversion:
            return f"{{{field}}} has a conversion or format"
    return None


class ExperimentFile(StrictModel):
    """One file of `experiments/`: one experiment, or a matrix of them."""

    name: ReleaseName = Field(
        description="Experiment name: the Helm release and the job are named after it "
        "(DNS label, at most 53 characters, also after matrix expansion)."
    )
    description: str | None = Field(default=None, description="What the experiment measures.")
    team: DnsLabel | None = Field(
        default=None,
        description="The team the experiment belongs to (trainstack:teams): it runs in the "
        "team's namespace, under its quota and, with queueing, in its queue.",
    )
    namespace: DnsLabel | None = Field(
        default=None,
        description="Namespace the job runs in (where its claims are); unset: the team's "
        "namespace, or `default` without a team.",
    )
    node_pool: DnsLabel | None = Field(
        default=None,
        description="The GPU node pool its GPU pods run on (a name of the stack's "
        "trainstack:nodePools); unset: the stack's first GPU pool. A stack can override it "
        "(trainstack:experiments.nodePools).",
    )
    matrix: Matrix | None = Field(default=None, description="Expand into one experiment per point.")
    metrics: list[MetricSpec] = Field(
        default_factory=list,
        description="What the job's log reports (`trainstack results`): recognised formats "
        "need no entry; declare a pattern for others, or a unit and direction.",
    )
    job: dict[str, Any] = Field(
        description="The training job: values of charts/training-job (see its README)."
    )
    expected_duration: Duration | None = Field(
        default=None,
        description="How long one run takes, from start to end, e.g. `1h30m` (each point of "
        "a matrix): the plan's GPU-hours and cost per run. Once runs of the experiment as it "
        "is now are recorded with their timing (`trainstack results collect`), the median of "
        "theirs counts instead, and the plan says which (docs/cost.md).",
    )
    image_facts: ImageFacts | None = Field(
        default=None,
        description="What the job's image holds that the job depends on (CUDA, sshd) and "
        "where that is known from: the plan shows it and refuses a job its image cannot run.",
    )
    work: Work | None = Field(
        default=None,
        description="The work of a step (FLOPs per sample, gradient bytes): `results "
        "collect` records each run's model FLOPs utilisation from it, and with `trainstack "
        "health`'s measurements `results compare` predicts the throughput range of each "
        "stack and flags runs outside it.",
    )
    acknowledge: list[Acknowledgement] = Field(
        default_factory=list,
        max_length=64,
        description="Warnings this experiment means, by id, each with its reason: shown as "
        "acknowledged, not as warnings; one that matches no warning of a stack that runs the "
        "experiment is an error.",
    )

    @model_validator(mode="after")
    def _unique_metrics(self) -> ExperimentFile:
        seen: set[str] = set()
        for index, metric in enumerate(self.metrics):
            if metric.name in seen:
                raise constraint(
                    f"metrics[{index}].name", metric.name, "a name not declared above it"
                )
            seen.add(metric.name)
        return self
