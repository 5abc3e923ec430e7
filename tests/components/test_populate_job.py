"""The populate Job of the example data: filled by aiacc, awaited by baseline, before any
experiment, secure by default, credentials from a Secret by name."""

from __future__ import annotations

from typing import Any

from components.populate_marker import POPULATE_SCRIPT, WAIT_SCRIPT
from tests.conformance import validate_objects
from tests.stack_helpers import only
from trainstack.config.populate import POPULATE_DIGEST
from trainstack.deployment import populate_placeholders
from trainstack.plan.model import Plan

JOB = "kubernetes:batch/v1:Job"
RELEASE = "kubernetes:helm.sh/v3:Release"


def _pod(job: dict[str, Any]) -> dict[str, Any]:
    pod: dict[str, Any] = job["spec"]["template"]["spec"]
    return pod


def test_aiacc_fills_the_dataset_read_write_with_the_marker_logic(
    example_plans: dict[str, Plan],
) -> None:
    job = only(example_plans["aiacc"], JOB)
    inputs = job.inputs
    assert (inputs["metadata"]["name"], inputs["metadata"]["namespace"]) == (
        "populate-imagenet-data",
        "vision",
    )
    pod = _pod(inputs)
    (container,) = pod["containers"]
    assert container["command"][:4] == ["/bin/sh", "-c", POPULATE_SCRIPT, "populate"]
    assert "build_imagenet_data.py" in container["command"][-1]
    assert container["volumeMounts"] == [{"name": "data", "mountPath": "/data", "readOnly": False}]
    assert pod["volumes"][0]["persistentVolumeClaim"] == {
        "claimName": "imagenet-data",
        "readOnly": False,
    }
    env = {variable["name"]: variable for variable in container["env"]}
    assert env["TRAINSTACK_POPULATE_OVERWRITE"]["value"] == "false"
    # the account's credentials: a Secret by name and key, no value anywhere
    assert env["IMAGENET_ACCESS_KEY"] == {
        "name": "IMAGENET_ACCESS_KEY",
        "valueFrom": {"secretKeyRef": {"name": "imagenet-credentials", "key": "access-key"}},
    }
    assert inputs["spec"]["backoffLimit"] == 0
    assert inputs["spec"]["activeDeadlineSeconds"] == 48 * 3600


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


def test_baseline_waits_read_only_for_the_same_digest(example_plans: dict[str, Plan]) -> None:
    filled = only(example_plans["aiacc"], JOB).inputs
    waiting = only(example_plans["baseline"], JOB).inputs
    digest = filled["metadata"]["annotations"][POPULATE_DIGEST]
    assert waiting["metadata"]["annotations"][POPULATE_DIGEST] == digest
    assert len(digest) == 64
    (container,) = _pod(waiting)["containers"]
    assert container["command"] == ["/bin/sh", "-c", WAIT_SCRIPT]
    assert container["volumeMounts"][0]["readOnly"] is True
    # no credential reaches the waiting cluster
    assert {variable["name"] for variable in container["env"]} == {
        "TRAINSTACK_DATA_DIR",
        "TRAINSTACK_POPULATE_DIGEST",
    }


def test_experiments_are_created_only_after_the_job(example_plans: dict[str, Plan]) -> None:
    for stack in ("aiacc", "baseline"):
        plan = example_plans[stack]
        job = only(plan, JOB)
        release = only(plan, RELEASE, "imagenet-tensorflow-release")
        assert job.urn in release.options["dependsOn"]


def test_both_jobs_are_valid_kubernetes_objects(example_plans: dict[str, Plan]) -> None:
    jobs = [only(example_plans[stack], JOB).inputs for stack in ("aiacc", "baseline")]
    assert validate_objects(jobs) == 2  # Kubernetes' strict schema of batch/v1 Job


def test_the_populate_image_is_to_set_before_deploying_either_cluster(
    example_plans: dict[str, Plan],
) -> None:
    for stack in ("aiacc", "baseline"):
        [(key, value)] = populate_placeholders(example_plans[stack].datasets)
        assert key == (
            "stacks/Pulumi.imagenet.yaml: trainstack:dataStore.fileSystems[0].populate.image"
        )
        assert value.startswith("<image with tensorflow/models")
