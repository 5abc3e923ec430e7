"""Time ``trainstack inspect aiacc`` of a 1,000-node, 200-job cluster: requests and seconds.

Run: ``.venv/bin/python -m benchmarks.inspect_cluster`` (targets: under 10 requests, under
10 s for the whole process).

Set-up (not timed): the recorded API of ``tests/live`` on loopback, serving 960 GPU nodes
and 40 CPU nodes (each with 30 images in its status, about the size of a real node's
object, 16 MB of nodes in all), the operators' Deployments, 200 MPIJobs with their 1,000
pods, the jobs' CRDs and Kueue's configuration. Timed: the whole ``trainstack inspect``
process (imports included), in text and in JSON, each a fresh process; counted: the
requests the API server saw (none may be for a job or a pod).
"""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchmarks._project import ROOT, copy_project, trainstack_seconds
from tests.live.apiserver import RecordedApi, kubeconfig, serve
from tests.live.recorded_cluster import NODES, Shape, nodes, record_cluster, recorded

GPU_NODES, CPU_NODES, JOBS = 960, 40, 200
REPEATS = 3
TARGET_REQUESTS = 10
TARGET_SECONDS = 10.0
IMAGES_PER_NODE = 30
MPIJOBS = "/apis/kubeflow.org/v2beta1/namespaces/vision/mpijobs"
PODS = "/api/v1/namespaces/vision/pods"
JOB_PATHS = (MPIJOBS, PODS)


def _heavy(node: Any) -> Any:
    """A node with as many images in its status as a busy real one."""
    image = node["status"]["images"][0]
    node["status"]["images"] = [
        {"names": [f"{name}-{index}" for name in image["names"]], "sizeBytes": 1 << 30}
        for index in range(IMAGES_PER_NODE)
    ]
    return node


def _jobs(api: RecordedApi) -> None:
    """200 MPIJobs and their pods, as ``status`` and ``results collect`` would list them."""
    job = recorded("../mpijob-imagenet-tensorflow.json")
    jobs = []
    for index in range(JOBS):
        item = dict(job, metadata=dict(job["metadata"], name=f"imagenet-{index:03d}"))
        jobs.append(item)
    api.paged(MPIJOBS, "MPIJobList", "kubeflow.org/v2beta1", jobs)
    pod = recorded("../pods-imagenet-tensorflow-launcher.json")
    pod = pod[0] if isinstance(pod, list) else pod
    pods = [
        dict(pod, metadata=dict(pod["metadata"], name=f"imagenet-{index // 5:03d}-{index % 5}"))
        for index in range(JOBS * 5)
    ]
    api.paged(PODS, "PodList", "v1", pods)


def cluster() -> RecordedApi:
    """The recorded API of a 1,000-node, 200-job cluster."""
    api = RecordedApi()
    shape = Shape(gpu_nodes=GPU_NODES, cpu_nodes=CPU_NODES)
    api.paged(NODES, "NodeList", "v1", [_heavy(node) for node in nodes(shape)])
    record_cluster(api, shape)
    _jobs(api)
    return api


def main() -> None:
    """Print the requests and the median whole-process time of ``inspect``, per format."""
    api = cluster()
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch) / "project"
        project.mkdir()
        copy_project(project, ("Pulumi.yaml", "stacks", "experiments"))
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        for url in serve(api):
            config = kubeconfig(Path(scratch) / "aiacc.kubeconfig", url)
            for output in ("text", "json"):
                seconds, requests = [], []
                for _ in range(REPEATS):
                    before = len(api.seen)
                    args = ("inspect", "aiacc", "--kubeconfig", str(config), "--format", output)
                    seconds.append(trainstack_seconds(project, *args, env=environment))
                    requests.append(len(api.seen) - before)
                jobs_read = [p for p in api.seen if p.startswith(JOB_PATHS)]
                median = statistics.median(seconds)
                verdict = (
                    "ok"
                    if max(requests) < TARGET_REQUESTS and median < TARGET_SECONDS and not jobs_read
                    else "OVER TARGET"
                )
                print(
                    f"inspect_cluster: trainstack inspect of {GPU_NODES + CPU_NODES} nodes and "
                    f"{JOBS} jobs, {output}: {max(requests)} requests, median {median:.2f} s of "
                    f"{REPEATS}, max {max(seconds):.2f} s (targets < {TARGET_REQUESTS} requests, "
                    f"< {TARGET_SECONDS:.0f} s, no job or pod read: {verdict})"
                )


if __name__ == "__main__":
    main()
