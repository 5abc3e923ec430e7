"""Each stack's plan-time warnings in ``trainstack diff``: new ones first, none hidden.

The end-to-end cases run ``trainstack diff --base main aiacc`` on a git repository holding
a copy of the project, as the pull-request workflow does; the expected lines are written
from the inputs the tests create (the unbacked-write rule of ``trainstack.checks.outputs``:
an output option whose absolute path no writable volume backs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import Ran, run, run_process
from tests.diff.plan_dirs import copy_project, init_repo, write_plan_dir
from trainstack.core.yaml.io import read_yaml
from trainstack.diff.model import Review
from trainstack.diff.warning_changes import review_from_file, warning_changes
from trainstack.plan.files import (
    REVIEW_JSON,
    AcknowledgedItem,
    NotSelectedItem,
    ReviewFile,
    WarningItem,
    encode,
)

AIACC = "stacks/Pulumi.aiacc.yaml"
TEMPLATE = "stacks/templates/workload-1-ack.yaml"
BASELINE = "stacks/Pulumi.baseline.yaml"
ACKED_REASON = "a scratch run: nobody keeps its model"


def _unbacked(path: str) -> str:
    """The unbackedWrite message for ``--model-dir PATH`` of a job that mounts nothing."""
    return (
        f"--model-dir {path}: the job writes there, but no volume is mounted at or above it "
        "(the job mounts no writable volume): what it writes is lost with the pods; mount a "
        "claim there (job.results {claimName, mountPath}, a dataset of the stack) or write "
        "under a mounted path"
    )


# -- matching: warning_changes -----------------------------------------------------------


def _item(
    message: str, source: str = "experiments/a.yaml", check: str = "borrowing"
) -> WarningItem:
    return WarningItem(check=check, source=source, experiment="a", key="team", message=message)


def _review(
    stack_file: str = AIACC,
    warnings: tuple[WarningItem, ...] = (),
    acknowledged: tuple[AcknowledgedItem, ...] = (),
    not_selected: tuple[NotSelectedItem, ...] = (),
) -> Review:
    review = review_from_file(
        ReviewFile(stack_file, "x", list(warnings), list(acknowledged), list(not_selected))
    )
    assert review is not None
    return review


def _acknowledged(item: WarningItem, reason: str = "meant") -> AcknowledgedItem:
    return AcknowledgedItem(
        item.check, item.source, item.experiment, item.key, item.message, reason, "x: ack[0]"
    )


def test_the_same_warning_in_two_stack_files_is_unchanged() -> None:
    """A team warning names the stack file it reads; aiacc's and baseline's are one warning."""

    def team_warning(stack_file: str) -> WarningItem:
        return _item(
            f"the job needs 16 GPUs, above team vision's own 10 GPUs (trainstack:teams[0]"
            f".quota.gpu in {stack_file})",
            source=stack_file,
        )

    changes = warning_changes(
        _review(AIACC, (team_warning(AIACC),)),
        _review(BASELINE, (team_warning(BASELINE),)),
        "aiacc",
        "baseline",
    )
    assert (changes.new, changes.gone) == ((), ())
    [unchanged] = changes.unchanged
    assert (unchanged.source, unchanged.message.endswith(f"in {BASELINE})")) == (BASELINE, True)
    assert not changes.changed


def test_a_warning_whose_numbers_change_is_new_and_the_old_one_gone() -> None:
    before = _item("the job needs 12 GPUs, above team nlp's own 6 GPUs")
    after = _item("the job needs 16 GPUs, above team nlp's own 6 GPUs")
    changes = warning_changes(_review(warnings=(before,)), _review(warnings=(after,)), "a", "b")
    assert [w.message for w in changes.new] == [after.message]
    assert [w.message for w in changes.gone] == [before.message]
    assert changes.unchanged == ()
    assert changes.changed


def test_acknowledging_a_warning_is_neither_new_nor_gone() -> None:
    found = _item("the job needs 16 GPUs")
    changes = warning_changes(
        _review(warnings=(found,)), _review(acknowledged=(_acknowledged(found),)), "a", "b"
    )
    assert (changes.new, changes.gone, changes.unchanged) == ((), (), ())
    [(warning, newly)] = changes.acknowledged
    assert (warning.message, warning.reason, newly) == ("the job needs 16 GPUs", "meant", True)
    assert changes.changed


def test_a_warning_acknowledged_on_both_sides_is_shown_but_no_change() -> None:
    found = _acknowledged(_item("the job needs 16 GPUs"))
    changes = warning_changes(
        _review(acknowledged=(found,)), _review(acknowledged=(found,)), "a", "b"
    )
    assert [(w.reason, newly) for w, newly in changes.acknowledged] == [("meant", False)]
    assert changes.any and not changes.changed


def test_dropping_an_acknowledgement_makes_the_warning_new() -> None:
    found = _item("the job needs 16 GPUs")
    changes = warning_changes(
        _review(acknowledged=(_acknowledged(found),)), _review(warnings=(found,)), "a", "b"
    )
    assert [w.message for w in changes.new] == ["the job needs 16 GPUs"]
    assert (changes.gone, changes.acknowledged) == ((), ())


def test_a_warning_that_disappears_while_acknowledged_is_gone() -> None:
    found = _acknowledged(_item("the job needs 16 GPUs"))
    changes = warning_changes(_review(acknowledged=(found,)), _review(), "a", "b")
    [gone] = changes.gone
    assert (gone.message, gone.reason) == ("the job needs 16 GPUs", "meant")


def test_experiments_no_longer_selected_are_told_apart_from_those_never_selected() -> None:
    old = NotSelectedItem("experiments/old.yaml", ["old"])
    before = _review(not_selected=(old,))
    after = _review(not_selected=(old, NotSelectedItem("experiments/m.yaml", ["m-1", "m-2"])))
    changes = warning_changes(before, after, "a", "b")
    assert changes.newly_not_selected == (
        ("experiments/m.yaml", "m-1"),
        ("experiments/m.yaml", "m-2"),
    )
    assert changes.not_selected == (("experiments/old.yaml", "old"),)
    assert changes.changed


def test_a_plan_without_review_json_is_noted_and_its_warnings_not_compared() -> None:
    found = _item("the job needs 16 GPUs")
    changes = warning_changes(None, _review(warnings=(found,)), "aiacc@main", "aiacc")
    assert changes.notes == (
        "the plan aiacc@main records no warnings (made by a trainstack without review.json): "
        "its warnings are not compared",
    )
    assert [w.message for w in changes.new] == ["the job needs 16 GPUs"]
    assert changes.newly_not_selected == ()


def test_the_note_is_shown_even_when_neither_side_has_a_warning() -> None:
    changes = warning_changes(None, _review(), "old", "new")
    assert changes.any and not changes.changed


def test_diff_of_a_plan_without_review_json_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = write_plan_dir(tmp_path / "old", "aiacc", {"x": 1})
    new = write_plan_dir(tmp_path / "new", "aiacc", {"x": 1})
    found = WarningItem("memoryLimit", "experiments/x.yaml", "x", "job.worker", "no limit")
    (new / REVIEW_JSON).write_bytes(encode(ReviewFile(AIACC, warnings=[found])))
    ran = run(tmp_path, "diff", "--plans", str(old), str(new), monkeypatch=monkeypatch)
    assert ran.code == 1  # a new warning is a change, with no object changed
    assert ran.stdout.splitlines()[1:4] == [
        "warnings: 1 new, 0 gone, 0 unchanged, 0 acknowledged",
        "  new  experiments/x.yaml: experiment x: job.worker: no limit [memoryLimit]",
        f"note: the plan {old} records no warnings (made by a trainstack without review.json): "
        "its warnings are not compared",
    ]


# -- end to end: a pull request that adds, fixes and acknowledges warnings ---------------


def _experiment(name: str, path: str, extra: str = "") -> str:
    """A CPU-only TFJob of team nlp whose command writes a model to ``path``."""
    return (
        f"name: {name}\n"
        "team: nlp\n"
        f"{extra}"
        "job:\n"
        "  framework: tensorflow\n"
        "  image: {name: kubeflow/tf-mnist:1.0}\n"
        f"  command: [python, /mnist.py, --model-dir, {path}]\n"
        "  worker: {replicas: 1, gpus: 0}\n"
    )


EXAMPLE_SELECTION = '    select:\n      - "*"\n    exclude:\n      - "*-onprem"\n'
"""The example stack's selection (a pattern): these tests name their experiments instead."""
SELECTED = ("imagenet-tensorflow", "tf-multiworker-mnist", "pytorch-ddp-mnist", "keras-lstm")


