"""The real workloads of workloads.md, as planned on the example stacks."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from trainstack.plan.model import Plan


def _job(plan: Plan, name: str) -> dict[str, Any]:
    (rendered,) = [r.object for r in plan.objects if r.key[2] == name]
    return rendered


def _container(spec: dict[str, Any], role: str) -> dict[str, Any]:
    (container,) = spec["template"]["spec"]["containers"]
    assert container["name"] == role
    return container


def test_imagenet_is_the_arena_command_as_an_mpijob(example_plans: dict[str, Plan]) -> None:
    for stack in ("aiacc", "baseline"):
        job = _job(example_plans[stack], "imagenet-tensorflow")
        assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v2beta1", "MPIJob")
        spec = job["spec"]
        assert spec["slotsPerWorker"] == 4
        replicas = spec["mpiReplicaSpecs"]
        worker, launcher = replicas["Worker"], replicas["Launcher"]
        assert worker["replicas"] == 4
        worker_container = _container(worker, "worker")
        launcher_container = _container(launcher, "launcher")
        assert worker_container["resources"]["limits"]["nvidia.com/gpu"] == 4
        assert "nvidia.com/gpu" not in launcher_container.get("resources", {}).get("limits", {})
        image = "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0"
        for role, container in (("worker", worker), ("launcher", launcher)):
            pod = container["template"]["spec"]
            claims = {
                v["name"]: v["persistentVolumeClaim"]["claimName"]
                for v in pod["volumes"]
                if "persistentVolumeClaim" in v
            }
            mounts = {m["mountPath"]: m["name"] for m in pod["containers"][0]["volumeMounts"]}
            assert claims[mounts["/data"]] == "imagenet-data", role
            assert pod["containers"][0]["workingDir"] == "/data", role
            assert pod["containers"][0]["image"] == image, role
        assert launcher_container["command"] == [
            "sh",
            "-c",
            "sh /data/tensorflow-imagenet/launch_arena.sh",
        ]


def _without_run_metadata(values: dict[str, Any]) -> dict[str, Any]:
    labels = {k: v for k, v in values["labels"].items() if k != "trainstack.io/experiment"}
    return {**values, "labels": labels, "annotations": {}}


def test_both_clusters_run_the_same_job_but_for_acceleration(
    example_plans: dict[str, Plan],
) -> None:
    aiacc, baseline = example_plans["aiacc"], example_plans["baseline"]
    for experiment in aiacc.experiments:
        (twin,) = [e for e in baseline.experiments if e.release_name == experiment.release_name]
        assert experiment.base_values == twin.base_values == _without_run_metadata(twin.values)
        # Same run, same base values: the same annotations tell collect what it reads.
        assert (
            experiment.values["annotations"]
            == twin.values["annotations"]
            == {
                "trainstack.io/run": "1",
                "trainstack.io/base-values-digest": twin.base_digest,
            }
        )
        assert experiment.acceleration_overrides == {"env": {"PERSEUS_ALLREDUCE_DTYPE": "0"}}
        assert experiment.values["env"]["PERSEUS_ALLREDUCE_DTYPE"] == "0"
        assert "PERSEUS_ALLREDUCE_DTYPE" not in twin.values.get("env", {})


def test_onprem_horovod_run(example_plans: dict[str, Plan]) -> None:
    job = _job(example_plans["onprem"], "horovod-resnet50-onprem")
    worker = job["spec"]["mpiReplicaSpecs"]["Worker"]
    pod = worker["template"]["spec"]
    assert worker["replicas"] == 2
    assert pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == 8
    assert pod["hostNetwork"] is True
    assert pod["dnsPolicy"] == "ClusterFirstWithHostNet"
    assert pod["containers"][0]["securityContext"]["privileged"] is True
    claims = sorted(
        v["persistentVolumeClaim"]["claimName"]
        for v in pod["volumes"]
        if "persistentVolumeClaim" in v
    )
    assert claims == ["pb-fg-all-iface1", "pb-fg-all-iface2", "tensorflow-results"]
    mounts = {m["mountPath"] for m in pod["containers"][0]["volumeMounts"]}
    assert {"/mnt/mount_0", "/mnt/mount_1", "/tmp", "/dev/shm"} <= mounts
    shm = [v for v in pod["volumes"] if v["name"] == "dshm"]
    assert shm == [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "64Gi"}}]


def test_workload_three_roles(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["baseline"]
    tf = _job(plan, "tf-multiworker-mnist")["spec"]["tfReplicaSpecs"]
    assert {role: spec["replicas"] for role, spec in tf.items()} == {"Chief": 1, "Worker": 2}
    pt = _job(plan, "pytorch-ddp-mnist")["spec"]["pytorchReplicaSpecs"]
    assert {role: spec["replicas"] for role, spec in pt.items()} == {"Master": 1, "Worker": 2}
    for specs in (tf, pt):
        for spec in specs.values():
            limits = spec["template"]["spec"]["containers"][0]["resources"]["limits"]
            assert limits["nvidia.com/gpu"] == 1


def test_scale_out_points_put_one_worker_per_node(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["baseline"]
    for name, workers, gpus in (("keras-lstm-1x4", 1, 4), ("keras-lstm-4x1", 4, 1)):
        worker = _job(plan, name)["spec"]["mpiReplicaSpecs"]["Worker"]
        assert worker["replicas"] == workers
        pod = worker["template"]["spec"]
        assert pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == gpus
        anti = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        assert anti[0]["topologyKey"] == "kubernetes.io/hostname"


def _workload1_scripts() -> Path:
    value = os.environ.get("TRAINSTACK_WORKLOAD1_SCRIPTS_DIR")
    if not value:
        pytest.skip(
            "TRAINSTACK_WORKLOAD1_SCRIPTS_DIR is not set: point it at "
            "../shared/reference/workload-1-scripts to check the data against the job's scripts"
        )
    return Path(value)


def test_the_populate_job_fills_what_workload_ones_scripts_read(
    example_plans: dict[str, Plan],
) -> None:
    scripts = _workload1_scripts()
    config = (scripts / "config_arena.sh").read_text()
    submit = (scripts / "tensorflow_h_perseus.sh").read_text()
    data_dir = re.search(r'^DATA_DIR="(/data/[^"]+)"$', config, re.MULTILINE)
    launch = re.search(r'"sh (/data/[^" ]+)"', submit)
    assert data_dir and launch, "workload 1's scripts changed shape"
    plan = example_plans["aiacc"]
    # the experiment mounts the dataset where the scripts expect it, and runs the same script
    job = _job(plan, "imagenet-tensorflow")
    pod = job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]
    (mount,) = [m for m in pod["containers"][0]["volumeMounts"] if m["mountPath"] == "/data"]
    claims = {
        v["name"]: v.get("persistentVolumeClaim", {}).get("claimName") for v in pod["volumes"]
    }
    assert claims[mount["name"]] == "imagenet-data"
    assert pod["containers"][0]["command"][-1].endswith(launch.group(1))
    # the populate Job writes the TFRecords where config_arena.sh reads them, and checks
    # out the working copy holding launch_arena.sh, both under the same mount
    (populate,) = [r for r in plan.resources if r.type == "kubernetes:batch/v1:Job"]
    command = populate.inputs["spec"]["template"]["spec"]["containers"][0]["command"][-1]
    records = PurePosixPath(data_dir.group(1)).relative_to("/data")
    working_copy = PurePosixPath(launch.group(1)).relative_to("/data").parts[0]
    assert f'out="$TRAINSTACK_DATA_DIR/{records}";' in command
    assert '--output_directory="$out"' in command
    assert f'"$TRAINSTACK_DATA_DIR/{working_copy}";' in command
