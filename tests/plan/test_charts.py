"""The plan expands releases of the project's chart into the objects Helm would create."""

from __future__ import annotations

import pytest

from tests.conformance import crd_dir, validate_objects
from trainstack.plan.model import Plan

JOB_KINDS = {"MPIJob", "TFJob", "PyTorchJob"}


@pytest.mark.parametrize("stack", ["aiacc", "baseline", "onprem"])
def test_every_planned_object_conforms(example_plans: dict[str, Plan], stack: str) -> None:
    plan = example_plans[stack]
    objects = [rendered.object for rendered in plan.objects]
    assert validate_objects(objects, crd_dir()) == len(plan.objects)
    # Resources the program creates directly are Kubernetes objects too.
    core = [
        r.inputs
        for r in plan.resources
        if r.type.startswith("kubernetes:core/v1:") and not r.type.endswith("Patch")
    ]
    validate_objects(_without_computed(core), crd_dir())


def test_each_experiment_renders_exactly_its_job(example_plans: dict[str, Plan]) -> None:
    for plan in example_plans.values():
        by_name = {r.key[2]: r for r in plan.objects}
        assert sorted(by_name) == sorted(e.name for e in plan.experiments)
        for experiment in plan.experiments:
            rendered = by_name[experiment.name]
            assert rendered.object["kind"] in JOB_KINDS
            assert rendered.object["metadata"]["namespace"] == experiment.namespace
            assert rendered.release.endswith(f"::{experiment.name}-release")


def _without_computed(objects: list[dict]) -> list[dict]:
    """Values known only after deployment are placeholders; give them a plausible value."""
    text_objects = []
    for obj in objects:
        csi = obj.get("spec", {}).get("csi", {}).get("volumeAttributes", {})
        if csi.get("server") == "[computed]":
            csi["server"] = "0a1b2c3d4e-abc12.cn-beijing.nas.aliyuncs.com"
        text_objects.append(obj)
    return text_objects
