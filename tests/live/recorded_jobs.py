"""The recorded jobs of the aiacc stack's cluster: what the API server answers trainstack's
calls for them.

On the cluster: imagenet-tensorflow run 1 succeeded (its launcher pod kept, workers
cleaned up; its preflight printed the manifest of imagenet-data); keras-lstm-1x4 running;
keras-lstm-1x1 succeeded with its pods gone; keras-lstm-1x2 succeeded, its launcher
listed but deleted before its log is read (404);
keras-lstm-4x1 failed: a worker's preflight failed, then the launcher's (it could not
resolve that worker) on each of its two pods, kept (restartPolicy Never) as is the failed
worker (cleanPodPolicy Running); keras-lstm-2x1 not deployed; tf-multiworker-mnist
(training-operator's labels) succeeded; no PyTorchJob. The nodes and operators are those
of ``recorded_cluster``: imagenet-tensorflow's launcher ran on a CPU node,
tf-multiworker-mnist's chief and a worker on two GPU nodes, its other worker on a node
that has left the cluster. The populate Job of the dataset imagenet-data succeeded
(:func:`record_populate` records others).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.live.apiserver import RecordedApi, Route
from tests.live.recorded_cluster import Shape, record_cluster
from tests.metrics.test_formats import DATA as LOGS

MPIJOBS = "/apis/kubeflow.org/v2beta1/namespaces/vision/mpijobs"
TFJOBS = "/apis/kubeflow.org/v1/namespaces/nlp/tfjobs"
PYTORCHJOBS = "/apis/kubeflow.org/v1/namespaces/nlp/pytorchjobs"
VISION_PODS = "/api/v1/namespaces/vision/pods"
NLP_PODS = "/api/v1/namespaces/nlp/pods"
EXPERIMENT = "trainstack.io/experiment"
JOB, ROLE = "training.kubeflow.org/job-name", "training.kubeflow.org/job-role"
REPLICA_TYPE = "training.kubeflow.org/replica-type"
INSTANCE, COMPONENT = "app.kubernetes.io/instance", "app.kubernetes.io/component"
MPI = ("MPIJobList", "kubeflow.org/v2beta1")
SUBMITTED = "imagenet-tensorflow-k3x9q2-1"
"""A run ``trainstack run`` created (:func:`record_submitted_run`)."""
POD_LIST = ("PodList", "v1")
PREFLIGHT_LOG = "log-imagenet-tensorflow-preflight.txt"
MANIFEST = "sha256:4d1b7c9e0a2f3c5e6b8a9d0c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f"
"""The manifest digest imagenet-tensorflow's preflight printed for imagenet-data."""


def record_jobs(api: RecordedApi, shape: Shape | None = None) -> None:
    """The recorded jobs, pods and logs, and the nodes and operators of ``shape``."""
    jobs = {
        name: f"mpijob-{name}.json"
        for name in (
            "imagenet-tensorflow",
            "keras-lstm-1x4",
            "keras-lstm-1x1",
            "keras-lstm-1x2",
            "keras-lstm-4x1",
        )
    }
    api.list(MPIJOBS, EXPERIMENT, *MPI, *jobs.values())
    for name in jobs:
        api.list(MPIJOBS, f"{EXPERIMENT}={name}", *MPI, jobs[name])
    api.list(MPIJOBS, f"{EXPERIMENT}=keras-lstm-2x1", *MPI)
    api.list(TFJOBS, EXPERIMENT, "TFJobList", "kubeflow.org/v1", "tfjob-tf-multiworker-mnist.json")
    api.list(
        TFJOBS,
        f"{EXPERIMENT}=tf-multiworker-mnist",
        "TFJobList",
        "kubeflow.org/v1",
        "tfjob-tf-multiworker-mnist.json",
    )
    api.list(PYTORCHJOBS, EXPERIMENT, "PyTorchJobList", "kubeflow.org/v1")
    api.list(PYTORCHJOBS, f"{EXPERIMENT}=pytorch-ddp-mnist", "PyTorchJobList", "kubeflow.org/v1")

    launcher = "pods-imagenet-tensorflow-launcher.json"
    api.list(VISION_PODS, f"{JOB}=imagenet-tensorflow", *POD_LIST, launcher)
    api.list(VISION_PODS, f"{JOB}=imagenet-tensorflow,{ROLE}=launcher", *POD_LIST, launcher)
    api.list(VISION_PODS, f"{JOB}=keras-lstm-1x4", *POD_LIST, "pods-keras-lstm-1x4.json")
    api.list(VISION_PODS, f"{JOB}=keras-lstm-4x1", *POD_LIST, "pods-keras-lstm-4x1.json")
    failed_launchers = api.items("pods-keras-lstm-4x1.json")[:2]
    api.list_of(VISION_PODS, f"{JOB}=keras-lstm-4x1,{ROLE}=launcher", *POD_LIST, failed_launchers)
    running = api.items("pods-keras-lstm-1x4.json")[:1]
    api.list_of(VISION_PODS, f"{JOB}=keras-lstm-1x4,{ROLE}=launcher", *POD_LIST, running)
    for selector in (
        f"{JOB}=keras-lstm-1x1",
        f"{JOB}=keras-lstm-1x1,{ROLE}=launcher",
        f"{INSTANCE}=keras-lstm-1x1",
        f"{INSTANCE}=keras-lstm-1x1,{COMPONENT}=launcher",
    ):
        api.list(VISION_PODS, selector, *POD_LIST)
    api.list(VISION_PODS, f"{JOB}=keras-lstm-1x2", *POD_LIST, "pods-keras-lstm-1x2-launcher.json")
    api.list(
        VISION_PODS,
        f"{JOB}=keras-lstm-1x2,{ROLE}=launcher",
        *POD_LIST,
        "pods-keras-lstm-1x2-launcher.json",
    )
    tf_pods = api.items("pods-tf-multiworker-mnist.json")
    api.list(NLP_PODS, f"{JOB}=tf-multiworker-mnist", *POD_LIST, "pods-tf-multiworker-mnist.json")
    api.list_of(
        NLP_PODS, f"{JOB}=tf-multiworker-mnist,{REPLICA_TYPE}=chief", *POD_LIST, tf_pods[:1]
    )

    api.log(
        f"{VISION_PODS}/imagenet-tensorflow-launcher/log",
        "launcher",
        LOGS / "tf-cnn-benchmarks-aiacc.log",
    )
    # its preflight's lines: the manifest of the dataset it read, then the pass
    api.log(f"{VISION_PODS}/imagenet-tensorflow-launcher/log", "preflight", PREFLIGHT_LOG)
    api.log(
        f"{VISION_PODS}/keras-lstm-1x4-launcher/log", "launcher", "log-keras-lstm-1x4-launcher.txt"
    )
    api.log(
        f"{VISION_PODS}/keras-lstm-1x2-launcher/log", "launcher", "status-404-pod-log.json", 404
    )
    api.log(f"{NLP_PODS}/tf-multiworker-mnist-chief-0/log", "tensorflow", LOGS / "katib-mnist.log")
    # Its preflight failed, so the launcher's container never started: the API server
    # refuses its log (kubelet: "is waiting to start: PodInitializing", 400 BadRequest).
    api.log(
        f"{VISION_PODS}/keras-lstm-4x1-launcher-8vq2x/log",
        "launcher",
        "status-400-pod-initializing.json",
        400,
    )
    # What `results collect` reads of the nodes and operators (and `inspect` of the rest).
    record_cluster(api, shape)
    record_populate(api, "job-populate-succeeded.json")


