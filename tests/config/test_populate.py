"""A data stack's populate spec: its digest, credentials only by reference, which stack
runs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.experiment_helpers import load
from tests.stack_helpers import REPO, example_config
from trainstack.config.data_sources import resolve_datasets
from trainstack.config.populate import Populate, populate_digest
from trainstack.core.errors import ConfigError
from trainstack.core.yaml.io import dump_yaml, read_yaml

SPEC: dict[str, Any] = {"stack": "aiacc", "image": "registry/convert:1", "command": ["convert"]}


def _spec(**changes: Any) -> Populate:
    return Populate.model_validate({**SPEC, **changes})


def test_the_digest_follows_what_decides_the_data() -> None:
    digest = populate_digest(_spec())
    assert digest == populate_digest(_spec())
    assert len(digest) == 64
    for decisive in (
        {"image": "registry/convert:2"},
        {"command": ["convert", "--shards=128"]},
        {"env": {"SHARDS": "128"}},
        {"secretEnv": [{"name": "USER_NAME", "secret": "account", "key": "user"}]},
    ):
        assert populate_digest(_spec(**decisive)) != digest, decisive
    for incidental in (
        {"stack": "baseline"},
        {"resources": {"cpu": "2", "memory": "8Gi"}},
        {"deadlineHours": 2},
        {"overwrite": True},
    ):
        assert populate_digest(_spec(**incidental)) == digest, incidental


@pytest.mark.parametrize("name", ["IMAGENET_ACCESS_KEY", "DB_PASSWORD", "api_token"])
def test_a_credential_as_a_plain_variable_is_refused_without_its_value(name: str) -> None:
    config = read_yaml(REPO / "stacks" / "Pulumi.imagenet.yaml")["config"]
    populate = config["trainstack:dataStore"]["fileSystems"][0]["populate"]
    populate["env"] = {name: "hunter2-very-secret"}
    with pytest.raises(ConfigError, match=rf"populate\.env\.{name}: found \"a value") as caught:
        load(config, "stacks/Pulumi.imagenet.yaml")
    assert "hunter2" not in str(caught.value)
    assert "secretEnv" in str(caught.value)


def _data_stack(directory: Path, populate: dict[str, Any]) -> None:
    document = read_yaml(REPO / "stacks" / "Pulumi.imagenet.yaml")
    document["config"]["trainstack:dataStore"]["fileSystems"][0]["populate"] = populate
    (directory / "Pulumi.imagenet.yaml").write_text(dump_yaml(document))


def test_the_stack_it_names_runs_it_on_the_dataset_mounting_all_of_it(tmp_path: Path) -> None:
    _data_stack(tmp_path, SPEC)
    for name, runs in (("aiacc", True), ("baseline", False)):
        stack = load(example_config(name), f"stacks/Pulumi.{name}.yaml")
        stack = type(stack)(name, stack.source, stack.config, stack.kubeconfig)
        imagenet, results = resolve_datasets(stack, tmp_path)
        assert imagenet.populate is not None and imagenet.populates is runs
        assert imagenet.facts["populate"].value == f"sha256:{populate_digest(_spec())}"
        # training-results is a sub-directory of the same file system: no second Job
        assert results.populate is None


def test_the_running_stack_must_mount_the_whole_file_system(tmp_path: Path) -> None:
    _data_stack(tmp_path, SPEC)
    config = example_config("aiacc")
    del config["trainstack:datasets"][0]  # only training-results (a sub-directory) is left
    stack = load(config, "stacks/Pulumi.aiacc.yaml")
    stack = type(stack)("aiacc", stack.source, stack.config, stack.kubeconfig)
    with pytest.raises(ConfigError, match="a dataset mounting the whole file system"):
        resolve_datasets(stack, tmp_path)


def test_the_data_stack_must_say_which_stack_runs_it(tmp_path: Path) -> None:
    _data_stack(tmp_path, {"image": "registry/convert:1", "command": ["convert"]})
    stack = load(example_config("aiacc"), "stacks/Pulumi.aiacc.yaml")
    with pytest.raises(ConfigError, match=r"populate\.stack") as caught:
        resolve_datasets(stack, tmp_path)
    assert "this key is required" in str(caught.value)


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("env", {"TRAINSTACK_POPULATE_OVERWRITE": "true"}, "env.TRAINSTACK_POPULATE_OVERWRITE"),
        ("env", {"TRAINSTACK_POPULATE_DIGEST": "0" * 64}, "env.TRAINSTACK_POPULATE_DIGEST"),
        ("env", {"trainstack_data_dir": "/"}, "env.trainstack_data_dir"),
        ("env", {"PATH": "/tmp/evil"}, "env.PATH"),
        ("env", {"BASH_ENV": "/data/x.sh"}, "env.BASH_ENV"),
        (
            "secretEnv",
            [{"name": "TRAINSTACK_POPULATE_OVERWRITE", "secret": "s", "key": "k"}],
            "secretEnv[0].name",
        ),
    ],
)
def test_the_jobs_own_variables_are_refused(key: str, value: Any, shown: str) -> None:
    """The user's variables come after the Job's and the kubelet keeps the last of a name:
    an ``overwrite`` set there would run over foreign data despite ``overwrite: false``."""
    config = read_yaml(REPO / "stacks" / "Pulumi.imagenet.yaml")["config"]
    config["trainstack:dataStore"]["fileSystems"][0]["populate"][key] = value
    with pytest.raises(ConfigError, match="not starting with TRAINSTACK_") as caught:
        load(config, "stacks/Pulumi.imagenet.yaml")
    assert f"populate.{shown}: found " in str(caught.value)
    assert str(caught.value).count("\n") == 0
