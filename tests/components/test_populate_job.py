"""The populate Job of the example data: filled by aiacc, awaited by baseline, before any
experiment; bounded with its reason; the mount's root given to its user by a step with
only CHOWN; credentials from a Secret by name."""

from __future__ import annotations

from typing import Any

from components.populate_job import AWAIT_MARGIN_SECONDS
from components.populate_marker import CONFIG_MOUNT, POPULATE_SCRIPT, WAIT_SCRIPT
from tests.conformance import validate_objects
from tests.stack_helpers import only
from trainstack.config.populate import POPULATE_DIGEST
from trainstack.deployment import populate_placeholders
from trainstack.plan.model import Plan

JOB = "kubernetes:batch/v1:Job"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
RELEASE = "kubernetes:helm.sh/v3:Release"


def _pod(job: dict[str, Any]) -> dict[str, Any]:
    pod: dict[str, Any] = job["spec"]["template"]["spec"]
    return pod


def test_aiacc_fills_the_dataset_from_oss_read_write(example_plans: dict[str, Plan]) -> None:
    job = only(example_plans["aiacc"], JOB)
    inputs = job.inputs
    assert (inputs["metadata"]["name"], inputs["metadata"]["namespace"]) == (
        "populate-imagenet-data",
        "vision",
    )
    pod = _pod(inputs)
    (container,) = pod["containers"]
    assert container["command"][:4] == ["/bin/sh", "-c", POPULATE_SCRIPT, "populate"]
    # the extra step: the working copy of workload 1's scripts, run as given
    assert (
        "git clone https://github.com/Jason-Jongjin-Lim/tensorflow-imagenet.git"
        in (container["command"][4:][-1])
    )
    assert container["volumeMounts"] == [
        {"name": "data", "mountPath": "/data", "readOnly": False},
        {"name": "inputs", "mountPath": CONFIG_MOUNT, "readOnly": True},
    ]
    assert pod["volumes"][0]["persistentVolumeClaim"] == {
        "claimName": "imagenet-data",
        "readOnly": False,
    }
    env = {variable["name"]: variable for variable in container["env"]}
    assert env["TRAINSTACK_POPULATE_OVERWRITE"]["value"] == "false"
    assert env["TRAINSTACK_SOURCE_KIND"]["value"] == "oss"
    assert env["TRAINSTACK_FETCH_TARGET"]["value"] == "imagenet/imagenet_data"
    assert (
        env["TRAINSTACK_VERIFY"]["value"] == "quick"
    )  # the example stack (stacks/Pulumi.imagenet.yaml)
    assert env["TRAINSTACK_LAYOUT"]["value"] == f"{CONFIG_MOUNT}/layout"
    # the RAM user's AccessKey pair: a Secret by name and key, no value anywhere
    assert env["OSS_ACCESS_KEY_ID"] == {
        "name": "OSS_ACCESS_KEY_ID",
        "valueFrom": {"secretKeyRef": {"name": "imagenet-oss", "key": "access-key-id"}},
    }
    assert env["OSS_ACCESS_KEY_SECRET"]["valueFrom"]["secretKeyRef"] == {
        "name": "imagenet-oss",
        "key": "access-key-secret",
    }
    # the layout the verify step checks, in the ConfigMap the Job mounts
    config = only(example_plans["aiacc"], CONFIG_MAP)
    assert config.inputs["metadata"]["name"] == "populate-imagenet-data"
    assert config.inputs["data"] == {
        "layout": "1024 imagenet/imagenet_data/train/train-*\n"
        "128 imagenet/imagenet_data/validation/validation-*\n"
    }
    assert config.urn in job.options["dependsOn"]


def test_the_job_is_bounded_and_ends_with_its_reason(example_plans: dict[str, Plan]) -> None:
    for stack in ("aiacc", "baseline"):
        job = only(example_plans[stack], JOB)
        assert job.inputs["spec"]["backoffLimit"] == 0
        assert job.inputs["spec"]["activeDeadlineSeconds"] == 48 * 3600
        timeout = f"{48 * 3600 + AWAIT_MARGIN_SECONDS}s"
        assert job.options["customTimeouts"] == {"create": timeout, "update": timeout}
        (container,) = _pod(job.inputs)["containers"]
        assert container["terminationMessagePolicy"] == "FallbackToLogsOnError"
        env = {variable["name"]: variable.get("value") for variable in container["env"]}
        assert env["TRAINSTACK_TERMINATION_LOG"] == container["terminationMessagePath"]


