"""An experiment's image facts: GPUs on an image without CUDA, MPI over ssh without sshd."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.experiment_helpers import Deployer, job, stack_config
from tests.stack_helpers import ARENA, REPO
from trainstack.core.errors import PlanCheckError
from trainstack.core.yaml.io import read_yaml
from trainstack.experiments.image_facts import ImageFacts, ssh_setup
from trainstack.plan.summary_cluster import image_lines

FILE = "experiments/00-imagenet-tensorflow.yaml: experiment imagenet-tensorflow"
UPSTREAM = "kubeflow/training-operator v1.8.1 keras-API/Dockerfile: FROM python:3.9"


def test_gpus_on_an_image_without_cuda_are_refused(deploy: Deployer) -> None:
    experiment = dict(job(), imageFacts={"cuda": False, "source": UPSTREAM})
    with pytest.raises(PlanCheckError) as caught:
        deploy(experiment)
    assert caught.value.failures == (
        f"{FILE}: imageFacts.cuda: the job asks for 16 GPU(s), but its image "
        "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0 has no CUDA libraries "
        f"(source: {UPSTREAM}): its framework cannot use the GPUs and trains on CPU while "
        "they sit idle; use a CUDA-enabled image (and say so here), or ask for no GPUs",
    )


def test_an_image_without_cuda_may_run_without_gpus(deploy: Deployer) -> None:
    experiment = job(worker={"replicas": 2, "gpus": 0})
    experiment["imageFacts"] = {"cuda": False, "source": UPSTREAM}
    (deployed,) = deploy(experiment).experiments
    assert deployed.image_facts is not None and deployed.image_facts.cuda is False


def test_mpi_over_ssh_on_an_image_without_sshd_is_refused(deploy: Deployer) -> None:
    experiment = dict(job(), imageFacts={"cuda": True, "sshd": False, "source": "checked"})
    with pytest.raises(PlanCheckError) as caught:
        deploy(experiment)
    assert caught.value.failures == (
        f"{FILE}: imageFacts.sshd: operators.mpiOperator (Kubeflow mpi-operator 0.8.2) starts "
        "ranks over ssh (MPIJob kubeflow.org/v2beta1: workers run /usr/sbin/sshd -De), but "
        "its image cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0 has no sshd "
        "(source: checked): the workers crash-loop or the launcher hangs; use an image with "
        "openssh-server and an ssh client",
    )


def test_mpi_through_kubectl_exec_needs_no_sshd(deploy: Deployer) -> None:
    # ack-arena's MPIJob v1alpha1 starts ranks with kubectl exec (docs/mpi-transport.md)
    experiment = job(security={"seccompProfile": None})
    experiment["imageFacts"] = {"cuda": True, "sshd": False, "source": "checked"}
    (deployed,) = deploy(experiment, config=stack_config(operators=ARENA)).experiments
    assert deployed.image_facts is not None and deployed.image_facts.sshd is False


def test_unverified_facts_are_shown_not_refused(deploy: Deployer) -> None:
    experiment = dict(job(), imageFacts={"cuda": True, "source": "workload 1"})
    deployment = deploy(experiment)
    assert image_lines(deployment.experiments) == [
        "image of imagenet-tensorflow (experiments/00-imagenet-tensorflow.yaml): "
        "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0: CUDA yes, sshd "
        "unverified (source: workload 1)"
    ]
    without = deploy(job()).experiments
    assert image_lines(without) == [
        "image of imagenet-tensorflow (experiments/00-imagenet-tensorflow.yaml): "
        "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0: no imageFacts (CUDA, "
        "sshd unverified)"
    ]


@pytest.mark.parametrize(
    "path", sorted((REPO / "experiments").glob("*.yaml")), ids=lambda p: p.stem
)
def test_every_example_records_its_images_facts_with_a_source(path: Path) -> None:
    document = read_yaml(path)
    facts = document["imageFacts"]
    assert facts["source"]
    gpus = document["job"].get("worker", {}).get("gpus", 0)
    assert facts["cuda"] is True or not gpus  # examples use the GPUs they ask for


def test_the_multi_worker_example_is_built_on_a_cuda_enabled_tensorflow() -> None:
    dockerfile = (REPO / "images" / "tf-multiworker-mnist" / "Dockerfile").read_text()
    lines = [line for line in dockerfile.splitlines() if line and not line.startswith("#")]
    assert lines[0] == "FROM tensorflow/tensorflow:2.11.0-gpu"
    # upstream's script at the tag the experiment cites, and its ENTRYPOINT
    assert any(
        line.startswith("ADD https://raw.githubusercontent.com/kubeflow/training-operator/v1.8.1/")
        for line in lines
    )
    experiment = read_yaml(REPO / "experiments" / "tf-multiworker-mnist.yaml")
    assert "images/tf-multiworker-mnist/Dockerfile" in experiment["job"]["image"]["name"]
    assert experiment["job"]["worker"]["gpus"] == 1  # workload 3: 1 GPU each


@pytest.mark.parametrize(
    "path", sorted((REPO / "experiments").glob("*.yaml")), ids=lambda p: p.stem
)
def test_an_image_built_by_the_project_names_a_dockerfile_of_it(path: Path) -> None:
    facts = read_yaml(path)["imageFacts"]
    build = facts.get("build")
    if build is None:
        return
    dockerfile = REPO / build
    assert dockerfile.is_file(), build
    # the experiment names it, still to be pushed (a placeholder, set before deploying)
    image = read_yaml(path)["job"]["image"]["name"]
    assert image.startswith("<") and build in image


def test_workload_ones_image_adds_mpi_operators_ssh_setup_to_arenas() -> None:
    """images/aiacc-ssh/Dockerfile: FROM the image Arena ran, each setting mpi-operator's
    base image adds (kubeflow/mpi-operator b10758da build/base/Dockerfile) written first
    in the configs (the first value read wins), the port of mpi.sshPort's default."""
    dockerfile = (REPO / "images" / "aiacc-ssh" / "Dockerfile").read_text()
    lines = [line for line in dockerfile.splitlines() if line and not line.startswith("#")]
    assert lines[0] == "FROM cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0"
    assert "ARG port=22" in lines
    text = "\n".join(lines)
    for needed in (
        "openssh-server",
        "openssh-client",
        "mkdir -p /var/run/sshd",
        "setcap CAP_NET_BIND_SERVICE=+eip /usr/sbin/sshd",
        "ssh-keygen -A",
        "printf 'StrictModes no\\nPort %s\\n' \"$port\"; cat /etc/ssh/sshd_config;",
        "printf 'Host *\\n    StrictHostKeyChecking no\\n    UserKnownHostsFile /dev/null\\n"
        '    Port %s\\n\' "$port";',
        "useradd -m mpiuser",
    ):
        assert needed in text, needed
    experiment = read_yaml(REPO / "experiments" / "imagenet-tensorflow.yaml")
    assert experiment["imageFacts"]["build"] == "images/aiacc-ssh/Dockerfile"
    assert experiment["imageFacts"]["sshd"] is True


def test_the_plan_says_how_an_images_ssh_setup_is_known() -> None:
    checked = "each worker's and the launcher's preflight checks its settings at start"
    built = ImageFacts(sshd=True, build="images/aiacc-ssh/Dockerfile", source="s")
    assert ssh_setup(built) == f"built by the project from images/aiacc-ssh/Dockerfile; {checked}"
    assert ssh_setup(ImageFacts(sshd=True, source="FROM x")) == (
        f"sshd and ssh verified (source: FROM x); {checked}"
    )
    assert ssh_setup(ImageFacts(source="s")) == f"unverified (imageFacts.sshd); {checked}"
    assert ssh_setup(None) == f"unverified (no imageFacts); {checked}"
    assert ssh_setup(ImageFacts(sshd=False, source="s")) == "none (imageFacts.sshd false)"
