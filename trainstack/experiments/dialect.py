"""Which API dialect a job is rendered in on a stack, and what that API would drop.

The operator serving a job's kind on the stack decides how the chart must spell it
(``operatorApi``). A setting the served API does not honour is refused here, at the
experiment's own key, with the operator, its version and the fixes: the API server would
prune it without an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trainstack.config.operators import EnabledOperator, Operators
from trainstack.core.describe import describe_value
from trainstack.core.errors import Problem
from trainstack.operators.registry import serving_families
from trainstack.operators.spec import ServedApi
from trainstack.training_job import TrainingJob
from trainstack.training_job.frameworks import framework
from trainstack.training_job.settings import used_settings

DEFAULT_API = str(TrainingJob.model_fields["operator_api"].default)


def in_operator_api(
    values: dict[str, Any],
    operators: Operators,
    validate: Callable[[dict[str, Any]], TrainingJob],
) -> tuple[dict[str, Any], list[Problem]]:
    """The job ``values`` spelt for the operator that serves them, and the problems there.

    The values come back with ``operatorApi`` set when the serving operator speaks another
    dialect than the default (``values`` itself is left as it is); with problems, they come
    back unchanged. ``validate`` turns values into a job (raising on invalid values). No
    serving operator, or one the chart cannot render for, is left to the plan-time
    operator check, which names the operators that would serve the job.
    """
    framework_name = values.get("framework") or TrainingJob.model_fields["framework"].default
    serving = operators.serving(framework(str(framework_name)).crd)
    if serving is None or serving[1].dialect is None:
        return values, []
    operator, served = serving
    written = values.get("operatorApi")
    if written is not None and written != served.dialect:
        return values, [
            Problem(
                "job.operatorApi",
                describe_value(written),
                f"{served.dialect} or unset: {operator.label} serves {served.crd} "
                f"({served.kind} {served.api_version})",
            )
        ]
    problems = unhonoured_settings(validate(values), operator, served)
    if not problems and served.dialect != DEFAULT_API:
        return {**values, "operatorApi": served.dialect}, []
    return values, problems


def unhonoured_settings(
    job: TrainingJob, operator: EnabledOperator, served: ServedApi
) -> list[Problem]:
    """The settings ``job`` renders that ``served`` would drop, each with its fixes."""
    return [
        Problem(
            f"job.{setting.key}",
            describe_value(setting.value(job)),
            f"nothing with {operator.label}: its {served.kind} {served.api_version} has no "
            f"{setting.field}, so the API server would drop it without an error; "
            f"{serve_with(served.crd, operator)}, or {setting.without}",
        )
        for setting in used_settings(job)
        if setting.key not in served.honours
    ]


def serve_with(crd: str, current: EnabledOperator | None, *, suspend: bool = False) -> str:
    """The fix: the catalog releases that serve ``crd`` as the chart renders it."""
    choices = [
        f"operators.{release.family} (version {release.version})"
        for release in serving_families(crd, suspend=suspend)
        if current is None or release.family != current.key
    ]
    if not choices:
        return f"no operator of the catalog serves {crd}" + (
            " with runPolicy.suspend" if suspend else ""
        )
    instead = "" if current is None else f" instead of operators.{current.key}"
    return f"serve {crd} with {' or '.join(choices)}{instead}"
