"""An experiment no stack selects: checked like every file, and a warning naming it and how
to select it; through ``trainstack plan`` and ``trainstack diff`` as users run them."""

from __future__ import annotations

from pathlib import Path

from tests.project_copy import copy_project, edit_yaml, run_in_process

EXPLICIT = ["imagenet-tensorflow", "tf-multiworker-mnist", "pytorch-ddp-mnist", "keras-lstm"]
TYPO = "name: typo\njob:\n  framwork: mpi\n  worker: {replicas: -3}\n"
"""The issue's `printf ... > experiments/typo.yaml`."""


def _selecting_by_name(root: Path) -> Path:
    """A project copy whose ACK stacks name their experiments (no pattern picks a new one)."""
    copy_project(root)
    for stack in ("aiacc", "baseline"):

        def by_name(document: dict) -> None:
            document["config"]["trainstack:experiments"] = {"select": EXPLICIT}

        edit_yaml(root / "stacks" / f"Pulumi.{stack}.yaml", by_name)
    return root


def test_a_broken_file_no_stack_selects_fails_plan_and_diff(tmp_path: Path) -> None:
    root = _selecting_by_name(tmp_path / "project")
    (root / "experiments" / "typo.yaml").write_text(TYPO)
    for args in (["plan", "aiacc", "-o", str(tmp_path / "plan")], ["diff", "aiacc", "baseline"]):
        outcome = run_in_process(args, root)
        assert outcome.status == 2, outcome.stderr
        assert outcome.error_lines == [
            "error: invalid experiment in experiments/typo.yaml:3: job.framwork: found unknown "
            'key "framwork" (did you mean "framework"?); allowed: one of the known keys: '
            "annotations, arenaSubmit, args, codeSync, command, datasets, env, envFrom, "
            "framework, hostPaths, image, labels, mpi, network, operatorApi, podAnnotations, "
            "preflight, pytorch, results, runPolicy, scheduling, security, shell, shm, "
            "tensorboard, tensorflow, trainjob, worker, workingDir",
            "error: invalid experiment in experiments/typo.yaml:2: job.image: found nothing (the "
            "key is missing); allowed: a value: this key is required",
            "error: invalid experiment in experiments/typo.yaml:4: job.worker.replicas: found "
            "-3; allowed: a number >= 0",
        ]
    assert not (tmp_path / "plan").exists()


def test_a_file_no_stack_selects_is_a_warning_naming_it_and_the_fix(tmp_path: Path) -> None:
    root = _selecting_by_name(tmp_path / "project")
    draft = root / "experiments" / "draft.yaml"
    draft.write_text((root / "experiments" / "pytorch-ddp-mnist.yaml").read_text())
    edit_yaml(draft, lambda document: document.update(name="draft"))
    outcome = run_in_process(["plan", "onprem", "-o", str(tmp_path / "plan")], root)
    assert outcome.status == 0, outcome.stderr
    warnings = [line for line in outcome.stderr.splitlines() if "[selectedByNoStack]" in line]
    line = draft.read_text().splitlines().index("name: draft") + 1
    assert warnings == [
        f"warning: experiments/draft.yaml:{line}: experiment draft: name: draft: "
        "selected by no stack (stacks/Pulumi.aiacc.yaml, stacks/Pulumi.baseline.yaml, "
        "stacks/Pulumi.onprem.yaml), so checked but never deployed: add 'draft' (or a pattern "
        "that matches it, e.g. '*') to trainstack:experiments.select of the stack that should "
        "run it, and take it out of that stack's trainstack:experiments.exclude [selectedByNoStack]"
    ]


def test_the_example_stacks_select_a_new_experiment_without_an_edit(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    new = root / "experiments" / "pytorch-ddp-mnist-2.yaml"
    new.write_text((root / "experiments" / "pytorch-ddp-mnist.yaml").read_text())
    edit_yaml(new, lambda document: document.update(name="pytorch-ddp-mnist-2"))
    outcome = run_in_process(["plan", "baseline", "-o", str(tmp_path / "plan")], root)
    assert outcome.status == 0, outcome.stderr
    assert "[selectedByNoStack]" not in outcome.stderr
    assert "│ pytorch-ddp-mnist-2 " in outcome.stdout
