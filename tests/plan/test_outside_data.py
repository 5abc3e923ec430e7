"""The plan lists what populate Jobs fetch from outside the cluster's region, with keys."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.conftest import StackWriter
from tests.stack_helpers import REPO, example_config
from trainstack.core.yaml.io import dump_yaml, read_yaml
from trainstack.plan.outside import NODES, outside_pulls
from trainstack.plan.outside_pull import POPULATE_JOB
from trainstack.plan.runner import plan_stack

DATA_STACK = "stacks/Pulumi.imagenet.yaml"
KEY = f"{DATA_STACK}: trainstack:dataStore.fileSystems[0].populate"
IMAGE = "docker.io/team/populate:1"
COMMIT = "48251730" + "0" * 32


def _pulls(
    tmp_path: Path, write_stack: StackWriter, stack: str, runs: bool = True, **populate: Any
) -> dict[str, tuple[str, str, str]]:
    """(by, what, mirror) by reference, for the stack ``test`` configured as ``stack``,
    running the populate Job (``runs``) or waiting for it, with the data stack's populate
    spec changed by ``populate``."""
    data = read_yaml(REPO / "stacks" / "Pulumi.imagenet.yaml")
    spec = data["config"]["trainstack:dataStore"]["fileSystems"][0]["populate"]
    spec.update(image=IMAGE, stack="test" if runs else "aiacc", **populate)
    if "command" in populate and populate["command"] is None:
        del spec["command"]
    (tmp_path / "Pulumi.imagenet.yaml").write_text(dump_yaml(data))
    plan = plan_stack(write_stack(example_config(stack)), "test")
    pulls = outside_pulls(plan)
    # the data stack's file as it is named in the repository, not in tmp_path
    written = re.compile(r"^\S*Pulumi\.imagenet\.yaml")
    return {
        pull.reference: (pull.by, pull.what, written.sub(DATA_STACK, pull.mirror)) for pull in pulls
    }


def _oss(region: str, endpoint: str | None = None) -> dict[str, Any]:
    source = {
        "kind": "oss",
        "bucket": "team-imagenet",
        "prefix": "imagenet/tfrecords",
        "region": region,
        "target": "imagenet/imagenet_data",
        "credentials": {"secret": "imagenet-oss"},
    }
    return source | ({"endpoint": endpoint} if endpoint else {})


def test_the_image_on_both_stacks_the_source_on_the_one_that_populates(
    tmp_path: Path, write_stack: StackWriter
) -> None:
    aiacc = _pulls(tmp_path, write_stack, "aiacc", source=_oss("cn-shanghai"))
    assert aiacc[IMAGE] == (
        NODES,
        "image of the populate Job of dataset imagenet-data",
        f"{KEY}.image",
    )
    assert aiacc["oss://team-imagenet/imagenet/tfrecords/"] == (
        POPULATE_JOB,
        "data of dataset imagenet-data (ossutil cp -r, endpoint oss-cn-shanghai.aliyuncs.com)",
        f"{KEY}.source (bucket, region, endpoint)",
    )
    baseline = _pulls(tmp_path, write_stack, "baseline", False, source=_oss("cn-shanghai"))
    assert baseline[IMAGE][1] == (
        "image of the Job waiting for the populate Job of dataset imagenet-data"
    )
    assert not any(by == POPULATE_JOB for by, _, _ in baseline.values())


def test_a_bucket_in_the_clusters_region_is_not_outside(
    tmp_path: Path, write_stack: StackWriter
) -> None:
    for source in (
        _oss("cn-beijing"),
        _oss("cn-beijing", "oss-cn-beijing-internal.aliyuncs.com"),
    ):
        found = _pulls(tmp_path, write_stack, "aiacc", source=source, command=None)
        assert not any(by == POPULATE_JOB for by, _, _ in found.values()), source
    # the bucket's region, reached through another region's endpoint, is outside
    far = _oss("cn-beijing", "oss-cn-hangzhou.aliyuncs.com")
    assert "oss://team-imagenet/imagenet/tfrecords/" in _pulls(
        tmp_path, write_stack, "aiacc", source=far
    )


def test_http_files_by_host_a_manifest_and_a_converter(
    tmp_path: Path, write_stack: StackWriter
) -> None:
    files = [
        {"url": f"https://{host}/imagenet/{name}", "sha256": "a" * 64, "path": name}
        for host, name in (
            ("s3.example.com", "train.tar"),
            ("s3.example.com", "val.tar"),
            ("team.oss-cn-beijing-internal.aliyuncs.com", "bbox.tar.gz"),
        )
    ]
    source = {
        "kind": "convert",
        "from": {"kind": "http", "files": files, "target": "imagenet/raw-data"},
        "converter": {"commit": COMMIT},
        "target": "imagenet/imagenet_data",
    }
    found = _pulls(tmp_path, write_stack, "aiacc", source=source, command=None)
    mine = {ref: value for ref, value in found.items() if value[0] == POPULATE_JOB}
    assert mine == {
        # the bucket in the cluster's region is not listed
        "https://s3.example.com/": (
            POPULATE_JOB,
            "2 raw ILSVRC2012 tars file(s) of dataset imagenet-data (sha256 checked)",
            f"{KEY}.source.from.files[].url",
        ),
        "https://github.com/tensorflow/models.git": (
            POPULATE_JOB,
            f"converter of dataset imagenet-data (git clone, commit {COMMIT})",
            f"{KEY}.source.converter.repository",
        ),
    }
    manifest = {
        "kind": "http",
        "manifestUrl": "https://s3.example.com/imagenet/files.txt",
        "manifestSha256": "b" * 64,
        "target": "imagenet/imagenet_data",
    }
    listed = _pulls(tmp_path, write_stack, "aiacc", source=manifest, command=None)
    assert listed["https://s3.example.com/imagenet/files.txt"][2] == f"{KEY}.source.manifestUrl"
