"""Operators: releases of the catalog, pinned, and one owner per CRD."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.config.conftest import Loader
from tests.stack_helpers import example_config
from trainstack.config import operators as operators_config
from trainstack.core.errors import ConfigError
from trainstack.operators.registry import release
from trainstack.operators.spec import ManifestInstall

DIGEST = "0" * 63 + "1"
ARENA = {"version": "0.14.2"}


def _operators(**changes: Any) -> dict[str, Any]:
    config = example_config("aiacc")
    config["trainstack:operators"].update(changes)
    return config


def _problem(load: Loader, config: dict[str, Any], match: str) -> Any:
    with pytest.raises(ConfigError, match=match) as caught:
        load(config)
    (problem,) = caught.value.problems
    return problem


def test_the_example_operators_are_catalog_releases(load: Loader) -> None:
    enabled = load(example_config("aiacc")).config.operators.enabled()
    assert [(op.key, op.release.version, op.release.install.kind) for op in enabled] == [
        ("mpiOperator", "0.8.2", "manifest"),
        ("trainingOperator", "1.9.4", "kustomize"),
    ]


def test_a_version_the_catalog_does_not_know_is_refused_with_the_known_ones(
    load: Loader,
) -> None:
    problem = _problem(
        load,
        _operators(arena={"version": "0.15.3"}, mpiOperator=None, trainingOperator=None),
        "version",
    )
    assert problem.path == "trainstack:operators.arena.version"
    assert problem.found == '"0.15.3"'
    assert (
        problem.allowed == "a version the catalog knows for ACK ack-arena: 0.13.1, 0.14.1, 0.14.2"
    )


def test_versions_are_exact(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["mpiOperator"]["version"] = "^0.8"
    problem = _problem(load, config, "version")
    assert problem.path == "trainstack:operators.mpiOperator.version"


def test_a_manifest_install_needs_a_pinned_digest(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:operators"]["mpiOperator"]["manifestSha256"]
    problem = _problem(load, config, "manifestSha256")
    assert problem.path == "trainstack:operators.mpiOperator.manifestSha256"
    assert problem.allowed.startswith(
        "the sha256 of https://raw.githubusercontent.com/kubeflow/mpi-operator/v0.8.2/"
        "deploy/v2beta1/mpi-operator.yaml"
    )


@pytest.mark.parametrize("digest", ["abc", "0" * 64 + "\n", "Z" * 64, "<>"])
def test_a_digest_is_64_hex_characters_or_a_placeholder(load: Loader, digest: str) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["mpiOperator"]["manifestSha256"] = digest
    problem = _problem(load, config, "manifestSha256")
    assert problem.path == "trainstack:operators.mpiOperator.manifestSha256"


def test_a_real_digest_and_a_mirror_are_accepted(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["mpiOperator"].update(
        {"manifestSha256": DIGEST, "manifestUrl": "https://mirror.example.com/mpi-operator.yaml"}
    )
    (mpi, _) = load(config).config.operators.enabled()
    assert mpi.settings.manifest_url == "https://mirror.example.com/mpi-operator.yaml"


@pytest.mark.parametrize(
    ("key", "value", "kind"),
    [
        ("config", {"a": 1}, "ack-addon"),
        ("values", {"a": 1}, "chart"),
        ("manifestSha256", DIGEST, "manifest"),
    ],
)
def test_settings_for_another_kind_of_install_are_refused(
    load: Loader, key: str, value: Any, kind: str
) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["trainingOperator"][key] = value
    problem = _problem(load, config, key)
    assert problem.path == f"trainstack:operators.trainingOperator.{key}"
    assert problem.allowed == (
        f"nothing: trainingOperator 1.9.4 installs from a kustomize, and {key} is for {kind} "
        "installs"
    )


def test_arena_beside_the_upstream_operators_is_refused_with_the_fix(load: Loader) -> None:
    problem = _problem(load, _operators(arena=ARENA), "no coexistence is documented")
    assert problem.path == "trainstack:operators.arena.enabled"
    assert problem.allowed == (
        "false while operators.mpiOperator is enabled: both install mpijobs.kubeflow.org and "
        "no coexistence is documented for operators.arena (ACK ack-arena 0.14.2); ack-arena's "
        "operators cannot be switched off: serve the jobs with operators.mpiOperator alone (set "
        "operators.arena.enabled: false), or with arena alone"
    )


def test_training_operator_coexists_with_mpi_operator(load: Loader) -> None:
    operators = load(example_config("aiacc")).config.operators
    (mpi, served) = operators.serving("mpijobs.kubeflow.org") or (None, None)
    assert mpi is not None and served is not None
    assert (mpi.key, served.api_version) == ("mpiOperator", "kubeflow.org/v2beta1")
    # training-operator's own MPIJob v1 CRD is left out of its install
    (training,) = [op for op in operators.enabled() if op.key == "trainingOperator"]
    assert "mpijobs.kubeflow.org" not in training.release.crds


def test_a_disabled_operator_owns_nothing(load: Loader) -> None:
    config = _operators(arena={**ARENA, "enabled": False})
    operators = load(config).config.operators
    serving = operators.serving("tfjobs.kubeflow.org")
    assert serving is not None and serving[0].key == "trainingOperator"


def test_ack_arena_needs_ack(load: Loader) -> None:
    config = example_config("onprem")
    config["trainstack:operators"] = {"arena": ARENA}
    problem = _problem(load, config, "ACK add-on")
    assert problem.path == "trainstack:operators.arena.enabled"
    assert problem.allowed == (
        "false on an existing cluster: operators.arena (ACK ack-arena 0.14.2) is an ACK add-on"
    )


def test_a_digest_other_than_the_catalogs_is_refused(
    load: Loader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the catalog knows a manifest's digest, a different pin is an error at its key."""
    known = release("mpiOperator", "0.8.2")
    assert known is not None and isinstance(known.install, ManifestInstall)
    pinned = dataclasses.replace(known, install=dataclasses.replace(known.install, sha256="a" * 64))
    monkeypatch.setattr(
        operators_config,
        "catalog_release",
        lambda key, version: pinned if key == "mpiOperator" else release(key, version),
    )
    config = example_config("aiacc")
    config["trainstack:operators"]["mpiOperator"]["manifestSha256"] = "b" * 64
    problem = _problem(load, config, "manifestSha256")
    assert problem.path == "trainstack:operators.mpiOperator.manifestSha256"
    assert problem.allowed == (
        f"{'a' * 64}, the digest of https://raw.githubusercontent.com/kubeflow/mpi-operator/"
        "v0.8.2/deploy/v2beta1/mpi-operator.yaml (or leave it unset)"
    )


