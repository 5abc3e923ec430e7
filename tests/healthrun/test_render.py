"""``trainstack health STACK --render DIR``: the objects, schema-checked, without a cluster."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.cli_helpers import Ran, project_copy, run
from tests.conformance import crd_dir


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    return project_copy(tmp_path / "project")


def _render(root: Path, out: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    """``trainstack health onprem --render OUT ARGS`` in the project copy."""
    return run(root, "health", "onprem", "--render", str(out), *args, monkeypatch=monkeypatch)


def test_render_writes_every_object_checked_against_the_crds(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRAINSTACK_CRD_DIR", str(crd_dir()))
    ran = run(root, "health", "aiacc", "--render", str(tmp_path / "out"), monkeypatch=monkeypatch)
    assert ran.code == 0, ran.stderr
    assert ran.stdout == (
        f"12 object(s) written to {tmp_path / 'out' / 'aiacc'}: checked against Kubernetes' "
        "strict schemas and the MPI operator's CRD\n"
    )
    files = sorted((tmp_path / "out" / "aiacc").glob("*.yaml"))
    kinds = [yaml.safe_load(path.read_text())["kind"] for path in files]
    assert kinds == ["Namespace"] + ["Job"] * 8 + ["MPIJob"] * 3
    # ACK's node names are not known offline: one placeholder per node of the pool
    first = yaml.safe_load(files[1].read_text())
    selector = first["spec"]["template"]["spec"]["nodeSelector"]
    assert selector["kubernetes.io/hostname"] == "<node 1 of pool gpu-v100>"
    assert "set before running (not pinned by digest): trainstack:health.images.dcgm" in ran.stderr


def test_declared_nodes_and_only_those_asked(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _render(root, tmp_path, monkeypatch, "--node", "node2")
    assert ran.code == 0, ran.stderr
    documents = [
        yaml.safe_load(p.read_text()) for p in sorted((tmp_path / "onprem").glob("*.yaml"))
    ]
    assert [d["kind"] for d in documents] == ["Namespace", "Job", "Job"]
    pod = documents[1]["spec"]["template"]["spec"]
    assert pod["nodeSelector"]["kubernetes.io/hostname"] == "node2"
    assert pod["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": "8"}
    assert "interconnect across nodes not measured: --node checks single nodes" in ran.stderr


def test_an_unknown_node_is_one_error_naming_the_known(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _render(root, tmp_path, monkeypatch, "--node", "node9")
    assert ran.code == 2
    assert ran.stderr == (
        "error: --node: found node9; allowed: nodes of the pools the stack's experiments "
        "use (dgx-v100): node1, node2\n"
    )


def test_an_object_the_api_server_would_refuse_is_an_error(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trainstack.health import jobs

    def broken(*args: object) -> dict[str, object]:
        job = original(*args)  # type: ignore[arg-type]
        job["spec"]["template"]["spec"]["gpus"] = 8  # type: ignore[index]
        return job

    original = jobs.node_job
    monkeypatch.setattr("trainstack.healthrun.checks.node_job", broken)
    ran = _render(root, tmp_path, monkeypatch)
    assert ran.code == 2
    assert "2 health object(s) would be refused or changed by the API server:" in ran.stderr
    assert "at spec.template.spec: additionalProperties: Additional properties are not " in (
        ran.stderr
    )
    assert not (tmp_path / "onprem").exists()
