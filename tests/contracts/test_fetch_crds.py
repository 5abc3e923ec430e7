"""scripts/fetch_crds.py: the PR workflow's upstream CRD schemas, pinned and verified.

The converter runs on small CRD documents written here (expected schemas by hand); the
fetch reads a local source tree (``--source-dir``) so that digests, refusals and the
all-or-nothing write are tested without a network. With ``TRAINSTACK_CRD_DIR`` set, the
pinned list is checked against the reference schemas it must reproduce.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conformance import crd_dir
from tests.scripts import load_script
from tests.stack_helpers import REPO

SCRIPT = REPO / "scripts" / "fetch_crds.py"
SOURCES = REPO / ".github" / "crd-sources.json"


fetch_crds = load_script("fetch_crds")

WIDGET_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        description: A widget.
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size:
                type: integer
                minimum: 1
              created:
                type: string
                default: 2024-01-01
              colour:
                type: string
                nullable: true
                enum: [red, green]
              nullable:
                type: boolean
              replicas:
                x-kubernetes-int-or-string: true
              ports:
                type: array
                x-kubernetes-list-type: set
                items:
                  type: integer
                  nullable: true
"""


def _convert(extensions: str = "keep") -> dict[str, Any]:
    group, schema = fetch_crds.crd_schema(WIDGET_CRD, "Widget", "v1")
    assert group == "example.com"
    converted: dict[str, Any] = fetch_crds.convert(
        schema,
        kind="Widget",
        group=group,
        version="v1",
        comment="from a test",
        extensions=extensions,
    )
    return converted


def test_converts_the_served_version_into_a_titled_draft7_schema() -> None:
    schema = _convert()

    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["title"] == "Widget example.com/v1"
    assert schema["$comment"] == "from a test"
    assert schema["description"] == "A widget."
    spec = schema["properties"]["spec"]
    assert spec["required"] == ["size"]
    assert spec["properties"]["size"] == {"type": "integer", "minimum": 1}
    # Dates stay strings: JSON has no date type, and the API server sees the text.
    assert spec["properties"]["created"]["default"] == "2024-01-01"


def test_nullable_becomes_a_type_union_with_null() -> None:
    properties = _convert()["properties"]["spec"]["properties"]

    assert properties["colour"] == {"type": ["string", "null"], "enum": ["red", "green", None]}
    assert properties["ports"]["items"] == {"type": ["integer", "null"]}
    # A field *named* nullable is a field, not the keyword.
    assert properties["nullable"] == {"type": "boolean"}


