"""The plan checks every object it would create against the schema of the API it targets."""

from __future__ import annotations

import pytest

from tests.conformance import crd_dir
from tests.conftest import EXAMPLE_STACKS
from trainstack.conformance import CrdSchemas, object_violations
from trainstack.errors import PlanError
from trainstack.plan.conformance import check_conformance, schema_files
from trainstack.plan.model import Plan, PlannedResource, RenderedObject
from trainstack.plan.runner import plan_stack
from trainstack.project import Project

PV = PlannedResource(
    urn="urn:pv",
    type="kubernetes:core/v1:PersistentVolume",
    name="data-pv",
    parent="",
    inputs={
        "apiVersion": "v1",
        "kind": "PersistentVolume",
        "metadata": {"name": "data"},
        "spec": {"capacity": {"storage": "1Ti"}, "acessModes": ["ReadWriteMany"]},
    },
)


@pytest.mark.parametrize("stack", [s for s in EXAMPLE_STACKS if s != "imagenet"])
def test_every_training_object_conforms_to_the_crd_of_the_operator_that_serves_it(
    example_plans: dict[str, Plan], stack: str
) -> None:
    """Each planned job, against the schema file of the operator its stack installs for
    its kind, unknown fields refused: no setting of any example experiment is dropped."""
    plan = example_plans[stack]
    schemas, files = CrdSchemas(crd_dir()), schema_files(plan.stack.config)
    jobs = [o.object for o in plan.objects]
    assert len(jobs) == len(plan.experiments) > 0
    for job in jobs:
        serving = plan.stack.config.operators.serving(f"{job['kind'].lower()}s.kubeflow.org")
        assert serving is not None, job["kind"]
        assert serving[1].honours >= {"security.seccompProfile", "runPolicy.cleanPodPolicy"}
        assert object_violations(job, schemas, files) == []
    assert "checked against its API's schema" in plan.notes[-1]


def test_a_core_object_the_api_server_would_refuse_stops_the_plan(
    example_plans: dict[str, Plan],
) -> None:
    config = example_plans["onprem"].stack.config
    with pytest.raises(PlanError) as caught:
        check_conformance(config, [PV], [], None)
    assert str(caught.value) == (
        "1 planned object(s) would be refused or changed by the API server:\n"
        "  - PersistentVolume data: at spec: additionalProperties: Additional properties are "
        "not allowed ('acessModes' was unexpected)"
    )


def test_a_job_arena_would_prune_is_named_with_its_path(example_plans: dict[str, Plan]) -> None:
    """An upstream-spelled TFJob checked against ack-arena's CRD (what the dialect check
    prevents): the runPolicy the API server would drop is named."""
    plan = example_plans["aiacc"]
    (tfjob,) = [o for o in plan.objects if o.object["kind"] == "TFJob"]
    arena = {("kubeflow.org/v1", "TFJob"): "tfjob-v1-arena.json"}
    found = object_violations(tfjob.object, CrdSchemas(crd_dir()), arena)
    expected = (
        "TFJob nlp/tf-multiworker-mnist: at spec: additionalProperties: Additional "
        "properties are not allowed ('runPolicy' was unexpected)"
    )
    assert expected in [str(v) for v in found]


def test_without_a_crd_directory_custom_resources_rest_on_the_catalog(
    project: Project,
) -> None:
    plan = plan_stack(project, "onprem", crd_dir=None)
    assert plan.notes[-1].startswith(
        "Kubernetes objects were checked against Kubernetes' strict schemas; custom resources "
        "only against the operator catalog's facts"
    )


def test_an_object_no_installed_operator_serves_is_refused_with_a_crd_directory(
    example_plans: dict[str, Plan],
) -> None:
    plan = example_plans["onprem"]  # mpi-operator only
    (mpijob,) = plan.objects
    tfjob = RenderedObject(
        release=mpijob.release,
        object={**mpijob.object, "kind": "TFJob", "apiVersion": "kubeflow.org/v1"},
    )
    with pytest.raises(
        PlanError,
        match=r"TFJob default/horovod-resnet50-onprem: at \(root\): no "
        r"operator of the stack serves TFJob kubeflow\.org/v1",
    ):
        check_conformance(plan.stack.config, [], [tfjob], crd_dir())
