"""The populate script run for real by dash, `bash --posix` and busybox sh against a
loopback HTTP server: a pass writes the data, the manifest, its digest and the marker;
every failure ends with one line naming the URL or file and what was wrong, writes no
marker and touches nothing outside the mounted directory."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from components.populate_marker import FAILED, MANIFEST, MANIFEST_DIGEST, MARKER
from tests.components.populate_harness import (
    SHELLS,
    TARGET,
    Sandbox,
    Server,
    last_line,
    prepare,
    run,
    shell,
    spec,
)

pytestmark = pytest.mark.parametrize("sh_name", sorted(SHELLS))


def _http(files: list[dict[str, str]], **changes: Any) -> dict[str, Any]:
    return {
        "kind": "http",
        "files": files,
        "target": TARGET,
        "connectTimeoutSeconds": 2,
        "stallSeconds": 2,
        **changes,
    }


def test_a_pass_writes_data_manifest_digest_then_marker(
    sh_name: str, server: Server, box: Sandbox
) -> None:
    populate = spec(_http(server.files()))
    prepare(box, populate)
    before = box.outside()
    result = run(shell(sh_name), box, populate)
    assert result.returncode == 0, result.stderr
    for path, content in server.tree.items():
        assert (box.data / TARGET / path).read_bytes() == content
    manifest = (box.data / MANIFEST).read_bytes()
    lines = manifest.decode().splitlines()
    assert lines[0] == "# trainstack manifest v1 verify=full"
    assert lines[1:] == [
        f"{len(content)}\t{hashlib.sha256(content).hexdigest()}\t{TARGET}/{path}"
        for path, content in sorted(server.tree.items())
    ]
    digest = (box.data / MANIFEST_DIGEST).read_text()
    assert digest == f"sha256:{hashlib.sha256(manifest).hexdigest()}\n"
    assert (box.data / MARKER).read_text() == f"{populate.digest}\n"
    # nothing else left at the root: no work directory, no in-progress or failure file
    assert sorted(p.name for p in box.data.iterdir()) == sorted(
        ["imagenet", MANIFEST, MANIFEST_DIGEST, MARKER]
    )
    assert box.outside() == before
    # the same spec again: nothing fetched, nothing changed
    again = run(shell(sh_name), box, populate)
    assert again.returncode == 0, again.stderr
    assert "nothing to do" in again.stdout
    assert (box.data / MANIFEST).read_bytes() == manifest


def test_quick_verify_records_sizes_without_hashes(
    sh_name: str, server: Server, box: Sandbox
) -> None:
    result = run(shell(sh_name), box, spec(_http(server.files()), verify="quick"))
    assert result.returncode == 0, result.stderr
    lines = (box.data / MANIFEST).read_text().splitlines()
    assert lines[0] == "# trainstack manifest v1 verify=quick"
    assert all(line.split("\t")[1] == "-" for line in lines[1:])
    assert len(lines) == 1 + len(server.tree)


def _failure_case(server: Server) -> dict[str, tuple[dict[str, Any], str]]:
    shard = "train/train-00001-of-00004"
    url = f"{server.url}/%s/{shard}"
    wrong = [dict(item) for item in server.files()]
    wrong[1]["sha256"] = "0" * 64
    return {
        "404": (_http(server.files(**{shard: "404"})), f"{url % '404'}: HTTP 404"),
        "403": (_http(server.files(**{shard: "403"})), f"{url % '403'}: HTTP 403"),
        "stall": (
            _http(server.files(**{shard: "stall"})),
            f"{url % 'stall'}: timed out: no connection within 2s or under 1024 B/s for 2s",
        ),
        "short": (
            _http(server.files(**{shard: "short"})),
            f"{url % 'short'}: short file: the connection closed before the whole body arrived",
        ),
        "sha256": (
            _http(wrong),
            f"{url % 'ok'}: sha256 {server.files()[1]['sha256']}, expected {'0' * 64}",
        ),
        "missing shard": (
            _http([item for item in server.files() if item["path"] != shard]),
            f"{TARGET}/train/train-*: 3 files match, expected 4",
        ),
    }


@pytest.mark.parametrize("case", ["404", "403", "stall", "short", "sha256", "missing shard"])
def test_a_failure_ends_with_one_line_and_no_marker(
    sh_name: str, case: str, server: Server, box: Sandbox
) -> None:
    source, reason = _failure_case(server)[case]
    populate = spec(source)
    prepare(box, populate)
    before = box.outside()
    result = run(shell(sh_name), box, populate)
    assert result.returncode != 0
    assert last_line(result) == f"populate failed: {reason}"
    assert not (box.data / MARKER).exists()
    assert not (box.data / MANIFEST_DIGEST).exists()
    # the reason for the Jobs waiting on other clusters, under this spec's digest
    assert (box.data / FAILED).read_text() == f"{populate.digest}\npopulate failed: {reason}\n"
    assert not list(box.data.rglob("*.part"))
    assert box.outside() == before


def test_a_retry_of_the_same_spec_resumes_and_keeps_good_files(
    sh_name: str, server: Server, box: Sandbox
) -> None:
    shard = "train/train-00003-of-00004"
    failing = spec(_http(server.files(**{shard: "404"})))
    assert run(shell(sh_name), box, failing).returncode != 0
    # the same spec, the server fixed: not refused as someone else's files
    fixed = run(shell(sh_name), box, failing.model_copy())
    assert fixed.returncode != 0  # still 404: the URL is the spec's
    # a spec whose URL works is another spec: refused over the partial files...
    working = spec(_http(server.files()))
    refused = run(shell(sh_name), box, working)
    assert refused.returncode == 3
    assert "holds files this populate spec did not write" in last_line(refused)
    # ...unless overwrite: then the files already right are kept, not fetched again
    rerun = run(shell(sh_name), box, working.model_copy(update={"overwrite": True}))
    assert rerun.returncode == 0, rerun.stderr
    assert "kept train/train-00000-of-00004 (sha256 matches)" in rerun.stdout
    assert not (box.data / FAILED).exists()