def test_kubernetes_extensions_kept_or_dropped() -> None:
    kept = _convert("keep")["properties"]["spec"]["properties"]
    dropped = _convert("drop")["properties"]["spec"]["properties"]

    assert kept["replicas"] == {"x-kubernetes-int-or-string": True}
    assert kept["ports"]["x-kubernetes-list-type"] == "set"
    assert dropped["replicas"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    assert "x-kubernetes-list-type" not in dropped["ports"]


def test_a_v1beta1_manifest_with_several_documents() -> None:
    manifest = """\
apiVersion: v1
kind: Namespace
metadata: {name: demo}
---
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  version: v1
  names: {kind: Widget, plural: widgets}
  validation:
    openAPIV3Schema:
      properties:
        spec:
          properties:
            size: {type: integer, minimum: 1}
"""
    group, schema = fetch_crds.crd_schema(manifest, "Widget", "v1")
    assert (group, schema) == (
        "example.com",
        {"properties": {"spec": {"properties": {"size": {"type": "integer", "minimum": 1}}}}},
    )
    with pytest.raises(
        fetch_crds.FetchError, match="one CustomResourceDefinition of Widget serving v2, found 0"
    ):
        fetch_crds.crd_schema(manifest, "Widget", "v2")


# --- fetch, verify and write from a local source tree ------------------------------------


def _entry(data: bytes, **changes: Any) -> dict[str, Any]:
    schema = fetch_crds.convert(
        fetch_crds.crd_schema(data.decode(), "Widget", "v1")[1],
        kind="Widget",
        group="example.com",
        version="v1",
        comment="widgets",
    )
    entry = {
        "output": "widget-v1.json",
        "repo": "example/widgets",
        "commit": "a" * 40,
        "path": "crds/widgets.yaml",
        "kind": "Widget",
        "version": "v1",
        "kubernetes_extensions": "keep",
        "comment": "widgets",
        "sha256": hashlib.sha256(data).hexdigest(),
        "sha256_source": "computed in the test",
        "stored_copy": None,
        "schema_sha256": fetch_crds.canonical_digest(schema),
        "schema_sha256_source": "computed in the test",
    }
    return entry | changes


def _tree(tmp_path: Path, data: bytes, entry: dict[str, Any]) -> tuple[Path, Path]:
    upstream = tmp_path / "upstream" / entry["repo"] / entry["commit"] / entry["path"]
    upstream.parent.mkdir(parents=True)
    upstream.write_bytes(data)
    sources = tmp_path / "crd-sources.json"
    sources.write_text(json.dumps({"files": [entry]}))
    return sources, tmp_path / "upstream"


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_writes_verified_schemas(tmp_path: Path) -> None:
    data = WIDGET_CRD.encode()
    sources, upstream = _tree(tmp_path, data, _entry(data))

    result = _run(tmp_path / "crds", "--sources", sources, "--source-dir", upstream)

    assert result.returncode == 0, result.stderr
    digest = hashlib.sha256(data).hexdigest()
    assert f"fetch_crds: widget-v1.json: file sha256 {digest} (pinned)" in result.stdout
    written = json.loads((tmp_path / "crds" / "widget-v1.json").read_text())
    assert written["title"] == "Widget example.com/v1"
    assert sorted(os.listdir(tmp_path / "crds")) == ["SOURCES.json", "widget-v1.json"]
    [listed] = json.loads((tmp_path / "crds" / "SOURCES.json").read_text())
    assert listed["file"] == "widget-v1.json"
    assert (listed["repo"], listed["commit"]) == ("example/widgets", "a" * 40)


def test_refuses_a_file_digest_mismatch_and_writes_nothing(tmp_path: Path) -> None:
    data = WIDGET_CRD.encode()
    pinned = hashlib.sha256(b"the file that was pinned").hexdigest()
    sources, upstream = _tree(tmp_path, data, _entry(data, sha256=pinned))

    result = _run(tmp_path / "crds", "--sources", sources, "--source-dir", upstream)

    assert result.returncode == 2
    actual = hashlib.sha256(data).hexdigest()
    assert f"sha256 mismatch: expected {pinned}, got {actual}" in result.stderr
    assert "widget-v1.json (example/widgets@" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(os.listdir(tmp_path)) == ["crd-sources.json", "upstream"]


def test_refuses_a_changed_schema_when_no_file_digest_is_pinned(tmp_path: Path) -> None:
    data = WIDGET_CRD.encode()
    entry = _entry(data, sha256=None)
    changed = WIDGET_CRD.replace("minimum: 1", "minimum: 0").encode()
    sources, upstream = _tree(tmp_path, changed, entry)

    with pytest.raises(
        fetch_crds.FetchError,
        match=f"schema_sha256 mismatch: expected {entry['schema_sha256']}, got [0-9a-f]{{64}}",
    ):
        fetch_crds.fetch_all(sources, tmp_path / "crds", upstream)
    assert not (tmp_path / "crds").exists()


def test_one_bad_file_writes_none_of_the_good_ones(tmp_path: Path) -> None:
    data = WIDGET_CRD.encode()
    good = _entry(data)
    bad = _entry(data, output="widget-copy.json", sha256="0" * 64)
    sources, upstream = _tree(tmp_path, data, good)
    sources.write_text(json.dumps({"files": [good, bad]}))

    with pytest.raises(fetch_crds.FetchError, match="widget-copy.json .*sha256 mismatch"):
        fetch_crds.fetch_all(sources, tmp_path / "crds", upstream)
    assert not (tmp_path / "crds").exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"commit": "main"}, r"files\[0\].commit: 'main' is not a full commit id"),
        ({"schema_sha256": None}, r"files\[0\].schema_sha256: required"),
        ({"sha256": "abc"}, r"files\[0\].sha256: 'abc' is not a sha256 hex digest"),
        ({"output": "../escape.json"}, r"files\[0\].output: '../escape.json' must be a unique"),
        ({"mirror": "x"}, r"files\[0\]: missing keys \[\], unknown keys \['mirror'\]"),
    ],
)
def test_refuses_a_malformed_pinned_list(
    change: dict[str, Any], message: str, tmp_path: Path
) -> None:
    data = WIDGET_CRD.encode()
    sources, upstream = _tree(tmp_path, data, _entry(data, **change))
    with pytest.raises(fetch_crds.FetchError, match=message):
        fetch_crds.fetch_all(sources, tmp_path / "crds", upstream)


