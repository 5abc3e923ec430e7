"""The operator catalog: its facts hold against the upstream CRDs and its own files."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.chart.jobs import job_values, render_job
from tests.conformance import crd_dir
from tests.stack_helpers import REPO
from trainstack.conformance import CrdSchemas, object_violations
from trainstack.operators.compatibility import ANY, REQUIREMENTS, Requirement, Versions
from trainstack.operators.registry import (
    OPERATORS,
    families,
    family,
    image_version,
    index,
    known_versions,
    latest,
    release,
)
from trainstack.operators.spec import ChartInstall, KustomizeInstall, OperatorRelease, ServedApi
from trainstack.training_job.frameworks import by_crd, framework
from trainstack.training_job.settings import SETTINGS

# Chart values that make a job use each setting (every setting must have one).
USING: dict[str, dict[str, Any]] = {
    "runPolicy.cleanPodPolicy": {"runPolicy": {"cleanPodPolicy": "All"}},
    "runPolicy.backoffLimit": {"runPolicy": {"backoffLimit": 3}},
    "runPolicy.activeDeadlineSeconds": {"runPolicy": {"activeDeadlineSeconds": 7200}},
    "runPolicy.ttlSecondsAfterFinished": {"runPolicy": {"ttlSecondsAfterFinished": 600}},
    "scheduling.gang.enabled": {"scheduling": {"gang": {"enabled": True}}},
    "security.seccompProfile": {"security": {"seccompProfile": "RuntimeDefault"}},
    "pytorch.nprocPerNode": {"pytorch": {"nprocPerNode": "gpu"}},
    "pytorch.elasticPolicy": {
        "pytorch": {"elasticPolicy": {"minReplicas": 1, "maxReplicas": 4, "rdzvBackend": "c10d"}}
    },
    "pytorch.master.replicas": {"pytorch": {"master": {"replicas": 0}}},
    "tensorflow.successPolicy": {"tensorflow": {"successPolicy": "AllWorkers"}},
}
# What an unhonoured setting is set to so that the job does without it.
WITHOUT: dict[str, dict[str, Any]] = {
    "security.seccompProfile": {"security": {"seccompProfile": None}}
}

RELEASES = [r for family in families() for r in family.releases.values()]
SERVED = [(r, api) for r in RELEASES for api in r.serves if api.dialect is not None]


def _id(item: Any) -> str:
    if isinstance(item, OperatorRelease):
        return f"{item.family}-{item.version}"
    if isinstance(item, ServedApi):
        return item.kind
    return str(item)


def test_every_setting_has_an_example() -> None:
    assert set(USING) == {setting.key for setting in SETTINGS}


@pytest.mark.parametrize("found", RELEASES, ids=_id)
def test_each_release_names_its_source_and_serves_only_crds_it_installs(
    found: OperatorRelease,
) -> None:
    assert found.source
    assert {api.crd for api in found.serves} <= set(found.crds)
    assert {(api.api_version, api.kind) for api in found.serves} <= set(found.schemas)
    for api in found.serves:
        assert api.honours <= {setting.key for setting in SETTINGS}


def test_the_trainer_comes_from_its_official_chart_with_two_runtimes() -> None:
    trainer = release("trainer", "2.3.0")
    assert trainer is not None
    install = trainer.install
    assert isinstance(install, ChartInstall)
    assert (install.repo, install.name, install.namespace) == (
        "oci://ghcr.io/kubeflow/charts",
        "kubeflow-trainer",
        "kubeflow-system",
    )
    assert install.values == {
        "runtimes": {
            "torchDistributed": {"enabled": True},
            "deepspeedDistributed": {"enabled": True},
        }
    }
    (served,) = trainer.serves
    assert (served.kind, served.api_version, served.suspend) == (
        "TrainJob",
        "trainer.kubeflow.org/v1alpha1",
        True,
    )
    assert by_crd(served.crd) is framework("trainjob")
    # its object has no run policy: only what it carries is honoured
    assert served.honours == {"runPolicy.activeDeadlineSeconds", "security.seccompProfile"}


def test_the_trainjob_crd_really_lacks_the_run_policy() -> None:
    """A TrainJob spelled with runPolicy is refused by the CRD at exactly that field."""
    schemas = CrdSchemas(crd_dir())
    trainer = release("trainer", "2.3.0")
    assert trainer is not None
    job = render_job(job_values("trainjob"))
    assert object_violations(job, schemas, trainer.schemas) == []
    job["spec"]["runPolicy"] = {"cleanPodPolicy": "Running"}
    (violation,) = object_violations(job, schemas, trainer.schemas)
    assert violation.path == "spec"


def test_lookups_name_what_the_catalog_knows() -> None:
    assert known_versions("mpiOperator") == ["0.6.0", "0.8.2"]
    assert latest("trainingOperator").version == "1.9.4"
    assert release("arena", "0.15.3") is None
    with pytest.raises(KeyError, match=r"unknown operator 'volcano' \(known: arena, kueue"):
        known_versions("volcano")
    with pytest.raises(ValueError, match="operator 'kueue' is registered twice"):
        index([*OPERATORS, families()[1]])


@pytest.mark.parametrize(
    "found", [r for r in RELEASES if isinstance(r.install, KustomizeInstall)], ids=_id
)
def test_each_kustomization_drops_mpijob_v1_and_enables_the_other_schemes(
    found: OperatorRelease,
) -> None:
    assert isinstance(found.install, KustomizeInstall)
    text = (REPO / found.install.directory / "kustomization.yaml").read_text()
    assert f"- {found.install.remote}\n" in text
    assert "name: mpijobs.kubeflow.org" in text and "$patch: delete" in text
    schemes = set(re.findall(r"--enable-scheme=(\w+)", text))
    # one scheme per CRD the release keeps, named like the CRD's singular kind
    assert schemes == {crd.split(".")[0].removesuffix("s") for crd in found.crds}
    assert "mpijob" not in schemes


@pytest.mark.parametrize(("found", "served"), SERVED, ids=_id)
def test_every_honoured_setting_reaches_the_crd_of_the_serving_operator(
    found: OperatorRelease, served: ServedApi
) -> None:
    """A job using every setting the entry says it honours conforms to its CRD: no field of
    it would be pruned. (The CRD schemas come from TRAINSTACK_CRD_DIR.)"""
    schemas = CrdSchemas(crd_dir())
    spec = by_crd(served.crd)
    assert spec is not None
    values = job_values(spec.name, worker={"replicas": 2, "gpus": 1})
    if served.dialect != "kubeflow":
        values["operatorApi"] = served.dialect
    for setting in SETTINGS:
        if not setting.applies_to(spec.name):
            continue
        overlay = USING[setting.key] if setting.key in served.honours else WITHOUT.get(setting.key)
        for section, value in (overlay or {}).items():
            values[section] = {**values.get(section, {}), **value}
    job = render_job(values)
    assert (job["apiVersion"], job["kind"]) == (served.api_version, served.kind)
    assert object_violations(job, schemas, found.schemas) == []


@pytest.mark.parametrize("kind", ["TFJob", "PyTorchJob"])
def test_arena_crds_really_lack_what_the_catalog_says_they_drop(kind: str) -> None:
    """The upstream spelling of a job, checked against Arena's CRD, is refused exactly at
    the fields the catalog lists as not honoured."""
    schemas = CrdSchemas(crd_dir())
    arena = release("arena", "0.14.2")
    assert arena is not None
    framework = {"TFJob": "tensorflow", "PyTorchJob": "pytorch"}[kind]
    job = render_job(job_values(framework, worker={"replicas": 1}))
    paths = {v.path for v in object_violations(job, schemas, arena.schemas)}
    assert "spec" in paths  # runPolicy: an unknown property of spec
    assert any(path.endswith("securityContext") for path in paths)  # seccompProfile


PUBLISHED = {
    "mpiOperator": "https://github.com/kubeflow/mpi-operator/releases/tag/v{version}",
    "kueue": "https://github.com/kubernetes-sigs/kueue/releases/tag/v{version}",
    "trainer": "https://github.com/kubeflow/trainer/releases/tag/v{version}",
    "trainingOperator": "https://github.com/kubeflow/trainer/releases/tag/v{version}",
}


@pytest.mark.parametrize("found", RELEASES, ids=_id)
def test_every_pinned_version_is_a_published_release(found: OperatorRelease) -> None:
    if found.family == "arena":  # an ACK add-on: its versions are ACK's change log's
        assert found.published is None and "change log" in found.source
        return
    assert found.published == PUBLISHED[found.family].format(version=found.version)


def test_a_version_that_never_shipped_is_not_a_release_and_names_one_that_is() -> None:
    for listed in families():
        for version, why in listed.withdrawn.items():
            assert version not in listed.releases
            use = why.rpartition("; use ")[2]
            assert use in listed.releases, (listed.key, version)
    assert "0.8.1" in family("mpiOperator").withdrawn


def test_kueue_has_releases_that_write_runtime_patches() -> None:
    assert known_versions("kueue") == ["0.16.1", "0.18.6", "0.19.2"]
    assert latest("kueue").version == "0.19.2"


@pytest.mark.parametrize("rule", REQUIREMENTS, ids=lambda r: f"{r.family}-{r.needs}")
def test_every_rule_names_catalog_families_and_leaves_a_way_out(rule: Requirement) -> None:
    for key in (rule.family, rule.needs):
        assert family(key).releases
    # for each release the rule holds for, the catalog has a release of the other family
    # that works with it (no stack is stuck), unless none of its releases is in range
    working = [v for v in known_versions(rule.needs) if v in rule.needs_versions]
    if any(v in rule.versions for v in known_versions(rule.family)):
        assert working, rule
    assert rule.reason and ("#" in rule.reason)


def test_version_ranges() -> None:
    assert "0.17.0" in Versions(at_least="0.17.0")
    assert "0.16.9" not in Versions(at_least="0.17.0")
    assert "2.1.0" in Versions(below="2.2.0") and "2.2.0" not in Versions(below="2.2.0")
    assert "0.0.1" in ANY
    assert str(Versions(at_least="0.8.0")) == ">= 0.8.0"
    assert str(ANY) == "any version"


def test_trainer_2_3_and_kueue_0_16_are_the_pair_that_does_not_work() -> None:
    (rule,) = [r for r in REQUIREMENTS if r.family == "trainer" and "2.3.0" in r.versions]
    assert rule.needs == "kueue"
    assert [v for v in known_versions("kueue") if v not in rule.needs_versions] == ["0.16.1"]


def test_training_operator_1_8_1_keeps_mxjobs_served() -> None:
    old = release("trainingOperator", "1.8.1")
    new = release("trainingOperator", "1.9.4")
    assert old is not None and new is not None
    assert "mxjobs.kubeflow.org" in old.crds  # manifests/base/crds at v1.8.1
    assert "mxjobs.kubeflow.org" not in new.crds
    # beside mpi-operator, by data: no training-operator release installs mpijobs
    assert all(
        "mpijobs.kubeflow.org" not in r.crds for r in family("trainingOperator").releases.values()
    )


def test_the_trainer_runtime_installer_pulls_alpine_and_runs_apk() -> None:
    trainer = release("trainer", "2.3.0")
    assert trainer is not None
    hook = next(p for p in trainer.pulls if p.reference == "docker.io/alpine:3.21")
    assert "apk add --no-cache kubectl" in hook.what
    assert hook.mirror == "values.runtimes.installer.image"


@pytest.mark.parametrize(
    ("key", "image", "version"),
    [
        # The catalog's image of a release: its tag is no version.
        ("trainingOperator", "ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489", "1.9.4"),
        ("trainingOperator", "kubeflow/training-operator:v1-04f9f13", "1.8.1"),
        ("trainingOperator", "kubeflow/training-operator:v1-0000000", None),
        # Else the tag, when it reads as a version (with or without v, a registry port).
        ("mpiOperator", "mpioperator/mpi-operator:0.8.2", "0.8.2"),
        ("kueue", "registry.k8s.io:443/kueue/kueue:v0.19.2", "0.19.2"),
        ("kueue", "my-mirror.cr.aliyuncs.com/kueue/kueue:v0.16.1@sha256:" + "a" * 64, "0.16.1"),
        ("kueue", "registry.k8s.io/kueue/kueue:latest", None),
        ("kueue", "registry.k8s.io/kueue/kueue", None),
    ],
)
def test_the_installed_release_is_read_from_the_image(
    key: str, image: str, version: str | None
) -> None:
    assert image_version(key, image) == version


def test_each_controller_with_an_image_runs_it_in_the_catalogs_install() -> None:
    for listed in families():
        for found in listed.releases.values():
            controller = found.controller
            if controller is None or controller.image is None:
                continue
            assert image_version(listed.key, controller.image) == found.version
            assert controller.namespace == found.install.namespace
