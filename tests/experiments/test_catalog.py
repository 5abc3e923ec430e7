"""The experiments directory: nothing in it is skipped silently."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run_process
from tests.experiment_helpers import IMAGENET
from trainstack.core.errors import ExperimentError, InputLimitError, InvalidExperimentsError
from trainstack.core.yaml.io import dump_yaml
from trainstack.core.yaml.positions import at
from trainstack.experiments.catalog import read_catalog


def _directory(root: Path) -> Path:
    directory = root / "experiments"
    directory.mkdir()
    (directory / "good.yaml").write_text(dump_yaml(IMAGENET))
    (directory / "README.md").write_text("not an experiment: other suffixes are not read\n")
    return directory


def test_experiment_files_are_read_in_name_order(tmp_path: Path) -> None:
    directory = _directory(tmp_path)
    (directory / "another.yml").write_text(dump_yaml({**IMAGENET, "name": "another"}))
    sources = read_catalog(directory, tmp_path)
    assert [(s.display, s.spec.name) for s in sources] == [
        ("experiments/another.yml", "another"),
        ("experiments/good.yaml", "imagenet-tensorflow"),
    ]


def test_a_dangling_link_is_an_error_naming_it(tmp_path: Path) -> None:
    directory = _directory(tmp_path)
    (directory / "moved.yaml").symlink_to("../elsewhere/moved.yaml")
    with pytest.raises(ExperimentError) as caught:
        read_catalog(directory, tmp_path)
    assert caught.value.lines(at) == [
        "invalid experiment in experiments/moved.yaml: (file): found a symbolic link to "
        "'../elsewhere/moved.yaml', which does not exist; allowed: an experiment file: restore "
        "the link's target, or remove the link"
    ]


def test_a_link_to_an_experiment_file_is_read_under_its_own_name(tmp_path: Path) -> None:
    directory = _directory(tmp_path)
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "x.yaml").write_text(dump_yaml({**IMAGENET, "name": "linked"}))
    (directory / "linked.yaml").symlink_to("../shared/x.yaml")
    displays = [source.display for source in read_catalog(directory, tmp_path)]
    assert displays == ["experiments/good.yaml", "experiments/linked.yaml"]


def test_a_directory_with_an_experiment_name_is_an_error(tmp_path: Path) -> None:
    directory = _directory(tmp_path)
    (directory / "nested.yaml").mkdir()
    with pytest.raises(InputLimitError, match=r"nested\.yaml: \(file\): found a directory"):
        read_catalog(directory, tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without read permission")
def test_an_unreadable_file_is_an_error_naming_it(tmp_path: Path) -> None:
    directory = _directory(tmp_path)
    locked = directory / "locked.yaml"
    locked.write_text(dump_yaml(IMAGENET))
    locked.chmod(0)
    with pytest.raises(InputLimitError, match=r"locked\.yaml: \(file\): found unreadable"):
        read_catalog(directory, tmp_path)


def test_every_broken_entry_is_reported_at_once(tmp_path: Path) -> None:
    directory = _directory(tmp_path)
    (directory / "a.yaml").symlink_to("gone-a.yaml")
    (directory / "b.yaml").symlink_to("gone-b.yaml")
    with pytest.raises(InvalidExperimentsError) as caught:
        read_catalog(directory, tmp_path)
    assert [line.split(":")[0] for line in caught.value.lines(at)] == [
        "invalid experiment in experiments/a.yaml",
        "invalid experiment in experiments/b.yaml",
    ]


def test_plan_refuses_a_dangling_link_and_a_missing_directory(tmp_path: Path) -> None:
    """As users see it: exit 2, one `error:` line per problem on stderr, nothing written."""
    root = project_copy(tmp_path / "project")
    (root / "experiments" / "new-idea.yaml").symlink_to("../drafts/new-idea.yaml")
    ran = run_process(root, "plan", "aiacc", "--output-dir", "out")
    assert ran.code == 2
    assert ran.stderr.splitlines() == [
        "error: invalid experiment in experiments/new-idea.yaml: (file): found a symbolic link "
        "to '../drafts/new-idea.yaml', which does not exist; allowed: an experiment file: "
        "restore the link's target, or remove the link"
    ]
    assert not (root / "out").exists()
    (root / "experiments" / "new-idea.yaml").unlink()
    (root / "experiments").rename(root / "experiments-old")
    ran = run_process(root, "plan", "aiacc", "--output-dir", "out")
    assert (ran.code, len(ran.stderr.splitlines())) == (2, 1)
    found = re.match(
        r"error: invalid stack configuration in stacks/Pulumi.aiacc.yaml:(\d+): ", ran.stderr
    )
    assert found, ran.stderr
    # directory is not written (its default, experiments): the error points at its parent.
    stack_lines = (root / "stacks" / "Pulumi.aiacc.yaml").read_text().splitlines()
    assert stack_lines[int(found.group(1)) - 1].strip() == "trainstack:experiments:"
    assert ran.stderr[found.end() :].startswith(
        "trainstack:experiments.directory: found 'experiments', which does not exist in "
    )
