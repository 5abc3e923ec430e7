"""The plan expands releases of the project's chart into the objects Helm would create."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.conformance import crd_dir, validate_objects
from trainstack.chart.batch import RenderRequest, pack
from trainstack.core.project import Project
from trainstack.plan.charts import expand_local_releases
from trainstack.plan.masking import SECRET
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import OBJECTS_JSON, SECRET_DIGESTS_JSON, write_plan

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
        assert sorted(by_name) == sorted(e.release_name for e in plan.experiments)
        for experiment in plan.experiments:
            rendered = by_name[experiment.release_name]
            assert rendered.object["kind"] in JOB_KINDS
            assert rendered.object["metadata"]["namespace"] == experiment.namespace
            assert rendered.release.endswith(f"::{experiment.release_name}-release")


def _without_computed(objects: list[dict]) -> list[dict]:
    """Values known only after deployment are placeholders; give them a plausible value."""
    text_objects = []
    for obj in copy.deepcopy(objects):  # never change the session's example plans
        csi = obj.get("spec", {}).get("csi", {}).get("volumeAttributes", {})
        if csi.get("server") == "[computed]":
            csi["server"] = "0a1b2c3d4e-abc12.cn-beijing.nas.aliyuncs.com"
        text_objects.append(obj)
    return text_objects


def test_secret_data_of_chart_objects_is_masked_with_digests(
    monkeypatch: pytest.MonkeyPatch, project: Project, tmp_path: Path
) -> None:
    secret = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "registry", "namespace": "default"},
        "data": {"token": "aHVudGVyMg=="},
    }
    monkeypatch.setattr(
        "trainstack.plan.charts.render_training_job", lambda *_, **__: [dict(secret)]
    )
    plan = plan_stack(project, "baseline", digest_key=b"k" * 32)
    masked = [o for o in plan.objects if o.key == ("Secret", "default", "registry")]
    assert masked and all(o.object["data"] == {"token": SECRET} for o in masked)
    written = write_plan(plan, tmp_path)
    assert "aHVudGVyMg==" not in (written / OBJECTS_JSON).read_text()
    digests = json.loads((written / SECRET_DIGESTS_JSON).read_text())
    assert set(digests["objects"]["Secret/default/registry"]) == {"data.token"}


def test_early_renders_are_used_only_for_the_values_sent(project: Project) -> None:
    plan = plan_stack(project, "baseline")
    release = next(r for r in plan.resources if r.inputs.get("name") == "imagenet-tensorflow")
    chart_dir = (project.root / release.inputs["chart"]).resolve()
    stale = RenderRequest.of("imagenet-tensorflow", "vision", chart_dir, {"framework": "mpi"})
    matching = RenderRequest.of(
        "imagenet-tensorflow", release.inputs["namespace"], chart_dir, release.inputs["values"]
    )
    # As the render worker hands them over: each release's objects packed.
    marker = pack([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "early"}}])
    used = expand_local_releases(project.root, [release], early={matching: marker})
    assert [o.object["metadata"]["name"] for o in used] == ["early"]
    ignored = expand_local_releases(project.root, [release], early={stale: marker})
    assert [o.object["kind"] for o in ignored] == ["MPIJob"]