@pytest.mark.parametrize(
    ("operator", "key", "value", "kinds"),
    [
        ("trainer", "images", {"alpine:3.21": "acr.example/alpine:3.21"}, "manifest and kustomize"),
        ("mpiOperator", "chartRepo", "oci://acr.example.com/charts", "chart"),
        ("mpiOperator", "kustomization", "./mirrors/mpi", "kustomize"),
    ],
)
def test_a_mirror_key_for_another_kind_of_install_is_refused(
    load: Loader, operator: str, key: str, value: Any, kinds: str
) -> None:
    settings = {"trainer": {"version": "2.3.0"}} if operator == "trainer" else {}
    config = _operators(**settings)
    config["trainstack:operators"][operator][key] = value
    problem = _problem(load, config, key)
    assert problem.path == f"trainstack:operators.{operator}.{key}"
    assert problem.allowed.endswith(f"and {key} is for {kinds} installs")


@pytest.mark.parametrize("directory", ["/etc", "../outside", "./a/../../b", "my mirrors"])
def test_a_kustomization_of_your_own_is_a_directory_of_the_project(
    load: Loader, directory: str
) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["trainingOperator"]["kustomization"] = directory
    problem = _problem(load, config, "kustomization")
    assert problem.path == "trainstack:operators.trainingOperator.kustomization"
