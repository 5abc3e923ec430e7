"""``render_training_job``: the library entry point of the plan engine."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.chart.jobs import CHART_DIR, job_values
from trainstack.chart.render import load_chart, parse_manifests, render_training_job
from trainstack.core.errors import ChartError, ValuesError
from trainstack.training_job.frameworks import FrameworkSpec, frameworks
from trainstack.training_job.frameworks.run_defaults import ArenaSettings, RestartDefaults


def test_returns_parsed_objects_without_notes() -> None:
    objects = render_training_job(
        job_values("mpi"), release="r", namespace="ns", chart_dir=CHART_DIR
    )

    assert [(obj["apiVersion"], obj["kind"]) for obj in objects] == [
        ("kubeflow.org/v2beta1", "MPIJob")
    ]
    assert objects[0]["metadata"]["namespace"] == "ns"
    assert isinstance(objects[0]["spec"]["slotsPerWorker"], int)


def test_the_same_values_give_the_same_objects() -> None:
    values = job_values("tensorflow", env={"B": "2", "A": "1"}, labels={"z": "1", "a": "2"})
    first = render_training_job(values, release="r", namespace="ns", chart_dir=CHART_DIR)
    second = render_training_job(values, release="r", namespace="ns", chart_dir=CHART_DIR)

    assert first == second


def test_invalid_values_raise_values_error_with_every_problem() -> None:
    values = job_values("mpi", worker={"replicas": "two", "gpus": -1})

    with pytest.raises(ValuesError, match="the values of release 'r'") as raised:
        render_training_job(values, release="r", namespace="ns", chart_dir=CHART_DIR)
    assert [problem.path for problem in raised.value.problems] == ["worker.gpus", "worker.replicas"]


def test_a_release_name_the_pods_cannot_carry_raises_values_error() -> None:
    with pytest.raises(ValuesError, match='release name: found "Imagenet"'):
        render_training_job(
            job_values("mpi"), release="Imagenet", namespace="ns", chart_dir=CHART_DIR
        )


def test_a_missing_chart_raises_chart_error(tmp_path: Path) -> None:
    with pytest.raises(ChartError, match="no Chart.yaml; run `trainstack chart generate`"):
        render_training_job(job_values("mpi"), release="r", namespace="ns", chart_dir=tmp_path)


def test_the_chart_is_loaded_once_per_process() -> None:
    load_chart.cache_clear()
    for index in range(3):
        render_training_job(
            job_values("mpi"), release=f"r{index}", namespace="ns", chart_dir=CHART_DIR
        )

    info = load_chart.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_multi_document_templates_are_split_and_empty_documents_skipped() -> None:
    text = "a: 1\n---\n\n---\nb: [2, 3]\n"
    assert parse_manifests({"t.yaml": text, "u.yaml": "c: x\n"}) == [
        {"a": 1},
        {"b": [2, 3]},
        {"c": "x"},
    ]


def test_many_distinct_experiments_render_one_after_another_without_crosstalk() -> None:
    """One loaded chart renders experiment after experiment, each with its own values (how
    fast: benchmarks/chart_render.py, not a timed test)."""
    frameworks_cycle = ("mpi", "tensorflow", "pytorch")
    for index in range(30):
        values = job_values(
            frameworks_cycle[index % 3],
            worker={"replicas": 1 + index % 8, "gpus": index % 5},
            datasets=[{"claimName": f"data-{index}", "mountPath": "/data"}],
        )
        objects = render_training_job(
            values, release=f"exp-{index}", namespace="ns", chart_dir=CHART_DIR
        )
        (job,) = [o for o in objects if o["kind"] in ("MPIJob", "TFJob", "PyTorchJob")]
        assert job["metadata"]["name"] == f"exp-{index}"
        claims = json.dumps(job["spec"])
        assert f'"claimName": "data-{index}"' in claims
        assert f'"claimName": "data-{index - 1}"' not in claims


@pytest.mark.parametrize("spec", frameworks(), ids=lambda spec: spec.name)
def test_each_template_names_its_object_as_the_registry_does(spec: FrameworkSpec) -> None:
    """The NOTES come from the template's own facts (training-job.<framework>.info)."""
    chart = load_chart(CHART_DIR.resolve())
    values = job_values(spec.name, worker={"replicas": 2})
    notes = chart.render(values, name="job", namespace="team")["training-job/templates/NOTES.txt"]

    assert f"({spec.name}: {spec.kind} {spec.api_version}) submitted" in notes
    assert f"get {spec.plural} job" in notes
    lead = spec.role(spec.reporting_role).name
    assert f"app.kubernetes.io/component={lead}" in notes


@pytest.fixture(scope="module")
def info_chart_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The chart and one more template, which prints the framework's info."""
    chart_dir = tmp_path_factory.mktemp("info") / "training-job"
    shutil.copytree(CHART_DIR, chart_dir, ignore=shutil.ignore_patterns("tests"))
    probe = '{{ include (printf "training-job.%s.info" .Values.framework) . }}\n'
    (chart_dir / "templates" / "info.json").write_text(probe, encoding="utf-8")
    return chart_dir


@pytest.mark.parametrize("spec", frameworks(), ids=lambda spec: spec.name)
def test_each_framework_info_states_its_registry_entry(
    spec: FrameworkSpec, info_chart_dir: Path
) -> None:
    """Every fact of training-job.<framework>.info (generated into _frameworks.tpl, but the
    lead) is the registry's, as Helm evaluates it."""
    chart = load_chart(info_chart_dir.resolve())
    values = job_values(spec.name, worker={"replicas": 2})
    rendered = chart.render(values, name="job", namespace="team")
    info = json.loads(rendered["training-job/templates/info.json"])

    # the order of dialects and settings is no contract (the chart asks `has`)
    assert {**info, "dialects": sorted(info["dialects"]), "settings": sorted(info["settings"])} == {
        "kind": spec.kind,
        "apiVersion": spec.api_version,
        "plural": spec.plural,
        "lead": spec.role(spec.reporting_role).name,
        "port": "" if spec.port is None else spec.port.name,
        "dialects": sorted(spec.dialects),
        "settings": sorted(spec.settings),
        "roles": list(dict.fromkeys(role.values_key for role in spec.roles)),
        "roleKeys": {role.name: role.values_key for role in spec.roles},
        "runDefaults": {
            "restart": _restart(spec.run_defaults.restart),
            "pinned": dict(spec.run_defaults.pinned),
        },
        "arena": _arena(spec.arena),
    }


def _restart(defaults: RestartDefaults) -> dict[str, Any]:
    roles = [{"role": r.role, "policy": r.policy, "beside": r.beside} for r in defaults.roles]
    return {"policy": defaults.policy, "roles": roles}


def _arena(arena: ArenaSettings | None) -> dict[str, Any]:
    if arena is None:
        return {}
    return {
        "command": arena.command,
        "app": arena.app,
        "workers": list(arena.workers),
        "gpuRoles": list(arena.gpu_roles),
        "restart": _restart(arena.restart),
        "backoffLimit": arena.backoff_limit,
        "cleanPodPolicy": dict(arena.clean_pod_policy),
        "hidesGpus": list(arena.hides_gpus),
    }
