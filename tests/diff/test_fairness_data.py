"""``diff --fairness`` on the data the plans know: a manifest digest both stacks declare
(``manifestSha256``) is compared; declared on one side or neither it is unknown, a note
that sends the reader to the results, never a finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import run
from tests.diff.plan_dirs import copy_project
from tests.stack_helpers import REPO, example_config, with_data_stack
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.diff.fairness import FairnessReport, classify
from trainstack.diff.sources import two_stacks

ONE = "sha256:" + "1" * 64
TWO = "sha256:" + "2" * 64


def _write(directory: Path, manifests: dict[str, str | None]) -> None:
    for stack, digest in manifests.items():
        config = example_config(stack)
        if digest is not None:
            config["trainstack:datasets"][0]["manifestSha256"] = digest
        (directory / f"Pulumi.{stack}.yaml").write_text(dump_yaml({"config": config}))


def _report(directory: Path, manifests: dict[str, str | None]) -> FairnessReport:
    _write(directory, manifests)
    project = Project(root=REPO, name="trainstack", stack_config_dir=with_data_stack(directory))
    compared = two_stacks(project, "aiacc", "baseline", context=3)
    return classify(compared.diff, compared.before, compared.after)


def test_the_same_declared_manifest_is_fair_without_a_note(tmp_path: Path) -> None:
    report = _report(tmp_path, {"aiacc": ONE, "baseline": ONE})
    assert report.fair, report.of("other")
    assert not [note for note in report.notes if note.startswith("dataset ")]


def test_different_declared_manifests_are_unfair_naming_the_dataset(tmp_path: Path) -> None:
    report = _report(tmp_path, {"aiacc": ONE, "baseline": TWO})
    assert not report.fair
    assert [(f.subject, f.detail) for f in report.of("other")] == [
        (
            "dataset imagenet-data",
            f'reads different data: manifest "{ONE}" (aiacc: '
            f'trainstack:datasets[0].manifestSha256) -> "{TWO}" (baseline: '
            "trainstack:datasets[0].manifestSha256)",
        )
    ]


@pytest.mark.parametrize(
    ("manifests", "said"),
    [
        (
            {"aiacc": ONE, "baseline": None},
            f'manifest unknown on baseline (manifestSha256 not declared); aiacc declares "{ONE}"',
        ),
        (
            {"aiacc": None, "baseline": None},
            "manifest unknown on aiacc and baseline (manifestSha256 not declared)",
        ),
    ],
    ids=["one side", "neither"],
)
def test_an_undeclared_manifest_is_unknown_not_evidence(
    tmp_path: Path, manifests: dict[str, str | None], said: str
) -> None:
    report = _report(tmp_path, manifests)
    assert report.fair, report.of("other")
    assert [note for note in report.notes if note.startswith("dataset ")] == [
        f"dataset imagenet-data: {said}: which bytes each stack reads is checked on its runs' "
        "results (`trainstack results compare aiacc baseline`)"
    ]


def test_the_command_says_not_comparable_naming_the_dataset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = copy_project(tmp_path)
    _write(project / "stacks", {"aiacc": ONE, "baseline": TWO})
    ran = run(project, "diff", "aiacc", "baseline", "--fairness", monkeypatch=monkeypatch)
    lines = ran.stdout.splitlines()
    assert ran.code == 1, ran.stderr
    assert lines[0].startswith("fairness aiacc -> baseline: NOT COMPARABLE: 1 difference")
    assert any(
        line.startswith("  other             dataset imagenet-data: reads different data: manifest")
        for line in lines
    )
