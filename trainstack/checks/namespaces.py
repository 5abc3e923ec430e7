"""A job's namespace must exist: the stack creates its teams' namespaces, nothing else."""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment

# Namespaces every cluster has.
BUILT_IN = {"default"}


def namespace_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """A warning for a namespace this stack does not create and no cluster has by default.

    Offline, a plan cannot know whether someone created it by hand: the release does not
    create it (a namespace made by Helm would have no quota, defaults or Pod Security).
    """
    return [found for e in experiments for found in _namespace(e, config, source)]


def _namespace(experiment: Experiment, config: StackConfig, source: str) -> list[Finding]:
    namespace = experiment.namespace
    if namespace in BUILT_IN or config.team_in(namespace) is not None:
        return []
    teams = ", ".join(sorted(team.namespace_name for team in config.teams)) or "none"
    return [
        Finding(
            experiment.source,
            experiment.release_name,
            "namespace",
            f"{namespace!r} is neither 'default' nor a team namespace of this stack "
            f"(trainstack:teams in {source}: {teams}); it must already exist on the "
            "cluster, or the release fails",
            "warning",
            "unknownNamespace",
        )
    ]
