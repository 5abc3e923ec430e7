"""``chart render --stack``: an experiment renders whole, exactly as the plan renders it, and
the values file it writes installs the same objects with ``helm install -f``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_helpers import run
from trainstack.core.project import Project
from trainstack.plan.runner import plan_stack

REPO = Path(__file__).parents[2]


def _documents(text: str) -> list[dict[str, Any]]:
    return [document for document in yaml.safe_load_all(text) if document]


def test_the_experiment_file_renders_the_plans_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = run(
        REPO,
        *("chart", "render", "--stack", "aiacc", "experiments/imagenet-tensorflow.yaml"),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 0, ran.stderr

    planned = plan_stack(Project.load(REPO), "aiacc")
    expected = [
        rendered.object
        for rendered in planned.objects
        if rendered.object["metadata"].get("labels", {}).get("trainstack.io/experiment")
        == "imagenet-tensorflow"
    ]
    assert len(expected) == 1
    assert _documents(ran.stdout) == expected
    # the queue, the pools' selectors and tolerations, the acceleration: all there
    job = expected[0]
    assert job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] == "vision"
    worker = job["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]
    assert worker["nodeSelector"] == {"trainstack.io/pool": "gpu-v100"}
    assert worker["tolerations"][0]["key"] == "nvidia.com/gpu"
    env = {e["name"]: e.get("value") for e in worker["containers"][0]["env"]}
    assert env["PERSEUS_ALLREDUCE_DTYPE"] == "0"


def test_the_values_file_installs_the_same_objects(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    values = tmp_path / "imagenet.values.yaml"
    on_stack = run(
        root,
        *("chart", "render", "--stack", "baseline", "imagenet-tensorflow"),
        *("--values-file", str(values)),
        monkeypatch=monkeypatch,
    )
    assert on_stack.code == 0, on_stack.stderr
    text = values.read_text()
    assert text.startswith("# Chart values written by `trainstack chart render --stack`")
    assert "helm install imagenet-tensorflow charts/training-job --namespace vision -f" in text
    # `helm template`'s rendering of the file (Helm's own schema check included)
    as_helm = run(
        REPO,
        *("chart", "render", str(values), "--name", "imagenet-tensorflow"),
        *("--namespace", "vision"),
        monkeypatch=monkeypatch,
    )
    assert as_helm.code == 0, as_helm.stderr
    assert _documents(as_helm.stdout) == _documents(on_stack.stdout)


def test_a_file_trainstack_did_not_write_is_never_overwritten(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "notes.yaml"
    mine.write_text("my notes\n")
    ran = run(
        root,
        *("chart", "render", "--stack", "aiacc", "imagenet-tensorflow"),
        *("--values-file", str(mine)),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 2
    assert "exists and is not a values file trainstack wrote; not overwritten" in ran.stderr
    assert mine.read_text() == "my notes\n"


def test_a_matrix_renders_every_point_but_writes_one_points_values(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered = run(
        root, "chart", "render", "--stack", "aiacc", "keras-lstm", monkeypatch=monkeypatch
    )
    assert rendered.code == 0, rendered.stderr
    names = [d["metadata"]["name"] for d in _documents(rendered.stdout)]
    assert names == [f"keras-lstm-{p}" for p in ("1x1", "1x2", "1x4", "2x1", "4x1")]
    written = run(
        root,
        *("chart", "render", "--stack", "aiacc", "keras-lstm"),
        *("--values-file", str(tmp_path / "v.yaml")),
        monkeypatch=monkeypatch,
    )
    assert written.code == 2
    assert "name one point (keras-lstm-1x1, keras-lstm-1x2" in written.stderr
    assert not (tmp_path / "v.yaml").exists()


def test_values_file_options_need_a_stack(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = run(
        root,
        *("chart", "render", str(REPO / "charts/training-job/ci/mpi-values.yaml")),
        *("--set", "worker.gpus=1"),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 2
    assert "--values-file, --set and --set-string need --stack" in ran.stderr
