"""Time ``trainstack results collect`` of 200 runs, each with its GPU telemetry: requests,
seconds and memory.

Run: ``.venv/bin/python -m benchmarks.results_collect_telemetry`` (targets: one range
query per run, under 120 s of CPU, the default ``--deadline``, and under 1 GiB of memory).

Set-up (not timed): the recorded API of ``tests/live`` on loopback, with 200 succeeded
runs of workload 1 (``imagenet-tensorflow`` and ``-r2`` .. ``-r200``, each an hour long,
its launcher pod and log) and, behind the API server's service proxy, a Prometheus whose
answer to each run's query holds its 16 GPUs x 15 DCGM fields at 10 s (361 points: about
2.3 MB of JSON, 86,640 samples). Timed: the whole ``trainstack results collect aiacc
imagenet-tensorflow`` process (imports included), writing 200 results files; counted:
the range queries the Prometheus saw and the process's peak resident memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._project import ROOT, copy_project
from tests.live.apiserver import RecordedApi, Route, kubeconfig, serve
from tests.live.recorded_cluster import record_cluster
from tests.live.recorded_jobs import EXPERIMENT, JOB, MPIJOBS, ROLE, VISION_PODS
from tests.live.recorded_prometheus import CREATED, dcgm_answer
from tests.metrics.test_formats import DATA as LOGS
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments

RUNS = 200
HOUR = 3600.0
TARGET_SECONDS = 120.0
DEADLINE = 900.0
"""The command's own --deadline here: the machine's load, not trainstack, decides the
wall time of a benchmark; the target holds the CPU time and the wall time to 120 s."""
TARGET_BYTES = 1 << 30
PROXY = "/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy"
TELEMETRY = """
  trainstack:telemetry:
    prometheus: {kind: service, namespace: monitoring, name: prometheus-k8s, port: 9090}
    resolutionSeconds: 10
"""
PEAK = (
    "import atexit, resource, sys\n"
    "usage = lambda: resource.getrusage(resource.RUSAGE_SELF)\n"
    "atexit.register(lambda: sys.stderr.write(f'peak-rss-kib {usage().ru_maxrss} cpu '"
    "f'{usage().ru_utime + usage().ru_stime}\\n'))\n"
    "sys.argv = ['trainstack', *sys.argv[1:]]\n"
    "from trainstack.__main__ import run\n"
    "run()\n"
)


def _name(run: int) -> str:
    return "imagenet-tensorflow" if run == 1 else f"imagenet-tensorflow-r{run}"


def _jobs(api: RecordedApi, digest: str) -> None:
    """200 hour-long MPIJobs of imagenet-tensorflow, their launcher pods and logs."""
    template = api.items("mpijob-imagenet-tensorflow.json")[0]
    pod = api.items("pods-imagenet-tensorflow-launcher.json")[0]
    jobs = []
    for run in range(1, RUNS + 1):
        job: Any = json.loads(json.dumps(template))
        job["metadata"]["name"] = _name(run)
        job["metadata"]["annotations"].update(
            {"trainstack.io/run": str(run), "trainstack.io/base-values-digest": digest}
        )
        job["status"]["completionTime"] = "2024-05-06T11:00:00Z"
        jobs.append(job)
        launcher: Any = json.loads(json.dumps(pod))
        launcher["metadata"]["name"] = f"{_name(run)}-launcher"
        api.list_of(VISION_PODS, f"{JOB}={_name(run)},{ROLE}=launcher", "PodList", "v1",
                    [launcher])  # fmt: skip
        api.list_of(VISION_PODS, f"{JOB}={_name(run)}", "PodList", "v1", [launcher])
        log = (LOGS / "tf-cnn-benchmarks-aiacc.log").read_bytes() + f"# run {run}\n".encode()
        path = f"{VISION_PODS}/{_name(run)}-launcher/log"
        api.routes.append(Route(path, {"container": "launcher"}, 200, log, "text/plain"))
    api.list_of(MPIJOBS, f"{EXPERIMENT}=imagenet-tensorflow", "MPIJobList",
                "kubeflow.org/v2beta1", jobs)  # fmt: skip


def main() -> None:
    """Print the queries, seconds and peak memory of one ``results collect``."""
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch) / "project"
        project.mkdir()
        copy_project(project, ("Pulumi.yaml", "stacks", "experiments"))
        stack = project / "stacks" / "Pulumi.aiacc.yaml"
        stack.write_text(stack.read_text() + TELEMETRY)
        resolved = load_stack_experiments(Project.load(project), "aiacc")
        digest = resolved.runs_of("imagenet-tensorflow")[0].base_digest
        api = RecordedApi()
        record_cluster(api)
        _jobs(api, digest)
        body = json.dumps(dcgm_answer(end=CREATED + HOUR, step=10)).encode()
        api.routes.insert(0, Route(PROXY + "/api/v1/query_range", {}, 200, body))
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        for url in serve(api):
            config = kubeconfig(Path(scratch) / "aiacc.kubeconfig", url)
            args = ("results", "collect", "aiacc", "imagenet-tensorflow", "--kubeconfig",
                    str(config), "--deadline", str(DEADLINE))  # fmt: skip
            started = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-c", PEAK, *args],
                cwd=project,
                env=environment,
                capture_output=True,
                text=True,
                check=False,
            )
            seconds = time.monotonic() - started
        if done.returncode != 0:
            raise SystemExit(f"results collect failed:\n{done.stderr}")
        queries = sum(1 for seen in api.seen if "/query_range" in seen)
        written = len(list((project / "results").rglob("run-*.json")))
        measured = done.stderr.rsplit("peak-rss-kib ", 1)[1].split()
        peak, cpu = int(measured[0]) * 1024, float(measured[2])
        ok = queries == RUNS and cpu < TARGET_SECONDS and peak < TARGET_BYTES
        print(
            f"results_collect_telemetry: collect of {written} runs x 16 GPUs x 15 fields at "
            f"10 s over 1 h ({len(body) / 1e6:.1f} MB per answer): {queries} range queries, "
            f"{len(api.seen)} requests in all, {seconds:.1f} s (CPU {cpu:.1f} s), peak memory "
            f"{peak / (1 << 20):.0f} MiB (targets: {RUNS} queries, CPU < "
            f"{TARGET_SECONDS:.0f} s, < 1 GiB: {'ok' if ok else 'OVER TARGET'})",
            flush=True,
        )


if __name__ == "__main__":
    main()
