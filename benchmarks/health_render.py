"""Time ``trainstack health STACK --render`` of a 1,000-node stack: objects, seconds, memory.

Run: ``.venv/bin/python -m benchmarks.health_render`` (target: under 30 s and 1 GiB for
the whole process). Set-up (not timed): the on-premises example stack with its GPU pool
grown to 1,000 nodes of 8 GPUs (node names unknown offline: one placeholder each). Timed:
the whole process, imports included: 2,002 objects (a namespace, per node a check Job
and an interconnect Job, one MPIJob for workload 2's 2 x 8 shape) built, checked against
Kubernetes' strict schemas (and the MPI operator's CRD when ``TRAINSTACK_CRD_DIR`` is set)
and written. Measured: the median of 3 runs, and the largest resident memory of a run
(``getrusage(RUSAGE_CHILDREN)``).
"""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
from pathlib import Path

from benchmarks._project import ROOT, copy_project, trainstack_seconds
from trainstack.core.yaml.io import dump_yaml, read_yaml

NODES = 1000
REPEATS = 3
TARGET_SECONDS = 30.0
TARGET_MIB = 1024


def _big_stack(project: Path) -> None:
    """``onprem`` with 1,000 GPU nodes (no names declared)."""
    path = project / "stacks" / "Pulumi.onprem.yaml"
    document = read_yaml(path)
    pool = document["config"]["trainstack:nodePools"][0]
    pool["desiredSize"] = NODES
    pool.pop("nodes", None)
    path.write_text(dump_yaml(document), encoding="utf-8")


def main() -> None:
    """Print objects, the median seconds and the peak memory of ``health --render``."""
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch) / "project"
        project.mkdir()
        copy_project(project, ("Pulumi.yaml", "stacks", "experiments"))
        _big_stack(project)
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        out = Path(scratch) / "out"
        seconds = [
            trainstack_seconds(project, "health", "onprem", "--render", str(out), env=environment)
            for _ in range(REPEATS)
        ]
        objects = len(list((out / "onprem").glob("*.yaml")))
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        median = statistics.median(seconds)
        verdict = "ok" if median < TARGET_SECONDS and peak < TARGET_MIB else "OVER TARGET"
        print(
            f"health_render: trainstack health --render of {NODES} nodes: {objects} objects, "
            f"median {median:.2f} s of {REPEATS} ({median / objects * 1000:.2f} ms per object), "
            f"max {max(seconds):.2f} s, peak memory {peak:.0f} MiB (targets < "
            f"{TARGET_SECONDS:.0f} s, < {TARGET_MIB} MiB: {verdict})"
        )


if __name__ == "__main__":
    main()