def test_the_job_is_secure_by_default(example_plans: dict[str, Plan]) -> None:
    for stack in ("aiacc", "baseline"):
        pod = _pod(only(example_plans[stack], JOB).inputs)
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] == 1000
        assert pod["automountServiceAccountToken"] is False
        (container,) = pod["containers"]
        assert container["securityContext"] == {
            "allowPrivilegeEscalation": False,
            "privileged": False,
            "capabilities": {"drop": ["ALL"]},
        }
        assert "hostNetwork" not in pod and "hostPID" not in pod


def test_only_a_chown_step_runs_as_root_and_only_with_chown(
    example_plans: dict[str, Plan],
) -> None:
    pod = _pod(only(example_plans["aiacc"], JOB).inputs)
    (step,) = pod["initContainers"]
    assert step["command"] == ["chown", "1000:1000", "/data"]  # the root only, not recursive
    assert step["securityContext"]["runAsUser"] == 0
    assert step["securityContext"]["capabilities"] == {"drop": ["ALL"], "add": ["CHOWN"]}
    assert step["securityContext"]["allowPrivilegeEscalation"] is False
    # the waiting cluster only reads: no such step
    assert "initContainers" not in _pod(only(example_plans["baseline"], JOB).inputs)


def test_baseline_waits_read_only_for_the_same_digest(example_plans: dict[str, Plan]) -> None:
    filled = only(example_plans["aiacc"], JOB).inputs
    waiting = only(example_plans["baseline"], JOB).inputs
    digest = filled["metadata"]["annotations"][POPULATE_DIGEST]
    assert waiting["metadata"]["annotations"][POPULATE_DIGEST] == digest
    assert len(digest) == 64
    (container,) = _pod(waiting)["containers"]
    assert container["command"] == ["/bin/sh", "-c", WAIT_SCRIPT]
    assert container["volumeMounts"] == [{"name": "data", "mountPath": "/data", "readOnly": True}]
    # no credential reaches the waiting cluster
    assert {variable["name"] for variable in container["env"]} == {
        "TRAINSTACK_DATA_DIR",
        "TRAINSTACK_POPULATE_DIGEST",
        "TRAINSTACK_TERMINATION_LOG",
    }


def test_experiments_are_created_only_after_the_job(example_plans: dict[str, Plan]) -> None:
    for stack in ("aiacc", "baseline"):
        plan = example_plans[stack]
        job = only(plan, JOB)
        release = only(plan, RELEASE, "imagenet-tensorflow-release")
        assert job.urn in release.options["dependsOn"]


def test_the_jobs_and_config_map_are_valid_kubernetes_objects(
    example_plans: dict[str, Plan],
) -> None:
    objects = [only(example_plans[stack], JOB).inputs for stack in ("aiacc", "baseline")]
    objects.append(only(example_plans["aiacc"], CONFIG_MAP).inputs)
    assert validate_objects(objects) == 3  # Kubernetes' strict schemas


def test_no_example_downloads_from_image_net(example_plans: dict[str, Plan]) -> None:
    for stack in ("aiacc", "baseline"):
        text = str([resource.inputs for resource in example_plans[stack].resources])
        assert "image-net.org" not in text
        assert "download_imagenet.sh" not in text


def test_the_populate_placeholders_are_to_set_before_deploying_either_cluster(
    example_plans: dict[str, Plan],
) -> None:
    prefix = "stacks/Pulumi.imagenet.yaml: trainstack:dataStore.fileSystems[0].populate"
    for stack in ("aiacc", "baseline"):
        keys = [key for key, _ in populate_placeholders(example_plans[stack].datasets)]
        assert keys == [
            f"{prefix}.image",
            f"{prefix}.source.bucket",
            f"{prefix}.source.prefix",
            f"{prefix}.source.region",
        ]
