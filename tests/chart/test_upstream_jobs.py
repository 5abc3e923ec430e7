"""Real jobs nobody here wrote, written as experiments: each renders the upstream object
field by field (after the operators' and Kubernetes' defaults; see tests/chart/upstream.py
for what is set aside and why).

Covered: the mpi-operator v2beta1 examples, the training-operator v1.8/v1.9 TFJob and
PyTorchJob examples (elastic and Worker-only included), a published RDMA PyTorchJob, and
Arena's rendered TFJob (with TensorBoard and git code sync) and PyTorchJob (git code sync,
per-role restart policy), both with ``arenaSubmit`` instead of Arena's env copied by hand.
Arena's MPI jobs (ack-arena's MPIJob ``kubeflow.org/v1alpha1``) are compared in
tests/chart/test_arena_submit.py. Not covered, and why:

- Arena's MPIJob and TFJob (role selectors) with TensorBoard on local logs: their logs are
  a node directory on the workers only, and TensorBoard is pinned to worker 0's node to
  read it; trainstack's TensorBoard reads a claim, and host paths go to every training pod.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.chart.upstream import UPSTREAM_DIR_ENV, as_applied, read_objects, upstream_dir
from tests.conformance import crd_dir, validate_objects
from trainstack.chart.render import render_training_job


@dataclass(frozen=True)
class Case:
    """An upstream manifest and the experiment that says the same."""

    path: str
    job: dict[str, Any]
    namespace: str = "default"
    kinds: tuple[str, ...] = ()
    """The kinds compared (default: the job only)."""
    deviations: dict[str, str] = field(default_factory=dict)
    """Differences kept on purpose, by what they are; applied by ``_deviate``."""


def _mpi(name: str, pull: str = "IfNotPresent", **job: Any) -> dict[str, Any]:
    # the launcher's restart policy these jobs leave to the operator (OnFailure,
    # pkg/apis/kubeflow/v2beta1/default.go); trainstack's default is Never
    run_policy = {"restartPolicy": "OnFailure", **job.pop("runPolicy", {})}
    return {
        "framework": "mpi",
        "image": {"name": name, "pullPolicy": pull},
        "shm": {"enabled": False},
        "runPolicy": run_policy,
        **job,
    }


def _tf(name: str, **job: Any) -> dict[str, Any]:
    return {
        "framework": "tensorflow",
        "image": {"name": name, "pullPolicy": "Always"},
        "tensorflow": {"chief": {"replicas": 0}},
        "runPolicy": {"cleanPodPolicy": "None", "restartPolicy": "Never"},
        "shm": {"enabled": False},
        **job,
    }


def _pytorch(name: str, pull: str = "IfNotPresent", **job: Any) -> dict[str, Any]:
    return {
        "framework": "pytorch",
        "image": {"name": name, "pullPolicy": pull},
        "runPolicy": {"cleanPodPolicy": "None"},
        "shm": {"enabled": False},
        **job,
    }


PI = "/home/mpiuser"
PI_SSHD = ["-De", "-f", f"{PI}/.sshd_config"]
ONE_CPU = {"limits": {"cpu": "1", "memory": "1Gi"}}
HOROVOD_MPIRUN = [
    "-np", "2", "--allow-run-as-root", "-bind-to", "none", "-map-by", "slot", "-x",
    "LD_LIBRARY_PATH", "-x", "PATH", "-mca", "pml", "ob1", "-mca", "btl", "^openib",
]  # fmt: skip
TF_BENCHMARKS = [
    "mpirun", "--allow-run-as-root", "-np", "2", "-bind-to", "none", "-map-by", "slot",
    "-x", "NCCL_DEBUG=INFO", "-x", "LD_LIBRARY_PATH", "-x", "PATH", "-mca", "pml", "ob1",
    "-mca", "btl", "^openib", "python", "scripts/tf_cnn_benchmarks/tf_cnn_benchmarks.py",
    "--model=resnet101", "--batch_size=64", "--variable_update=horovod",
]  # fmt: skip
YOLO_SCRIPT = (
    "apt-get update -qq && apt-get install -y -qq libibverbs1 ibverbs-providers librdmacm1\n"
    'export PET_RDZV_CONF=is_host=$(if [ $REPLICA_INDEX == 0 ]; then echo "true"; else echo '
    '"false"; fi)\n'
    "torchrun \\\n--local_addr=$POD_NAME \\\n--nproc_per_node=1 \\\n--rdzv-conf=$PET_RDZV_CONF "
    "\\\ntrain.py \\\n--batch-size=32 \\\n--epochs=100 \\\n--data=coco128.yaml \\\n"
    "--weights=datasets/weights/yolov5s.pt\n"
)
YOLO_NCCL = {
    "LOGLEVEL": "DEBUG",
    "NCCL_DEBUG": "INFO",
    "NCCL_IB_SPLIT_DATA_ON_QPS": "0",
    "NCCL_IB_QPS_PER_CONNECTION": "4",
    "NCCL_IB_GID_INDEX": "3",
    "NCCL_IB_HCA": "=mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7,mlx5_8,mlx5_14,mlx5_15,"
    "mlx5_16,mlx5_17,mlx5_9,mlx5_10,mlx5_11,mlx5_12",
    "NCCL_IB_TC": "41",
    "NCCL_IB_SL": "0",
    "NCCL_IB_TIMEOUT": "22",
    "REPLICA_INDEX": {
        "valueFrom": {
            "fieldRef": {"fieldPath": "metadata.labels['training.kubeflow.org/replica-index']"}
        }
    },
    "POD_NAME": {"valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
}
ARENA_COPIES_ENV = "Arena copies the job's env into its init container; trainstack does not"
ARENA_PINS_TENSORBOARD = (
    "Arena pins TensorBoard to the chief's node (for its local-log mode); reading a claim "
    "needs no affinity"
)

CASES: dict[str, Case] = {
    "mpi-operator pi": Case(
        "mpi-operator/examples/v2beta1/pi/pi.yaml",
        _mpi(
            "mpioperator/mpi-pi:openmpi",
            command=["mpirun"],
            args=["-n", "2", f"{PI}/pi"],
            worker={"replicas": 2, "resources": ONE_CPU},
            security={"runAsUser": 1000},
            mpi={
                "sshAuthMountPath": f"{PI}/.ssh",
                "workerCommand": ["/usr/sbin/sshd"],
                "workerArgs": PI_SSHD,
                "launcher": {"resources": ONE_CPU},
            },
            runPolicy={"ttlSecondsAfterFinished": 60},
        ),
    ),
    **{
        f"mpi-operator pi ({implementation})": Case(
            f"mpi-operator/examples/v2beta1/pi/pi-{implementation.lower()}.yaml",
            _mpi(
                f"mpioperator/mpi-pi:{implementation.lower()}",
                image={
                    "name": f"mpioperator/mpi-pi:{implementation.lower()}",
                    "pullPolicy": "Always",
                },
                args=["mpirun", "-n", "2", f"{PI}/pi"],
                worker={
                    "replicas": 2,
                    "resources": ONE_CPU,
                    "readinessProbe": {"tcpSocket": {"port": 2222}, "initialDelaySeconds": 2},
                },
                security={"runAsUser": 1000},
                mpi={
                    "implementation": implementation,
                    "sshAuthMountPath": f"{PI}/.ssh",
                    "workerCommand": None,
                    "workerArgs": ["/usr/sbin/sshd", *PI_SSHD],
                    "launcher": {"resources": ONE_CPU},
                },
            ),
        )
        for implementation in ("Intel", "MPICH")
    },
    "mpi-operator horovod mnist": Case(
        "mpi-operator/examples/v2beta1/horovod/tensorflow-mnist.yaml",
        _mpi(
            "docker.io/kubeflow/mpi-horovod-mnist",
            "Always",
            command=["mpirun"],
            args=[*HOROVOD_MPIRUN, "python", "/examples/tensorflow_mnist.py"],
            worker={"replicas": 2, "resources": {"limits": {"cpu": 2, "memory": "4Gi"}}},
            mpi={
                "workerCommand": None,
                "launcher": {"resources": {"limits": {"cpu": 1, "memory": "2Gi"}}},
            },
        ),
    ),
    "mpi-operator tensorflow benchmarks": Case(
        "mpi-operator/examples/v2beta1/tensorflow-benchmarks/tensorflow-benchmarks.yaml",
        _mpi(
            "mpioperator/tensorflow-benchmarks:latest",
            "Always",
            command=TF_BENCHMARKS,
            worker={"replicas": 2, "gpus": 1},
            mpi={"workerCommand": None},
        ),
    ),
    "training-operator tfjob simple": Case(
        "training-operator/examples/tensorflow/simple.yaml",
        _tf(
            "kubeflow/tf-mnist-with-summaries:latest",
            command=["python", "/var/tf_mnist/mnist_with_summaries.py"],
            worker={"replicas": 2},
            runPolicy={"cleanPodPolicy": "None", "restartPolicy": "OnFailure"},
        ),
        namespace="kubeflow",
    ),
    "training-operator tfjob dist-mnist": Case(
        "training-operator/examples/tensorflow/dist-mnist/tf_job_mnist.yaml",
        _tf(
            "kubeflow/tf-dist-mnist-test:latest",
            worker={"replicas": 4},
            tensorflow={"chief": {"replicas": 0}, "ps": {"replicas": 2}},
        ),
    ),
    "training-operator tfjob keras multi-worker": Case(
        "training-operator/examples/tensorflow/distribution_strategy/keras-API/multi_worker_tfjob.yaml",
        _tf(
            "kubeflow/tf-multi-worker-strategy:latest",
            worker={"replicas": 2, "gpus": 1},
            datasets=[{"claimName": "strategy-volume", "mountPath": "/train", "readOnly": False}],
        ),
    ),
    "training-operator tfjob estimator": Case(
        "training-operator/examples/tensorflow/distribution_strategy/estimator-API/distributed_tfjob.yaml",
        _tf(
            "kubeflow/tf-distributed-worker:latest",
            worker={"replicas": 3},
            podAnnotations={"scheduling.k8s.io/group-name": "distributed-training"},
        ),
    ),
    "training-operator tfjob mnist with summaries": Case(
        "training-operator/examples/tensorflow/mnist_with_summaries/tf_job_mnist.yaml",
        _tf(
            "kubeflow/tf-mnist-with-summaries:latest",
            command=[
                "python",
                "/var/tf_mnist/mnist_with_summaries.py",
                "--log_dir=/train/logs",
                "--learning_rate=0.01",
                "--batch_size=150",
            ],
            worker={"replicas": 1},
            datasets=[{"claimName": "tfevent-volume", "mountPath": "/train", "readOnly": False}],
        ),
        namespace="kubeflow",
    ),
    "training-operator pytorchjob simple": Case(
        "training-operator/examples/pytorch/simple.yaml",
        _pytorch(
            "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727",
            pull="Always",
            command=["python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1"],
            worker={"replicas": 2},  # Master + 1 Worker: the master counts, as in Arena
        ),
        namespace="kubeflow",
    ),
    "training-operator pytorchjob mnist nccl": Case(
        "training-operator/examples/pytorch/mnist/v1/pytorch_job_mnist_nccl.yaml",
        _pytorch(
            "kubeflow/pytorch-dist-mnist:latest",
            pull="Always",
            args=["--backend", "nccl"],
            worker={"replicas": 2, "gpus": 1},
        ),
    ),
    "training-operator pytorchjob cpu demo": Case(
        "training-operator/examples/pytorch/cpu-demo/demo.yaml",
        _pytorch(
            "pytorch-cpu:py3.8",
            command=["torchrun", "demo.py"],
            worker={"replicas": 2},
            pytorch={"nprocPerNode": "2"},
        ),
    ),
    "training-operator pytorchjob sendrecv": Case(
        "training-operator/examples/pytorch/smoke-dist/pytorch_job_sendrecv.yaml",
        _pytorch(
            "kubeflow/pytorch-dist-sendrecv-test:latest",
            pull="Always",
            worker={"replicas": 4},
        ),
    ),
    "training-operator pytorchjob deepspeed": Case(
        "training-operator/examples/pytorch/deepspeed-demo/pytorch_deepspeed_demo.yaml",
        _pytorch(
            "kubeflow/pytorch-deepspeed-demo:latest",
            pull="Always",
            command=["torchrun", "/train_bert_ds.py", "--checkpoint_dir", "/root/deepspeed_data"],
            worker={"replicas": 2, "gpus": 1},
        ),
    ),
    "training-operator elastic echo": Case(
        "training-operator/examples/pytorch/elastic/echo/echo.yaml",
        _pytorch(
            "kubeflow/pytorch-elastic-example-echo:latest",
            env={"LOGLEVEL": "DEBUG"},
            command=["python", "-m", "torch.distributed.run", "--rdzv_backend=c10d", "./echo.py"],
            worker={"replicas": 2},
            pytorch={
                "master": {"replicas": 0},
                "elasticPolicy": {
                    "rdzvBackend": "c10d",
                    "minReplicas": 1,
                    "maxReplicas": 2,
                    "maxRestarts": 100,
                },
            },
        ),
    ),
    "training-operator elastic imagenet": Case(
        "training-operator/examples/pytorch/elastic/imagenet/imagenet.yaml",
        _pytorch(
            "kubeflow/pytorch-elastic-example-imagenet:latest",
            env={"LOGLEVEL": "DEBUG"},
            command=[
                "python",
                "-m",
                "torch.distributed.run",
                "/workspace/examples/imagenet.py",
                "--arch=resnet18",
                "--epochs=1",
                "--batch-size=32",
                "--workers=0",
                "/workspace/data/tiny-imagenet-200",
            ],  # fmt: skip
            worker={"replicas": 2, "resources": {"requests": {"cpu": 4}}},
            pytorch={
                "master": {"replicas": 0},
                "elasticPolicy": {
                    "rdzvBackend": "c10d",
                    "minReplicas": 1,
                    "maxReplicas": 3,
                    "maxRestarts": 100,
                    "metrics": [
                        {
                            "type": "Resource",
                            "resource": {
                                "name": "cpu",
                                "target": {"type": "Utilization", "averageUtilization": 80},
                            },
                        }
                    ],
                },
            },
        ),
    ),
    "oci-hpc-oke yolov5 over RDMA": Case(
        "third-party/oci-hpc-oke/yolov5-training-c10d.yaml",
        _pytorch(
            "ultralytics/yolov5:latest",
            pull="Always",
            command=["/bin/bash"],
            args=["-c", YOLO_SCRIPT],
            env=YOLO_NCCL,
            worker={"replicas": 2, "gpus": 1},
            shm={"sizeLimit": None},
            hostPaths=[
                {"path": "/dev/infiniband", "mountPath": "/dev/infiniband", "readOnly": False}
            ],
            network={"hostNetwork": True},
            security={
                "hostIPC": True,
                "privileged": True,
                "capabilities": {"add": ["IPC_LOCK", "SYS_ADMIN"]},
            },
            pytorch={
                "master": {"replicas": 0},
                "elasticPolicy": {
                    "rdzvBackend": "c10d",
                    "minReplicas": 1,
                    "maxReplicas": 8,
                    "maxRestarts": 100,
                },
            },
        ),
    ),
    "arena tf estimator with TensorBoard and git sync": Case(
        "arena/arena-tf-estimator.arena-rendered.yaml",
        {
            "framework": "tensorflow",
            # Arena's env, pull policy, working dir and restart policies, with no copy by hand
            "arenaSubmit": True,
            "image": {"name": "tensorflow/tensorflow:1.9.0-devel-gpu"},
            "command": (
                "bash code/models/dist_mnist_estimator.sh --data_dir=/data/mnist/MNIST_data  "
                "--model_dir=/data/mnist/models"
            ),
            "worker": {"replicas": 1, "gpus": 1, "port": 22222},
            "tensorflow": {
                "chief": {"replicas": 1, "port": 22221},
                "ps": {"replicas": 1, "image": "tensorflow/tensorflow:1.9.0-devel", "port": 22223},
                "evaluator": {"replicas": 1, "gpus": 1},
            },
            "datasets": [{"claimName": "tfdata", "mountPath": "/data/mnist", "readOnly": False}],
            "codeSync": {
                "mode": "git",
                "git": {"repository": "https://github.com/cheyang/models.git"},
                "mountPath": "/root/code",
            },
            "tensorboard": {
                "enabled": True,
                "logDir": "/data/mnist/models",
                "serviceType": "NodePort",
                "resources": {
                    "requests": {"cpu": None, "memory": None},
                    "limits": {"memory": None},
                },
            },
        },
        kinds=("TFJob", "Deployment", "Service"),
        deviations={"init env": ARENA_COPIES_ENV, "tensorboard affinity": ARENA_PINS_TENSORBOARD},
    ),
    "arena pytorch with git sync and data": Case(
        "arena/arena-pytorch-distributed-data.arena-rendered.yaml",
        {
            "framework": "pytorch",
            "image": {
                "name": "registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:"
                "1.5.1-cuda10.1-cudnn7-runtime",
            },
            "arenaSubmit": True,
            "command": (
                "python /root/code/mnist-pytorch/mnist.py --backend gloo --data /mnist_data/data"
            ),
            # Arena's --workers=2 (its env `workers`): the master and 1 Worker
            "worker": {"replicas": 2, "gpus": 1},
            "datasets": [
                {"claimName": "pytorchdata", "mountPath": "/mnist_data", "readOnly": False}
            ],
            "codeSync": {
                "mode": "git",
                "git": {"repository": "https://code.aliyun.com/370272561/mnist-pytorch.git"},
                "mountPath": "/root/code",
            },
        },
        deviations={"init env": ARENA_COPIES_ENV},
    ),
}


WAITS_FOR_WORKERS = (
    "every v2beta1 MPIJob the chart renders states when its launcher is created: AtStartup "
    "unqueued (the API's default, which the upstream examples leave unset), "
    "WaitForWorkersReady queued (docs/mpi-transport.md)"
)


def _deviate(obj: dict[str, Any], case: Case) -> dict[str, Any]:
    """The upstream object without the differences ``case`` keeps on purpose (and
    ``WAITS_FOR_WORKERS``, kept by every MPIJob v2beta1)."""
    if (obj["kind"], obj.get("apiVersion")) == ("MPIJob", "kubeflow.org/v2beta1"):
        obj["spec"].setdefault("launcherCreationPolicy", "AtStartup")
    if "init env" in case.deviations and obj["kind"] in ("TFJob", "PyTorchJob"):
        key = "tfReplicaSpecs" if obj["kind"] == "TFJob" else "pytorchReplicaSpecs"
        for spec in obj["spec"][key].values():
            pod = spec["template"]["spec"]
            job_env = {item["name"] for item in pod["containers"][0].get("env", [])}
            for init in pod.get("initContainers", []):
                init["env"] = [item for item in init["env"] if item["name"] not in job_env]
    if "tensorboard affinity" in case.deviations and obj["kind"] == "Deployment":
        del obj["spec"]["template"]["spec"]["affinity"]
    return obj


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_experiment_renders_the_upstream_job(name: str) -> None:
    case = CASES[name]
    directory = upstream_dir()
    upstream = {obj["kind"]: obj for obj in read_objects(directory / case.path)}
    (job_kind,) = [kind for kind in upstream if kind not in ("Deployment", "Service")]
    release = upstream[job_kind]["metadata"]["name"]
    kinds = case.kinds or (job_kind,)
    rendered = {
        obj["kind"]: obj
        for obj in render_training_job(case.job, release=release, namespace=case.namespace)
    }

    assert sorted(rendered) == sorted(kinds)
    for kind in kinds:
        expected = as_applied(_deviate(upstream[kind], case))
        assert as_applied(rendered[kind], case.namespace) == expected, kind


def test_without_the_environment_variable_the_comparison_skips_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(UPSTREAM_DIR_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="TRAINSTACK_UPSTREAM_JOBS_DIR is not set"):
        upstream_dir()


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_experiments_render_objects_their_crds_accept(name: str) -> None:
    case = CASES[name]
    objects = render_training_job(case.job, release="upstream", namespace=case.namespace)
    assert validate_objects(objects, crd_dir()) == len(case.kinds or (1,))


def test_the_comparison_sees_a_difference() -> None:
    case = CASES["mpi-operator pi"]
    (upstream,) = read_objects(upstream_dir() / case.path)
    changed = {**case.job, "worker": {**case.job["worker"], "replicas": 3}}
    (rendered,) = render_training_job(changed, release="pi", namespace="default")
    assert as_applied(rendered) != as_applied(upstream)
    (rendered,) = render_training_job(case.job, release="pi", namespace="default")
    assert as_applied(rendered) != as_applied(upstream)  # WAITS_FOR_WORKERS
    assert as_applied(rendered) == as_applied(_deviate(upstream, case))
