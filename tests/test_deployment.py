"""The program itself: placeholders never reach a real deployment; the plan lists them."""

from __future__ import annotations

import pulumi
import pytest

from tests.stack_helpers import REPO
from trainstack.config.pulumi_config import read_stack_file
from trainstack.core.project import Project
from trainstack.deployment import Deployment, experiment_placeholders, hand_over, handed_over
from trainstack.plan.engine import run_program
from trainstack.plan.model import Plan

KEY_PAIR = "<ECS key pair the nodes accept (create it in cn-beijing)>"
# The cluster and pools are written in the template both ACK stacks share: their
# placeholders are named there, at the template's own keys.
TEMPLATE = "stacks/templates/workload-1-ack.yaml"
AIACC_PLACEHOLDERS = [
    (
        f"{TEMPLATE}: cluster.create.network.podVswitchIds[0]",
        "<vSwitch ID for the pods' IPs (same zone as the GPU nodes)>",
    ),
    (
        f"{TEMPLATE}: cluster.create.version",
        "<exact 1.35 release ACK offers, x.y.z-aliyun.n, from the console when creating a cluster>",
    ),
    (f"{TEMPLATE}: cluster.vpcId", "<VPC ID of both clusters (the ImageNet NAS is in it)>"),
    (f"{TEMPLATE}: cluster.vswitchIds[0]", "<vSwitch ID of the GPU nodes>"),
    (f"{TEMPLATE}: nodePools[0].login.keyName", KEY_PAIR),
    (f"{TEMPLATE}: nodePools[1].login.keyName", KEY_PAIR),
    (
        "trainstack:acceleration.component.name",
        "<name of the AI Acceleration component as ACK lists it on this cluster>",
    ),
    ("trainstack:acceleration.component.version", "<its exact version on this cluster>"),
    (
        "trainstack:operators.mpiOperator.manifestSha256",
        "<sha256 of mpi-operator v0.8.2 deploy/v2beta1/mpi-operator.yaml>",
    ),
]
# The data the stack mounts is filled by a Job this stack runs: its image is to set too.
_POPULATE = "stacks/Pulumi.imagenet.yaml: trainstack:dataStore.fileSystems[0].populate"
POPULATE_PLACEHOLDERS = [
    (f"{_POPULATE}.image", "<image with ossutil 1.7, coreutils and git>"),
    (f"{_POPULATE}.source.bucket", "<OSS bucket holding the ImageNet TFRecords>"),
    (
        f"{_POPULATE}.source.prefix",
        "<prefix of train/ and validation/ in the bucket, e.g. imagenet/tfrecords>",
    ),
    (f"{_POPULATE}.source.region", "<region of the bucket, e.g. cn-beijing>"),
]


# The Keras/LSTM script of workload 4 is the team's own: no published image holds it.
KERAS_IMAGE = (
    "experiments/keras-lstm-scaling.yaml: job.image.name",
    "<image with /opt/examples/keras_lstm.py, built FROM horovod/horovod:0.28.1>",
)
# Workload 1's image with mpi-operator's ssh setup, built from images/aiacc-ssh/Dockerfile.
IMAGENET_IMAGE = (
    "experiments/imagenet-tensorflow.yaml: job.image.name",
    "<image built from images/aiacc-ssh/Dockerfile (FROM "
    "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0)>",
)
# The MNIST example's published image has no CUDA: its CUDA-enabled image is built here.
MNIST_IMAGE = (
    "experiments/tf-multiworker-mnist.yaml: job.image.name",
    "<image built from images/tf-multiworker-mnist/Dockerfile (FROM "
    "tensorflow/tensorflow:2.11.0-gpu)>",
)


def test_the_plan_lists_every_placeholder_to_set(example_plans: dict[str, Plan]) -> None:
    assert example_plans["aiacc"].stack.placeholders() == AIACC_PLACEHOLDERS
    assert [key for key, _ in example_plans["imagenet"].stack.placeholders()] == [
        "trainstack:dataStore.fileSystems[0].populate.image",
        "trainstack:dataStore.fileSystems[0].populate.source.bucket",
        "trainstack:dataStore.fileSystems[0].populate.source.prefix",
        "trainstack:dataStore.fileSystems[0].populate.source.region",
        "trainstack:dataStore.fileSystems[0].vswitchId",
        "trainstack:dataStore.fileSystems[0].zoneId",
        "trainstack:dataStore.vpcId",
    ]
    # once per file, though the matrix has five points
    assert experiment_placeholders(example_plans["aiacc"].experiments) == [
        IMAGENET_IMAGE,
        KERAS_IMAGE,
        MNIST_IMAGE,
    ]
    onprem = dict(example_plans["onprem"].stack.placeholders())
    assert sorted(onprem) == [
        "trainstack:datasets[0].source.server",
        "trainstack:datasets[1].source.server",
        "trainstack:datasets[2].source.server",
        "trainstack:operators.mpiOperator.manifestSha256",
    ]


def test_a_real_run_of_the_program_refuses_placeholders_one_line_per_key() -> None:
    """Outside `trainstack plan` (what `pulumi preview`/`up` run), nothing is registered."""
    project = Project.load(REPO)
    stack_file = read_stack_file(project, "aiacc")
    with pytest.raises(pulumi.RunError) as caught:
        run_program(
            project.main_program, project.name, "aiacc", stack_file.config, stack_file.secret_keys
        )
    lines = str(caught.value).splitlines()
    assert lines[0] == (
        "stacks/Pulumi.aiacc.yaml still has 16 placeholder(s); set before deploying:"
    )
    placeholders = [
        *AIACC_PLACEHOLDERS,
        *POPULATE_PLACEHOLDERS,
        IMAGENET_IMAGE,
        KERAS_IMAGE,
        MNIST_IMAGE,
    ]
    # Each where it is written, the line as the files hold it (read from them by hand).
    written_at = [
        f"{TEMPLATE}:39",
        f"{TEMPLATE}:27",
        f"{TEMPLATE}:16",
        f"{TEMPLATE}:19",
        f"{TEMPLATE}:87",
        f"{TEMPLATE}:102",
        "stacks/Pulumi.aiacc.yaml:165",
        "stacks/Pulumi.aiacc.yaml:166",
        "stacks/Pulumi.aiacc.yaml:77",
        "stacks/Pulumi.imagenet.yaml:52",
        "stacks/Pulumi.imagenet.yaml:55",
        "stacks/Pulumi.imagenet.yaml:56",
        "stacks/Pulumi.imagenet.yaml:57",
        "experiments/imagenet-tensorflow.yaml:31",
        "experiments/keras-lstm-scaling.yaml:33",
        "experiments/tf-multiworker-mnist.yaml:19",
    ]
    assert lines[1:] == [
        f"  - {where}: {key.rpartition(': ')[2]}: {value}"
        for where, (key, value) in zip(written_at, placeholders, strict=True)
    ]


def test_the_plan_hands_its_deployment_to_the_program_for_one_run_only(
    example_plans: dict[str, Plan],
) -> None:
    deployment = Deployment(example_plans["aiacc"].stack)
    assert handed_over() is None  # `pulumi up`: the program prepares the stack itself
    with hand_over(deployment):
        handed = handed_over()
        assert handed is not None
        assert (handed.stack, handed.offline) == (deployment.stack, True)
    assert handed_over() is None
