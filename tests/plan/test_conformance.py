"""The plan checks every object it would create against the schema of the API it targets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conformance import crd_dir
from tests.conftest import EXAMPLE_STACKS
from trainstack.conformance import CrdSchemas, object_violations
from trainstack.conformance.kubernetes import core_validator, is_core
from trainstack.conformance.schema_check import SchemaCheck
from trainstack.conformance.validate import pod_templates
from trainstack.core.errors import PlanError
from trainstack.core.project import Project
from trainstack.plan.conformance import check_conformance, schema_files
from trainstack.plan.model import Plan, PlannedResource, RenderedObject
from trainstack.plan.runner import plan_stack

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


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _mutated(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one place changed: replaced by any JSON value, or a key added."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: _mutated(draw, value[key])}
    if isinstance(value, list) and value and draw(st.booleans()):
        index = draw(st.integers(0, len(value) - 1))
        return [*value[:index], _mutated(draw, value[index]), *value[index + 1 :]]
    if isinstance(value, dict) and draw(st.booleans()):
        return {**value, draw(st.text(max_size=6)): draw(_JSON)}
    return draw(_JSON)


def _same_verdict(check: SchemaCheck, instance: Any) -> None:
    assert check.fast is not None  # the plan's schemas all compile
    if check.fast.is_valid(instance):
        assert list(check.validator.iter_errors(instance)) == []


def _example_objects(example_plans: dict[str, Plan]) -> list[dict[str, Any]]:
    return [
        item
        for plan in example_plans.values()
        for item in [*(r.inputs for r in plan.resources), *(o.object for o in plan.objects)]
        if "apiVersion" in item and "kind" in item
    ]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_compiled_check_never_accepts_what_jsonschema_refuses(
    example_plans: dict[str, Plan], data: st.DataObject
) -> None:
    """The fast path decides nothing jsonschema would decide otherwise: any change to an
    example object (core kinds, and every job's metadata and pod templates) that jsonschema
    refuses, the compiled check refuses too, so jsonschema's errors are reported."""
    examples = _example_objects(example_plans)
    objects = [o for o in examples if is_core(o["apiVersion"])] + [
        {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "t"}, "template": t}
        for job in examples
        if not is_core(job["apiVersion"])
        for _, t in pod_templates(job)
    ]
    obj = data.draw(st.sampled_from(objects))
    check = core_validator(obj["apiVersion"], obj["kind"])
    assert check is not None
    _same_verdict(check, data.draw(st.composite(lambda draw: _mutated(draw, obj))()))


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_compiled_crd_check_never_accepts_what_jsonschema_refuses(
    example_plans: dict[str, Plan], data: st.DataObject
) -> None:
    schemas = CrdSchemas(crd_dir())
    jobs = [
        (job, schema_files(plan.stack.config)[(job["apiVersion"], job["kind"])])
        for plan in example_plans.values()
        for job in (o.object for o in plan.objects)
    ]
    job, file_name = data.draw(st.sampled_from(jobs))
    check = schemas.validator(file_name, job["apiVersion"], job["kind"])
    _same_verdict(check, data.draw(st.composite(lambda draw: _mutated(draw, job))()))


def test_a_crd_file_changed_between_two_plans_of_one_process_is_read_again(
    tmp_path: Path,
) -> None:
    """Checks are kept per process by the file's bytes (``diff`` plans twice, tests
    hundreds of times): the second plan sees the file as it is now, not the first's."""
    schema: dict[str, Any] = {
        "title": "Thing example.com/v1",
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "spec": {"type": "object", "properties": {"size": {"type": "integer"}}},
        },
    }
    thing = {"apiVersion": "example.com/v1", "kind": "Thing", "spec": {"size": 1, "colour": "red"}}
    files = {("example.com/v1", "Thing"): "thing.json"}
    (tmp_path / "thing.json").write_text(json.dumps(schema))
    first = [str(v) for v in object_violations(thing, CrdSchemas(tmp_path), files)]
    assert first == [
        "Thing ?: at spec: additionalProperties: Additional properties are not allowed "
        "('colour' was unexpected)"
    ]
    schema["properties"]["spec"]["properties"]["colour"] = {"type": "string"}
    (tmp_path / "thing.json").write_text(json.dumps(schema))
    assert object_violations(thing, CrdSchemas(tmp_path), files) == []