def _select(root: Path, *names: str, drop: str = "") -> None:
    stack = root / AIACC
    text = stack.read_text()
    if EXAMPLE_SELECTION in text:
        listed = "".join(f"      - {name}\n" for name in SELECTED)
        text = text.replace(EXAMPLE_SELECTION, "    select:\n" + listed)
    listed = "      - keras-lstm\n"
    assert listed in text
    text = text.replace(listed, listed + "".join(f"      - {name}\n" for name in names))
    stack.write_text(text.replace(f"      - {drop}\n", "") if drop else text)


@pytest.fixture(scope="module")
def pull_request(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """``diff --base main aiacc`` (markdown and text) of a change to a committed project.

    On main, three selected experiments write where no volume is mounted. The change adds
    a fourth (new warning), mounts the results volume under one (gone), acknowledges
    another (newly acknowledged), keeps the last (unchanged) and stops selecting
    pytorch-ddp-mnist.
    """
    # baseline and onprem select what aiacc leaves out (no selectedByNoStack warning here)
    stacks = ("imagenet", "aiacc", "baseline", "onprem")
    root = copy_project(tmp_path_factory.mktemp("pr") / "repo", stacks)
    experiments = root / "experiments"
    for name in ("kept", "fixed", "acked"):
        (experiments / f"{name}.yaml").write_text(_experiment(name, f"/models/{name}"))
    _select(root, "kept", "fixed", "acked")
    init_repo(root)

    (experiments / "added.yaml").write_text(_experiment("added", "/models/added"))
    results = "  results: {claimName: training-results, mountPath: /models}\n"
    (experiments / "fixed.yaml").write_text(_experiment("fixed", "/models/fixed") + results)
    key = "key: 'job.command[2]'"
    acknowledge = f"acknowledge: [{{warning: unbackedWrite, {key}, reason: '{ACKED_REASON}'}}]\n"
    (experiments / "acked.yaml").write_text(_experiment("acked", "/models/acked", acknowledge))
    _select(root, "added", drop="pytorch-ddp-mnist")
    # The markdown one as the workflow runs it, a process; the text one (the same diff,
    # served by the plan cache) in this process: 1-2 s of CPU less.
    command = ("diff", "--base", "main", "aiacc", "--format")
    with pytest.MonkeyPatch.context() as monkeypatch:
        return {
            "markdown": run_process(root, *command, "markdown"),
            "text": run(root, *command, "text", monkeypatch=monkeypatch),
        }


def _stack_reasons() -> list[str]:
    """The reasons of the example aiacc stack's acknowledgements (in the cluster template
    it shares with baseline), in file order (borrowing of imagenet-tensorflow, then
    queuedTogether)."""
    template = read_yaml(Path(__file__).parents[2] / "stacks/templates/workload-1-ack.yaml")
    return [item["reason"] for item in template["acknowledge"]]


def _warning_text(name: str) -> str:
    message = _unbacked(f"/models/{name}")
    return f"experiments/{name}.yaml: experiment {name}: job.command[2]: {message} [unbackedWrite]"


def test_the_pr_comment_lists_the_changes_and_folds_the_rest(pull_request: dict[str, Ran]) -> None:
    ran = pull_request["markdown"]
    assert ran.code == 1, ran.stderr
    comment = ran.stdout
    heading = comment.index("#### `aiacc@main` → `aiacc`\n\n")
    start = comment.index("**Warnings:**")
    # In the pair's section: the warning changes, then the objects, then the folded rest.
    assert heading < start < comment.index("| change | object |") < comment.index("<details>")
    text, _, notes = comment[start:].split("\n\n| change | object |")[0].partition("\n\n- note: ")
    # the values of two jobs changed: their digest annotation is said once, in a note
    assert notes.startswith(
        "``trainstack.io/base-values-digest changed on 2 object(s), shown as '(digest follows "
        "values)'"
    )
    section = text.splitlines()
    assert section[:5] == [
        "**Warnings:** 1 new, 1 gone, 1 unchanged, 3 acknowledged (1 newly)",
        "",
        "> [!WARNING]",
        "> 1 new warning(s) with this change.",
        "",
    ]

    def item(label: str, name: str) -> str:
        return (
            f"- **{label}** `unbackedWrite` `experiments/{name}.yaml` experiment `{name}` "
            f"`job.command[2]`: `{_unbacked(f'/models/{name}')}`"
        )

    assert section[5:] == [
        item("new", "added"),
        item("gone", "fixed"),
        item("newly acknowledged", "acked")
        + f" — acknowledged in `experiments/acked.yaml: acknowledge[0]`: `{ACKED_REASON}`",
        "- `newly not selected (this stack no longer plans them, or never did): "
        "experiments/pytorch-ddp-mnist.yaml (pytorch-ddp-mnist)`",
    ]
    # What did not change is folded at the end of the section, reasons included.
    folded = comment[comment.rindex("<details><summary>") :].splitlines()
    assert folded[0] == (
        "<details><summary>1 unchanged warning(s), 2 acknowledged warning(s), "
        "1 experiment(s) not selected</summary>"
    )
    stack_ack = "`stacks/templates/workload-1-ack.yaml: acknowledge[{}]`: `{}`"
    borrowing, queued = (stack_ack.format(n, r) for n, r in enumerate(_stack_reasons()))
    items = folded[2 : folded.index("</details>") - 1]
    assert items[0] == item("unchanged", "kept")
    # The example stack's own acknowledgements: shown, with their reasons, not hidden.
    assert items[1].startswith("- **acknowledged** `queuedTogether` `stacks/Pulumi.aiacc.yaml`")
    assert items[1].endswith(f" — acknowledged in {queued}")
    assert items[2].startswith("- **acknowledged** `borrowing` `experiments/imagenet-tensorflow")
    assert items[2].endswith(f" — acknowledged in {borrowing}")
    assert items[3:] == [
        "- `not selected by the stack: experiments/horovod-resnet50-onprem.yaml "
        "(horovod-resnet50-onprem)`",
    ]
    assert folded[folded.index("</details>") - 1] == ""


def test_the_text_report_lists_them_alike(pull_request: dict[str, Ran]) -> None:
    ran = pull_request["text"]
    assert ran.code == 1, ran.stderr
    lines = ran.stdout.splitlines()
    start = lines.index("warnings: 1 new, 1 gone, 1 unchanged, 3 acknowledged (1 newly)")
    # Labels padded to the widest, "newly acknowledged" (18 characters).
    assert lines[start + 1 : start + 5] == [
        f"  new                 {_warning_text('added')}",
        f"  gone                {_warning_text('fixed')}",
        f"  newly acknowledged  {_warning_text('acked')} (acknowledged in "
        f"experiments/acked.yaml: acknowledge[0]: {ACKED_REASON})",
        f"  unchanged           {_warning_text('kept')}",
    ]
    borrowing, queued = _stack_reasons()
    assert lines[start + 5].endswith(
        f"[queuedTogether] (acknowledged in {TEMPLATE}: acknowledge[1]: {queued})"
    )
    assert lines[start + 6].endswith(
        f"[borrowing] (acknowledged in {TEMPLATE}: acknowledge[0]: {borrowing})"
    )
    assert lines[start + 7 : start + 9] == [
        "newly not selected (this stack no longer plans them, or never did): "
        "experiments/pytorch-ddp-mnist.yaml (pytorch-ddp-mnist)",
        "not selected by the stack: experiments/horovod-resnet50-onprem.yaml "
        "(horovod-resnet50-onprem)",
    ]
    assert "\x1b[" not in ran.stdout  # a pipe: no colour
