"""A data stack's populate spec: its digest, credentials only by reference, which stack
runs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tests.experiment_helpers import load
from tests.stack_helpers import REPO, example_config
from trainstack.config.data_sources import resolve_datasets
from trainstack.config.populate import Populate, populate_digest
from trainstack.core.errors import ConfigError
from trainstack.core.yaml.io import dump_yaml, read_yaml

OSS: dict[str, Any] = {
    "kind": "oss",
    "bucket": "imagenet-tfrecords",
    "prefix": "tfrecords",
    "region": "cn-beijing",
    "target": "imagenet/imagenet_data",
    "credentials": {"secret": "imagenet-oss"},
}
LAYOUT: dict[str, Any] = {
    "files": [{"glob": "imagenet/imagenet_data/train/train-*", "count": 1024}],
    "minBytes": 1,
}
SPEC: dict[str, Any] = {
    "stack": "aiacc",
    "image": "registry/populate:1",
    "source": OSS,
    "layout": LAYOUT,
    "command": ["clone"],
}


def _spec(**changes: Any) -> Populate:
    return Populate.model_validate({**SPEC, **changes})


def test_the_digest_follows_what_decides_the_data() -> None:
    digest = populate_digest(_spec())
    assert digest == populate_digest(_spec())
    assert len(digest) == 64
    for decisive in (
        {"image": "registry/populate:2"},
        {"source": {**OSS, "prefix": "tfrecords-v2"}},
        {"layout": {**LAYOUT, "minBytes": 2}},
        {"verify": "quick"},
        {"command": ["clone", "--depth=1"]},
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
    _data_stack(tmp_path, {key: value for key, value in SPEC.items() if key != "stack"})
    stack = load(example_config("aiacc"), "stacks/Pulumi.aiacc.yaml")
    with pytest.raises(ConfigError, match=r"populate\.stack") as caught:
        resolve_datasets(stack, tmp_path)
    assert "this key is required" in str(caught.value)


HOSTILE = ["a b", "a'b", 'a"b', "$(touch x)", "`touch x`", "a\nb", "..", "a/../b", "/abs"]


_WHERE: list[tuple[str, Any]] = [
    ("source.prefix", lambda v: {"source": {**OSS, "prefix": v}}),
    ("source.bucket", lambda v: {"source": {**OSS, "bucket": v}}),
    ("source.target", lambda v: {"source": {**OSS, "target": v}}),
    (
        "layout.files[0].glob",
        lambda v: {"layout": {**LAYOUT, "files": [{"glob": v, "count": 1}]}},
    ),
    (
        "source.files[0].path",
        lambda v: {
            "source": {
                "kind": "http",
                "target": "t",
                "files": [{"url": "https://h/x", "sha256": "0" * 64, "path": v}],
            }
        },
    ),
    (
        "source.files[0].url",
        lambda v: {
            "source": {
                "kind": "http",
                "target": "t",
                "files": [{"url": f"https://h/{v}", "sha256": "0" * 64, "path": "p"}],
            }
        },
    ),
]


@pytest.mark.parametrize(
    ("where", "make", "value"),
    # a leading `/` in a URL's path is the URL's own (`https://h//abs` is a valid URL)
    [(w, m, v) for w, m in _WHERE for v in HOSTILE if (w, v) != ("source.files[0].url", "/abs")],
)
def test_hostile_names_paths_and_urls_are_refused_naming_the_key(
    where: str, make: Any, value: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        Populate.model_validate({**SPEC, **make(value)})
    [error] = caught.value.errors()
    # the key in the user's spelling (the union's branch name aside)
    located = ".".join(str(part) for part in error["loc"] if part not in {"oss", "http"})
    assert located == where.replace("[0]", ".0"), error


def test_a_hostile_value_is_one_clear_error_naming_file_key_and_rule() -> None:
    config = read_yaml(REPO / "stacks" / "Pulumi.imagenet.yaml")["config"]
    hostile = {**OSS, "prefix": "$(touch /tmp/x)"}
    config["trainstack:dataStore"]["fileSystems"][0]["populate"] = {**SPEC, "source": hostile}
    with pytest.raises(ConfigError) as caught:
        load(config, "stacks/Pulumi.imagenet.yaml")
    message = " ".join(str(caught.value).split())
    assert "stacks/Pulumi.imagenet.yaml" in message
    assert "fileSystems[0].populate.source.prefix" in message
    assert "$(touch /tmp/x)" in message and "no `..`" in message


def test_a_presigned_url_and_placeholders_are_accepted() -> None:
    presigned = (
        "https://bucket.s3.us-east-1.amazonaws.com/train-00000-of-01024?X-Amz-Algorithm="
        "AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20260101%2Fus-east-1%2Fs3%2Faws4_request"
        "&X-Amz-Expires=3600&X-Amz-Signature=abc123"
    )
    source = {
        "kind": "http",
        "target": "imagenet/imagenet_data",
        "files": [{"url": presigned, "sha256": "<sha256 of the shard>", "path": "train/a"}],
    }
    assert _spec(source=source).source.kind == "http"
    assert _spec(source={**OSS, "bucket": "<bucket>", "prefix": "<prefix>"}).digest


def test_the_summary_names_source_layout_and_verify() -> None:
    assert _spec().summary() == [
        "source: oss oss://imagenet-tfrecords/tfrecords/ (cn-beijing) -> imagenet/imagenet_data",
        "layout: 1024 x imagenet/imagenet_data/train/train-*",
        "layout: 1 to any bytes in all, each file non-empty",
        "verify: full (sha256 of every file in the manifest)",
    ]


def test_a_files_list_too_big_for_a_config_map_points_to_manifest_url() -> None:
    files = [
        {"url": f"https://h/{'x' * 2000}/{n}", "sha256": "0" * 64, "path": f"f{n}"}
        for n in range(500)
    ]
    with pytest.raises(ValidationError, match="put the list behind manifestUrl"):
        _spec(source={"kind": "http", "target": "t", "files": files})


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
