"""The plan lists what deploying fetches from outside the cluster's region, with mirror keys."""

from __future__ import annotations

from tests.conftest import StackWriter
from tests.stack_helpers import example_config
from trainstack.plan.model import Plan
from trainstack.plan.outside import DEPLOYER, NODES, outside_pulls
from trainstack.plan.outside_pull import POPULATE_JOB
from trainstack.plan.runner import plan_stack

INSTALLER = "docker.io/alpine:3.21"
POPULATE = "stacks/Pulumi.imagenet.yaml: trainstack:dataStore.fileSystems[0].populate"


def _by_reference(plan: Plan) -> dict[str, tuple[str, str]]:
    return {pull.reference: (pull.by, pull.mirror) for pull in outside_pulls(plan)}


def test_the_accelerated_stack_lists_each_fetch_with_its_mirror_key(
    example_plans: dict[str, Plan],
) -> None:
    pulls = outside_pulls(example_plans["aiacc"])
    assert pulls == sorted(pulls)  # deterministic: by who fetches, then what
    found = {pull.reference: (pull.by, pull.mirror) for pull in pulls}
    assert found == {
        "https://raw.githubusercontent.com/kubeflow/mpi-operator/v0.8.2/deploy/v2beta1/"
        "mpi-operator.yaml": (DEPLOYER, "trainstack:operators.mpiOperator.manifestUrl"),
        "https://github.com/kubeflow/trainer//manifests/overlays/standalone?ref=v1.9.4": (
            DEPLOYER,
            "trainstack:operators.trainingOperator.kustomization",
        ),
        "oci://registry.k8s.io/kueue/charts/kueue:0.19.2": (
            DEPLOYER,
            "trainstack:queueing.chart.repo",
        ),
        "docker.io/mpioperator/mpi-operator:0.8.2": (
            NODES,
            "trainstack:operators.mpiOperator.images",
        ),
        "ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489": (
            NODES,
            "trainstack:operators.trainingOperator.images",
        ),
        # what training-operator adds to PyTorch workers: no object of the install names
        # it, the stack's `images` reaches the controller as --pytorch-init-container-image
        "docker.io/alpine:3.10": (NODES, "trainstack:operators.trainingOperator.images"),
        "registry.k8s.io/kueue/kueue:v0.19.2": (
            NODES,
            "trainstack:queueing.values.controllerManager.manager.image",
        ),
        "kubeflow/pytorch-dist-mnist:latest": (
            NODES,
            "experiments/pytorch-ddp-mnist.yaml: job.image.name",
        ),
        # the populate Job's source, its bucket and region placeholders: not known to be
        # in cn-beijing (tests/plan/test_outside_data.py for the other sources)
        "oss://<OSS bucket holding the ImageNet TFRecords>/<prefix of train/ and validation/ "
        "in the bucket, e.g. imagenet/tfrecords>/": (
            POPULATE_JOB,
            f"{POPULATE}.source (bucket, region, endpoint)",
        ),
        # the working copy of workload 1's scripts the populate command clones
        "https://github.com/Jason-Jongjin-Lim/tensorflow-imagenet.git": (
            POPULATE_JOB,
            f"{POPULATE}.command",
        ),
        # trainstack health's DCGM image (its nccl-tests one is unset until built)
        "nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04@<sha256 digest of "
        "nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04>": (
            NODES,
            "trainstack:health.images.dcgm",
        ),
    }
    # workload 1's image is in the cluster's own region (Container Registry, cn-beijing)
    assert not any("cn-beijing.cr.aliyuncs.com" in reference for reference in found)


def test_the_trainers_runtime_installer_hook_and_its_mirror(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["trainer"] = {"version": "2.3.0"}
    pulls = outside_pulls(plan_stack(write_stack(config), "test"))
    (hook,) = [pull for pull in pulls if pull.reference == INSTALLER]
    assert hook.by == NODES
    assert "runtime installer hook" in hook.what and "apk add --no-cache kubectl" in hook.what
    assert hook.mirror == "trainstack:operators.trainer.values.runtimes.installer.image"
    assert "oci://ghcr.io/kubeflow/charts/kubeflow-trainer:2.3.0" in {p.reference for p in pulls}


def test_mirrors_in_the_region_leave_the_list(write_stack: StackWriter) -> None:
    acr = "registry-vpc.cn-beijing.aliyuncs.com/team"
    config = example_config("aiacc")
    operators = config["trainstack:operators"]
    operators["mpiOperator"]["images"] = {"mpioperator/mpi-operator:0.8.2": f"{acr}/mpi:0.8.2"}
    operators["mpiOperator"]["manifestUrl"] = (
        "https://team.oss-cn-beijing-internal.aliyuncs.com/mpi-operator.yaml"
    )
    operators["trainingOperator"]["images"] = {"alpine:3.10": f"{acr}/alpine:3.10"}
    operators["trainer"] = {
        "version": "2.3.0",
        "chartRepo": "oci://team-registry-vpc.cn-beijing.cr.aliyuncs.com/charts",
        "values": {
            "runtimes": {
                "installer": {"image": {"registry": acr, "repository": "alpine", "tag": "3.21"}}
            }
        },
    }
    found = _by_reference(plan_stack(write_stack(config), "test"))
    assert INSTALLER not in found
    assert "docker.io/alpine:3.10" not in found
    assert not any(reference.startswith(acr) for reference in found)
    assert not any("mpi-operator" in reference for reference in found)
    assert not any("kubeflow-trainer" in reference for reference in found)
    # what the stack did not mirror is still there
    assert "ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.3.0" in found


def test_health_images_are_listed_until_mirrored_in_the_region(write_stack: StackWriter) -> None:
    acr = "registry-vpc.cn-beijing.aliyuncs.com/team"
    config = example_config("aiacc")
    config["trainstack:health"] = {
        "images": {
            "dcgm": f"{acr}/dcgm:4.2.3-1-ubuntu22.04@sha256:" + "1" * 64,
            "ncclTests": "docker.io/team/nccl-tests:2.19.6@sha256:" + "2" * 64,
        }
    }
    found = _by_reference(plan_stack(write_stack(config), "test"))
    assert not any(reference.startswith(acr) for reference in found)
    assert found["docker.io/team/nccl-tests:2.19.6@sha256:" + "2" * 64] == (
        NODES,
        "trainstack:health.images.ncclTests",
    )


def test_on_an_existing_cluster_every_outside_source_is_listed(
    example_plans: dict[str, Plan],
) -> None:
    found = _by_reference(example_plans["onprem"])
    assert found["nvcr.io/nvidia/tensorflow:20.03-tf1-py3"] == (
        NODES,
        "experiments/horovod-resnet50-onprem.yaml: job.image.name",
    )