def test_refuses_a_non_empty_output_directory(tmp_path: Path) -> None:
    data = WIDGET_CRD.encode()
    sources, upstream = _tree(tmp_path, data, _entry(data))
    (tmp_path / "crds").mkdir()
    (tmp_path / "crds" / "old.json").write_text("{}")
    with pytest.raises(fetch_crds.FetchError, match="must be missing or an empty directory"):
        fetch_crds.fetch_all(sources, tmp_path / "crds", upstream)
    assert os.listdir(tmp_path / "crds") == ["old.json"]


# --- the committed pinned list --------------------------------------------------------------


def test_the_pinned_list_is_well_formed() -> None:
    entries = fetch_crds.load_sources(SOURCES)
    assert len(entries) >= 14
    for entry in entries:
        assert entry["repo"].count("/") == 1, entry["repo"]
        assert entry["sha256"] or entry["sha256_source"].startswith("not recorded")


def test_the_pinned_list_reproduces_the_reference_schemas() -> None:
    """Each pinned schema digest is the reference schema's, and every reference is pinned."""
    reference = crd_dir()
    entries = {entry["output"]: entry for entry in fetch_crds.load_sources(SOURCES)}
    files = {path.name for path in reference.glob("*.json")} - {"SOURCES.json"}
    assert set(entries) == files
    for name, entry in entries.items():
        document = json.loads((reference / name).read_text(encoding="utf-8"))
        assert entry["schema_sha256"] == fetch_crds.canonical_digest(document), name
        assert entry["comment"] == document["$comment"], name
        kind, api_version = document["title"].split(" ")
        assert (kind, api_version.rpartition("/")[2]) == (entry["kind"], entry["version"]), name


def test_the_pinned_sources_match_the_reference_list() -> None:
    reference = crd_dir()
    listed = json.loads((reference / "SOURCES.json").read_text(encoding="utf-8"))
    pinned = {
        entry["output"]: (entry["repo"], entry["commit"], entry["path"])
        for entry in fetch_crds.load_sources(SOURCES)
    }
    assert pinned == {
        item["file"]: (item["repo"].split(" ")[0], item["commit"], item["path"]) for item in listed
    }


def test_every_reference_schema_survives_the_yaml_round_trip(tmp_path: Path) -> None:
    """The whole pipeline on CRDs as large as the real ones: each reference schema, put
    back into a CRD document as YAML, is fetched, verified and converted to itself.

    (The upstream files themselves cannot be read offline; this proves the YAML reading,
    the conversion and the digests on every value those schemas contain.)
    """
    reference = crd_dir()
    entries = fetch_crds.load_sources(SOURCES)
    for entry in entries:
        document = json.loads((reference / entry["output"]).read_text(encoding="utf-8"))
        group = document["title"].split(" ")[1].rpartition("/")[0]
        body = {k: v for k, v in document.items() if k not in ("$schema", "title", "$comment")}
        version = {"name": entry["version"], "served": True, "schema": {"openAPIV3Schema": body}}
        crd = {
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "spec": {"group": group, "names": {"kind": entry["kind"]}, "versions": [version]},
        }
        upstream = tmp_path / "upstream" / entry["repo"] / entry["commit"] / entry["path"]
        upstream.parent.mkdir(parents=True, exist_ok=True)
        text = yaml.dump(crd, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False)
        upstream.write_text(text, encoding="utf-8")
    sources = tmp_path / "crd-sources.json"
    sources.write_text(json.dumps({"files": [entry | {"sha256": None} for entry in entries]}))

    written = fetch_crds.fetch_all(sources, tmp_path / "crds", tmp_path / "upstream")

    assert sorted(written) == sorted(entry["output"] for entry in entries)
    for name in written:
        converted = json.loads((tmp_path / "crds" / name).read_text(encoding="utf-8"))
        assert converted == json.loads((reference / name).read_text(encoding="utf-8")), name