POPULATE_JOB = "/apis/batch/v1/namespaces/vision/jobs/populate-imagenet-data"
POPULATE_PODS = "batch.kubernetes.io/job-name=populate-imagenet-data"


def record_populate(
    api: RecordedApi, job: str, pods: str | None = None, log: str | None = None
) -> None:
    """The populate Job of the dataset imagenet-data (the aiacc stack runs it), its pods
    (none: deleted with the Job) and its pod's log, answered before any earlier recording."""
    routes = api.routes
    api.routes = []
    api.object(POPULATE_JOB, api.items(job)[0])
    api.list(VISION_PODS, POPULATE_PODS, *POD_LIST, *([pods] if pods else []))
    if log is not None and pods is not None:
        pod = api.items(pods)[-1]["metadata"]["name"]
        api.log(f"{VISION_PODS}/{pod}/log", "populate", log)
    api.routes += routes


def record_submitted_run(
    recorded: RecordedApi, tmp_path: Path, overrides: str, digest: str
) -> None:
    """A run of ``trainstack run`` of imagenet-tensorflow beside its deployed run 1, created
    after it: its job (with ``overrides`` and ``digest``), its launcher and its log (the
    run 1 log with one more line, kept in ``tmp_path``)."""
    route = next(
        r
        for r in recorded.routes
        if r.path == MPIJOBS and r.query["labelSelector"] == f"{EXPERIMENT}=imagenet-tensorflow"
    )
    listed = json.loads(route.body)
    job = json.loads(json.dumps(listed["items"][0]))
    metadata = job["metadata"]
    metadata.update(name=SUBMITTED, uid="uid-run", creationTimestamp="2024-05-07T09:00:00Z")
    metadata["labels"].update(
        {"trainstack.io/submitted-by": "trainstack-run", "trainstack.io/stack": "aiacc"}
    )
    metadata["annotations"] = {
        "trainstack.io/base-values-digest": digest,
        "trainstack.io/overrides": overrides,
    }
    listed["items"].append(job)
    route.body = json.dumps(listed).encode()
    pods = recorded.items("pods-imagenet-tensorflow-launcher.json")
    pod = json.loads(
        json.dumps(pods[0]).replace("imagenet-tensorflow-launcher", f"{SUBMITTED}-launcher")
    )
    pod["metadata"]["labels"][JOB] = SUBMITTED
    for selector in (f"{JOB}={SUBMITTED}", f"{JOB}={SUBMITTED},{ROLE}=launcher"):
        recorded.list_of(VISION_PODS, selector, "PodList", "v1", [pod])
    recorded.log(f"{VISION_PODS}/{SUBMITTED}-launcher/log", "preflight", PREFLIGHT_LOG)
    log = tmp_path / "run.log"
    log.write_bytes((LOGS / "tf-cnn-benchmarks-aiacc.log").read_bytes() + b"another run\n")
    recorded.routes.append(
        Route(
            f"{VISION_PODS}/{SUBMITTED}-launcher/log",
            {"container": "launcher"},
            body=log.read_bytes(),
            content_type="text/plain",
        )
    )
