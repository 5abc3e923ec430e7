"""Optional job queueing with Kueue: jobs wait for their team's quota and start whole.

Without queueing, everything a stack declares is created at once by ``pulumi up`` and a
team's ResourceQuota refuses the pods that do not fit, which can leave half of a job
holding GPUs. With queueing, Kueue keeps each job suspended until its team's
ClusterQueue has room for all of its pods, then admits it whole.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, StringConstraints, model_validator

from trainstack.config.charts import ChartRef
from trainstack.config.operators import Operators
from trainstack.core.base_model import StrictModel, constraint
from trainstack.core.limits import INT32_MAX, INT64_MAX
from trainstack.core.names import DnsLabel
from trainstack.operators.registry import known_versions, latest, release
from trainstack.operators.spec import ChartInstall
from trainstack.training_job.frameworks import framework as framework_spec

QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
"""The label that puts a job in a LocalQueue of its namespace."""

MANAGER_CONFIG_KEY = "managerConfig.controllerManagerConfigYaml"
"""The chart value trainstack writes itself (Kueue's whole Configuration)."""


REQUEUE_LIMIT = 3
"""Requeues after a ``podsReadyTimeout`` before Kueue deactivates the job: a slow first
image pull gets three more chances (the image is on the node by then); a job whose pods
can never start (a failed preflight under a restart policy that retries it in place) is
out of the queue after four timeouts."""

_SECONDS = {"s": 1, "m": 60, "h": 3600}
# Kueue reads durations as Go's time.Duration: int64 nanoseconds.
_MAX_DURATION_SECONDS = INT64_MAX // 10**9


def _duration(text: str) -> str:
    if duration_seconds(text) > _MAX_DURATION_SECONDS:
        raise constraint("", text, f"at most {_MAX_DURATION_SECONDS}s (an int64 of nanoseconds)")
    return text


def duration_seconds(text: str) -> int:
    """A validated :data:`Duration` (``10m``) in seconds."""
    return int(text[:-1]) * _SECONDS[text[-1]]


Duration = Annotated[
    str,
    StringConstraints(pattern=r"^[1-9][0-9]*(s|m|h)$", max_length=24),
    AfterValidator(_duration),
]


def _kueue_chart() -> ChartRef:
    install = latest("kueue").install
    assert isinstance(install, ChartInstall)  # the catalog installs Kueue from its chart
    return ChartRef.model_validate(
        {"repo": install.repo, "name": install.name, "version": install.version}
    )


class Queueing(StrictModel):
    """Kueue: installed as a chart, one ClusterQueue and one LocalQueue per team."""

    enabled: bool = Field(
        default=False,
        description="Install Kueue and queue the teams' jobs (experiments of a team get its "
        "queue label).",
    )
    chart: ChartRef = Field(
        default_factory=_kueue_chart,
        description="The Kueue chart: the official one at a version the catalog knows, or "
        "the same chart from a mirror `repo`; the objects trainstack creates are `kueue.x-k8s.io/"
        "v1beta2`, served by Kueue 0.15 and later. Mirror it (and its image) where "
        "registry.k8s.io is not reachable.",
    )
    namespace: DnsLabel = Field(default="kueue-system", description="Namespace of Kueue.")
    release_name: DnsLabel = Field(default="kueue", description="Helm release name.")
    cohort: DnsLabel | None = Field(
        default=None,
        description="Put every team's ClusterQueue in this cohort so that a team can borrow "
        "GPUs the others leave idle; unset: each team only ever gets its own quota.",
    )
    reclaim_within_cohort: Literal["Never", "LowerPriority", "Any"] = Field(
        default="Any",
        description="Whether a team that wants its own quota back preempts the jobs that "
        "borrowed it (`Any`), only those of lower priority, or waits for them (`Never`).",
    )
    pods_ready_timeout: Duration = Field(
        default="10m",
        description="An admitted job whose pods are not all running within this time is "
        "suspended and requeued, so that half a job never holds GPUs (Kueue "
        "`waitForPodsReady`). Allow for pulling large images.",
    )
    requeue_limit: int = Field(
        default=REQUEUE_LIMIT,
        ge=0,
        le=INT32_MAX,
        description="How many times a job evicted by `podsReadyTimeout` is requeued; the "
        "next timeout deactivates it (never admitted again, its quota freed) instead of "
        "requeueing it forever (Kueue `waitForPodsReady.requeuingStrategy."
        "backoffLimitCount`; the requeues wait about 60 s, 120 s, 240 s...).",
    )
    values: dict[str, Any] = Field(
        default_factory=dict,
        description="More values for the chart (e.g. an image mirror); "
        f"`{MANAGER_CONFIG_KEY}` is written by trainstack.",
    )

    @model_validator(mode="after")
    def _known_chart(self) -> Queueing:
        if self.chart.name != "kueue":
            raise constraint("chart.name", self.chart.name, "kueue (Kueue's official chart)")
        if release("kueue", self.chart.version) is None:
            raise constraint(
                "chart.version",
                self.chart.version,
                f"a Kueue version the catalog knows: {', '.join(known_versions('kueue'))}",
            )
        return self

    @model_validator(mode="after")
    def _manager_config_is_ours(self) -> Queueing:
        manager = self.values.get("managerConfig")
        if isinstance(manager, dict) and "controllerManagerConfigYaml" in manager:
            raise constraint(
                f"values.{MANAGER_CONFIG_KEY}",
                "a Kueue configuration",
                "nothing: trainstack writes it (integrations, waitForPodsReady); use the "
                "other settings of trainstack:queueing",
            )
        return self


def suspendable(framework: str, operators: Operators) -> bool:
    """Whether Kueue can hold jobs of ``framework``: the operator serving them can suspend."""
    return suspendable_crd(framework_spec(framework).crd, operators)


def suspendable_crd(crd: str, operators: Operators) -> bool:
    """Whether Kueue can hold jobs of ``crd``: an enabled operator serves it with suspend."""
    serving = operators.serving(crd)
    return serving is not None and serving[1].suspend
