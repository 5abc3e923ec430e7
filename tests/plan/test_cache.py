"""The plan cache never serves a stale plan: every input a plan reads changes its digest."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import trainstack
from tests.diff.plan_dirs import copy_project, init_repo
from tests.project_copy import run_in_process
from tests.stack_helpers import example_config
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.plan import cache as cache_module
from trainstack.plan import cache_digests
from trainstack.plan.cache import (
    CACHE_DIR_ENV,
    KEY_FILE,
    MARKER,
    CacheUnavailable,
    PlanCache,
)
from trainstack.plan.cache_digests import environment_digest, plan_digest, side_digest

pytestmark = pytest.mark.slow  # left out of `make test-fast`

KEY = bytes(range(32))


def _digest(root: Path, stack: str = "aiacc", key: bytes | None = KEY) -> str:
    project = Project.load(root)
    side = side_digest(environment_digest(), root, project.stack_config_dir)
    return plan_digest(side, stack, key)


def _append(relative: str, text: str = "\n# changed\n") -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / relative
        path.write_text(path.read_text() + text)

    return edit


@pytest.mark.parametrize(
    "edit",
    [
        _append("stacks/Pulumi.aiacc.yaml"),
        _append("stacks/Pulumi.imagenet.yaml"),  # the data stack it reads
        _append("experiments/imagenet-tensorflow.yaml"),
        _append("charts/training-job/templates/_pod.tpl", "{{/* changed */}}\n"),
        _append("charts/training-job/values.yaml"),
        _append("components/team.py"),
        _append("__main__.py"),
        _append("Pulumi.yaml"),
        lambda root: (root / "experiments" / "new.yaml").write_text("name: new\n"),
        lambda root: (root / "experiments" / "imagenet-tensorflow.yaml").unlink(),
    ],
    ids=[
        "stack",
        "data-stack",
        "experiment",
        "chart-template",
        "chart-values",
        "component",
        "program",
        "project",
        "new-experiment",
        "removed-experiment",
    ],
)
def test_each_project_input_changes_the_digest(
    tmp_path: Path, edit: Callable[[Path], None]
) -> None:
    root = copy_project(tmp_path / "project")
    before = _digest(root)
    edit(root)
    assert _digest(root) != before


def test_the_same_inputs_give_the_same_digest_and_outputs_are_left_out(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    before = _digest(root)
    (root / "build" / "plan").mkdir(parents=True)
    (root / "build" / "plan" / "leftover.json").write_text("{}")
    assert _digest(root) == before


def test_stack_name_and_secret_key_are_part_of_the_digest(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    digests = {
        _digest(root),
        _digest(root, stack="baseline"),
        _digest(root, key=bytes(32)),
        _digest(root, key=None),
    }
    assert len(digests) == 4


def test_a_stack_directory_outside_the_project_is_read(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    outside = tmp_path / "elsewhere"
    shutil.move(root / "stacks", outside)
    project_file = root / "Pulumi.yaml"
    project_file.write_text(
        project_file.read_text().replace("stackConfigDir: stacks", f"stackConfigDir: {outside}")
    )
    assert Project.load(root).stack_config_dir == outside
    before = _digest(root)
    (outside / "Pulumi.aiacc.yaml").write_text(
        (outside / "Pulumi.aiacc.yaml").read_text() + "\n# changed\n"
    )
    assert _digest(root) != before


def test_a_linked_file_is_read_through_its_link(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    target = tmp_path / "shared-experiment.yaml"
    target.write_text((root / "experiments" / "imagenet-tensorflow.yaml").read_text())
    (root / "experiments" / "imagenet-tensorflow.yaml").unlink()
    (root / "experiments" / "imagenet-tensorflow.yaml").symlink_to(target)
    before = _digest(root)
    target.write_text(target.read_text() + "\n# changed\n")
    assert _digest(root) != before


def test_installed_versions_change_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    before = environment_digest()
    installed = tmp_path / "pulumi-3.0.0.dist-info"
    installed.mkdir()
    second = environment_digest()
    installed.rename(tmp_path / "pulumi-3.0.1.dist-info")  # upgraded
    assert len({before, second, environment_digest()}) == 3
    assert "pulumi-3.0.1.dist-info" in "".join(cache_digests.installed_distributions())


def test_the_running_trainstack_code_changes_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "trainstack"
    shutil.copytree(Path(trainstack.__file__).parent, code)
    monkeypatch.setattr(trainstack, "__file__", str(code / "__init__.py"))
    before = environment_digest()
    (code / "plan" / "runner.py").write_text((code / "plan" / "runner.py").read_text() + "\n#\n")
    assert environment_digest() != before


def test_the_environment_and_crd_files_change_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crds = tmp_path / "crds"
    crds.mkdir()
    (crds / "a.json").write_text("{}")
    monkeypatch.setenv("TRAINSTACK_CRD_DIR", str(crds))
    first = environment_digest()
    (crds / "a.json").write_text('{"changed": true}')
    second = environment_digest()
    monkeypatch.setenv("PULUMI_CONFIG", '{"trainstack:x": "1"}')
    third = environment_digest()
    assert len({first, second, third}) == 3


def test_a_directory_that_is_not_a_cache_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(CacheUnavailable, match="is not a trainstack cache"):
        PlanCache.open(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(CacheUnavailable, match="is a symbolic link"):
        PlanCache.open(link)


def _plan_dir(root: Path, stack: str, size: int) -> Path:
    directory = root / stack
    directory.mkdir(parents=True)
    (directory / "resources.json").write_text("[]\n")
    (directory / "pad").write_bytes(b"x" * size)
    return directory


def test_entries_are_whole_bounded_and_the_key_is_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = PlanCache.open(tmp_path / "cache")
    key = cache.secret_key()
    assert not (tmp_path / "cache").exists()  # nothing written before a plan is stored
    monkeypatch.setattr(cache_module, "MAX_ENTRIES", 2)
    made = tmp_path / "made"
    digests = [f"{index:064x}" for index in range(3)]
    for index, digest in enumerate(digests):
        cache.put_all([(digest, "s", _plan_dir(made / str(index), "s", 10))])
        os.utime(tmp_path / "cache" / "plans" / digest, (index, index))
    cache.prune()
    kept = sorted(path.name for path in (tmp_path / "cache" / "plans").iterdir())
    assert kept == digests[1:]  # the least recently used went first
    assert cache.get(digests[2], "s", tmp_path / "served")
    assert (tmp_path / "served" / "resources.json").read_text() == "[]\n"
    assert (tmp_path / "cache" / MARKER).is_file()
    key_file = tmp_path / "cache" / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert PlanCache.open(tmp_path / "cache").secret_key() == key


def test_size_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each entry: 603 bytes of plan and a manifest of some 260 (two file digests, the MAC).
    monkeypatch.setattr(cache_module, "MAX_BYTES", 2000)
    cache = PlanCache.open(tmp_path / "cache")
    cache.secret_key()
    for index in range(3):
        digest = f"{index:064x}"
        cache.put_all([(digest, "s", _plan_dir(tmp_path / "made" / str(index), "s", 600))])
        os.utime(tmp_path / "cache" / "plans" / digest, (index, index))
    cache.prune()
    assert len(list((tmp_path / "cache" / "plans").iterdir())) == 2


def _diff(root: Path, *args: str) -> Any:
    return run_in_process(["diff", "aiacc", "baseline", *args], root)


def test_an_unchanged_side_is_not_planned_again_and_a_change_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_project(tmp_path / "project")
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
    planned: list[str] = []
    from trainstack.diff import planner

    real = planner.plan_stack

    def counting(project: Project, stack: str, *args: Any, **kwargs: Any) -> Any:
        planned.append(stack)
        return real(project, stack, *args, **kwargs)

    monkeypatch.setattr(planner, "plan_stack", counting)
    first = _diff(root)
    assert first.status == 1, first.stderr  # the stacks differ in acceleration
    assert planned == ["aiacc", "baseline"]
    assert "desiredSize: '5'" not in first.stdout

    second = _diff(root)
    assert (second.status, second.stdout) == (1, first.stdout)
    assert planned == ["aiacc", "baseline"]  # both from the cache

    # baseline leaves the shared cluster template: its own copy, one more GPU node
    config = example_config("baseline")
    config["trainstack:nodePools"][0]["desiredSize"] = 5
    (root / "stacks" / "Pulumi.baseline.yaml").write_text(dump_yaml({"config": config}))
    third = _diff(root)
    assert third.status == 1
    assert "+  desiredSize: '5'" in third.stdout
    # One digest covers a side's whole tree: any change plans that side's stacks again.
    assert planned == ["aiacc", "baseline", "aiacc", "baseline"]

    fourth = _diff(root, "--no-cache")
    assert (fourth.status, fourth.stdout) == (1, third.stdout)
    assert planned[-2:] == ["aiacc", "baseline"]


def _plans(cache: Path) -> set[str]:
    return {entry.name for entry in (cache / "plans").iterdir()}


def test_with_base_the_unchanged_revision_comes_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = init_repo(copy_project(tmp_path / "repo"))
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_ENV, str(cache))
    # the GPU pool's size, in the cluster template baseline names
    baseline = root / "stacks" / "templates" / "workload-1-ack.yaml"
    baseline.write_text(baseline.read_text().replace("desiredSize: 4", "desiredSize: 5"))

    first = run_in_process(["diff", "--base", "main", "baseline"], root)
    assert first.status == 1, first.stderr
    assert "+  desiredSize: '5'" in first.stdout
    after_first = _plans(cache)
    assert len(after_first) == 2  # the revision's side and the working tree's

    second = run_in_process(["diff", "--base", "main", "baseline"], root)
    assert (second.status, second.stdout) == (1, first.stdout)
    assert _plans(cache) == after_first  # nothing planned again

    baseline.write_text(baseline.read_text().replace("desiredSize: 5", "desiredSize: 6"))
    third = run_in_process(["diff", "--base", "main", "baseline"], root)
    assert "+  desiredSize: '6'" in third.stdout
    added = _plans(cache) - after_first
    # Only the working tree changed: one new entry; main's plan is served again.
    assert len(added) == 1
    assert third.stdout.count("-  desiredSize: '4'") == first.stdout.count("-  desiredSize: '4'")


def _digest_within(root: Path, seconds: float = 30) -> str:
    """The digest, in a thread: a walk that blocks (a FIFO opened) fails the test."""
    import threading

    found: list[str] = []
    walker = threading.Thread(target=lambda: found.append(_digest(root)), daemon=True)
    walker.start()
    walker.join(timeout=seconds)
    assert not walker.is_alive(), "the digest walk blocked"
    return found[0]


def test_special_files_and_links_out_are_never_opened_or_walked(tmp_path: Path) -> None:
    """A FIFO, a link to /dev/zero and a link to / in the tree: the digest ends at once,
    and they count by what they are (a changed link target changes it)."""
    root = copy_project(tmp_path / "project")
    before = _digest(root)
    os.mkfifo(root / "experiments" / "pipe.yaml")
    (root / "zero").symlink_to("/dev/zero")
    (root / "everything").symlink_to("/", target_is_directory=True)
    (root / "loop").symlink_to(".", target_is_directory=True)
    with_specials = _digest_within(root)
    assert with_specials != before
    (root / "everything").unlink()
    (root / "everything").symlink_to("/etc", target_is_directory=True)
    assert _digest_within(root) != with_specials


def test_a_tree_over_the_bound_is_not_hashed_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_project(tmp_path / "project")
    monkeypatch.setattr(cache_digests, "MAX_HASHED_FILES", 5)
    with pytest.raises(cache_digests.TreeTooLarge, match="more than 5 files"):
        _digest(root)
