"""The convert source run for real: raw ILSVRC2012-shaped tars fetched over loopback
HTTP, the converter cloned at its pinned commit from a local repository holding
stand-ins of tensorflow/models' scripts (same names, same flags, tiny output), and the
shards it writes moved under train/ and validation/ and verified."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from components.populate_marker import MANIFEST, MARKER
from tests.components.populate_harness import (
    SHELLS,
    TARGET,
    Sandbox,
    Server,
    last_line,
    run,
    shell,
    spec,
)

pytestmark = pytest.mark.parametrize("sh_name", sorted(SHELLS))
SYNSETS = ["n01440764", "n01443537"]
# Stand-ins with the flags of build_imagenet_data.py at c76c54bd (and its assertion that
# the shard counts are multiples of the thread count); they record how they were called.
BUILD = """
import argparse, os, sys
flags = argparse.ArgumentParser()
for name in ("train_directory", "validation_directory", "output_directory",
             "imagenet_metadata_file", "labels_file", "bounding_box_file"):
    flags.add_argument("--" + name, required=True)
for name in ("train_shards", "validation_shards", "num_threads"):
    flags.add_argument("--" + name, type=int, required=True)
args = flags.parse_args()
assert not args.train_shards % args.num_threads and not args.validation_shards % args.num_threads
subsets = (("train", args.train_directory), ("validation", args.validation_directory))
for subset, directory in subsets:
    synsets = sorted(os.listdir(directory))
    assert synsets == ["n01440764", "n01443537"], synsets
    images = sum(len(os.listdir(os.path.join(directory, s))) for s in synsets)
    assert images > 0
    shards = getattr(args, subset + "_shards")
    for index in range(shards):
        name = "%s-%.5d-of-%.5d" % (subset, index, shards)
        with open(os.path.join(args.output_directory, name), "wb") as out:
            out.write(("%s from %d images\\n" % (name, images)).encode() * 4)
assert open(args.bounding_box_file).read().startswith("n01440764_1.JPEG,")
"""
PREPROCESS = """
import os, sys
directory, labels = sys.argv[1], open(sys.argv[2]).read().split()
for index, synset in enumerate(labels, 1):
    os.makedirs(os.path.join(directory, synset), exist_ok=True)
    name = "ILSVRC2012_val_%08d.JPEG" % index
    os.rename(os.path.join(directory, name), os.path.join(directory, synset, name))
"""
BOXES = """
import os, sys
for name in sorted(os.listdir(sys.argv[1])):
    print(name.replace(".xml", ".JPEG") + ",0.1,0.1,0.9,0.9")
"""


def _tar(members: dict[str, bytes], compress: bool = False) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz" if compress else "w") as archive:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def _raw(root: Path) -> dict[str, bytes]:
    train = {
        f"{synset}.tar": _tar({f"{synset}_{n}.JPEG": b"jpeg" * n for n in (1, 2)})
        for synset in SYNSETS
    }
    tars = {
        "ILSVRC2012_img_train.tar": _tar(train),
        "ILSVRC2012_img_val.tar": _tar({f"ILSVRC2012_val_{n:08d}.JPEG": b"v" * n for n in (1, 2)}),
        "ILSVRC2012_bbox_train_v2.tar.gz": _tar({"n01440764_1.xml": b"<a/>"}, compress=True),
    }
    for name, content in tars.items():
        (root / "raw" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "raw" / name).write_bytes(content)
    return tars


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.strip()


@pytest.fixture()
def converter(tmp_path: Path) -> tuple[str, str]:
    """A repository with the converter's files under research/inception/inception/data."""
    repo = tmp_path / "models"
    data = repo / "research" / "inception" / "inception" / "data"
    data.mkdir(parents=True)
    (data / "build_imagenet_data.py").write_text(BUILD)
    (data / "preprocess_imagenet_validation_data.py").write_text(PREPROCESS)
    (data / "process_bounding_boxes.py").write_text(BOXES)
    (data / "imagenet_lsvrc_2015_synsets.txt").write_text("\n".join(SYNSETS) + "\n")
    (data / "imagenet_2012_validation_synset_labels.txt").write_text("\n".join(SYNSETS) + "\n")
    (data / "imagenet_metadata.txt").write_text("n01440764\ttench\nn01443537\tgoldfish\n")
    _git("init", "-q", cwd=repo)
    _git("add", ".", cwd=repo)
    _git("commit", "-q", "-m", "converter", cwd=repo)
    _git("config", "uploadpack.allowReachableSHA1InWant", "true", cwd=repo)
    return f"file://{repo}", _git("rev-parse", "HEAD", cwd=repo)


def test_convert_fetches_the_tars_and_writes_the_shards(
    sh_name: str, server: Server, box: Sandbox, converter: tuple[str, str], tmp_path: Path
) -> None:
    tars = _raw(server.root)
    repository, commit = converter
    files = [
        {"url": f"{server.url}/ok/raw/{name}", "sha256": hashlib.sha256(content).hexdigest(),
         "path": name}
        for name, content in sorted(tars.items())
    ]  # fmt: skip
    populate = spec(
        {
            "kind": "convert",
            "from": {"kind": "http", "files": files, "target": "imagenet/raw-data"},
            "converter": {
                "repository": "https://example.invalid/models.git",
                "commit": commit,
                "trainShards": 4,
                "validationShards": 2,
                "threads": 2,
            },
            "target": TARGET,
        }
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    result = run(
        shell(sh_name),
        box,
        populate,
        path=f"{bin_dir}:/usr/bin:/bin",
        # the repository the test serves locally, in place of the spec's https:// one
        extra_env={"TRAINSTACK_CONVERT_REPOSITORY": repository, "GIT_CONFIG_NOSYSTEM": "1"},
    )
    assert result.returncode == 0, result.stderr
    train = sorted(p.name for p in (box.data / TARGET / "train").iterdir())
    assert train == [f"train-{i:05d}-of-00004" for i in range(4)]
    validation = sorted(p.name for p in (box.data / TARGET / "validation").iterdir())
    assert validation == [f"validation-{i:05d}-of-00002" for i in range(2)]
    assert (
        (box.data / "imagenet/imagenet_data/train/train-00000-of-00004")
        .read_bytes()
        .startswith(b"train-00000-of-00004 from 4 images")
    )
    assert len((box.data / MANIFEST).read_text().splitlines()) == 1 + 6
    assert (box.data / MARKER).read_text() == f"{populate.digest}\n"
    assert not (box.data / ".trainstack-populate-work").exists()


def test_convert_without_a_tar_names_it(
    sh_name: str, server: Server, box: Sandbox, converter: tuple[str, str], tmp_path: Path
) -> None:
    tars = _raw(server.root)
    files = [
        {"url": f"{server.url}/ok/raw/{name}", "sha256": hashlib.sha256(content).hexdigest(),
         "path": name}
        for name, content in sorted(tars.items()) if "bbox" not in name
    ]  # fmt: skip
    populate = spec(
        {
            "kind": "convert",
            "from": {"kind": "http", "files": files, "target": "imagenet/raw-data"},
            "converter": {"commit": converter[1], "trainShards": 4, "validationShards": 2,
                          "threads": 2},
            "target": TARGET,
        }
    )  # fmt: skip
    result = run(shell(sh_name), box, populate)
    assert result.returncode == 1
    assert last_line(result) == (
        f"populate failed: {box.data}/imagenet/raw-data/ILSVRC2012_bbox_train_v2.tar.gz: "
        "missing or empty (the source must fetch it)"
    )
    assert not (box.data / MARKER).exists()
