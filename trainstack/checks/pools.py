"""What the stack does to existing nodes that a reviewer should hear about."""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment


def pool_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """A warning for each pool whose taint policy replaces other managers' taints."""
    findings = []
    for pool in config.node_pools:
        if pool.nodes and pool.taint_policy == "force":
            # Written in the stack file or its cluster template: the finding names that file.
            file, key = config.written(f"{config.pool_key(pool)}.taintPolicy", source)
            findings.append(
                Finding(
                    file,
                    f"(pool {pool.name})",
                    key,
                    f"force: `pulumi up` replaces the whole taint list of {', '.join(pool.nodes)} "
                    "(Kubernetes keeps spec.taints as one atomic list): taints another manager "
                    "set there (kubectl taint, a cloud controller) are removed",
                    "warning",
                    "taintsReplaced",
                )
            )
    return findings
