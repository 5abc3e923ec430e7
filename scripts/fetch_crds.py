#!/usr/bin/env python3
"""Fetch the upstream CRDs pinned in .github/crd-sources.json and write their JSON schemas.

The CRD conformance tests read a directory of JSON schemas (``TRAINSTACK_CRD_DIR``, the
layout of ``../shared/reference/crds``). CI has no ``../shared``: this script rebuilds
that directory from the CRDs' upstream files, each at a pinned commit, and refuses any
file that is not the one pinned:

- ``sha256``: the digest of the upstream file itself, checked when the list records one;
- ``schema_sha256``: the digest of the converted schema (canonical JSON: sorted keys, no
  spaces, UTF-8), always checked; it was computed from the reference schema converted
  from that same pinned file, so a changed file cannot produce it.

Conversion: the served version's ``openAPIV3Schema`` (``spec.versions[].schema`` of an
``apiextensions.k8s.io/v1`` CRD, ``spec.validation`` of a ``v1beta1`` one) becomes a
draft-07 JSON schema titled ``<kind> <group>/<version>``; OpenAPI's ``nullable: true``
becomes a JSON-schema type union with ``"null"`` (JSON schema has no ``nullable``); with
``kubernetes_extensions: "drop"``, ``x-kubernetes-int-or-string`` becomes an explicit
``anyOf`` and every other ``x-kubernetes-*`` keyword is removed.

Nothing is written unless every file was fetched, verified and converted: the schemas
(and a SOURCES.json listing where each came from, as in the reference directory) are
written into a temporary directory that then replaces the (empty or missing) output
directory in one rename.

Usage: ``python scripts/fetch_crds.py OUTPUT_DIR [--sources FILE] [--source-dir DIR]``;
``--source-dir`` reads ``DIR/<repo>/<commit>/<path>`` instead of fetching from GitHub.
Exit status 0 on success, 2 on any refusal (with one message saying what and why).

Stdlib + PyYAML only, so it runs before the project is installed.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import shutil
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

DEFAULT_SOURCES = Path(__file__).resolve().parents[1] / ".github" / "crd-sources.json"
RAW_URL = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"
JSON_SCHEMA = "http://json-schema.org/draft-07/schema#"
EXTENSIONS = ("keep", "drop")
_ENTRY_KEYS = {
    "output",
    "repo",
    "commit",
    "path",
    "kind",
    "version",
    "kubernetes_extensions",
    "comment",
    "sha256",
    "sha256_source",
    "stored_copy",
    "schema_sha256",
    "schema_sha256_source",
}


class FetchError(Exception):
    """A source list, file or digest this script refuses (one message, exit status 2)."""


# libyaml's parser when PyYAML was built with it (large CRDs load ~5x faster).
_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):
    """YAML 1.1 as Kubernetes reads it, except that dates stay strings (JSON has none)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}


# --- conversion -------------------------------------------------------------------


def crd_schema(text: str, kind: str, version: str) -> tuple[str, dict[str, Any]]:
    """(group, openAPIV3Schema) of the CRD of ``kind`` serving ``version`` in ``text``.

    ``text`` may hold several YAML documents (a release manifest); exactly one
    CustomResourceDefinition of ``kind`` must serve ``version``.
    """
    found: list[tuple[str, dict[str, Any]]] = []
    for document in yaml.load_all(text, Loader=_Loader):  # noqa: S506 - a SafeLoader
        if not isinstance(document, dict) or document.get("kind") != "CustomResourceDefinition":
            continue
        spec = document.get("spec") or {}
        if (spec.get("names") or {}).get("kind") != kind:
            continue
        found += [(str(spec["group"]), schema) for schema in _served_schemas(spec, version)]
    if len(found) != 1:
        raise FetchError(
            f"expected one CustomResourceDefinition of {kind} serving {version}, found {len(found)}"
        )
    return found[0]


def _served_schemas(spec: dict[str, Any], version: str) -> Iterator[dict[str, Any]]:
    versions = spec.get("versions") or []
    if versions:
        for entry in versions:
            if entry.get("name") == version and entry.get("served", True):
                schema = (entry.get("schema") or {}).get("openAPIV3Schema")
                # v1beta1 CRDs may keep one schema for all versions at spec.validation.
                yield schema or spec["validation"]["openAPIV3Schema"]
    elif spec.get("version") == version:  # v1beta1, single version
        yield spec["validation"]["openAPIV3Schema"]


def convert(
    schema: dict[str, Any],
    *,
    kind: str,
    group: str,
    version: str,
    comment: str,
    extensions: str = "keep",
) -> dict[str, Any]:
    """The JSON schema of one CRD version, as the conformance tests read it."""
    if extensions not in EXTENSIONS:
        raise FetchError(f"kubernetes_extensions must be one of {EXTENSIONS}, not {extensions!r}")
    body = _converted(copy.deepcopy(schema), drop_extensions=extensions == "drop")
    return {
        "$schema": JSON_SCHEMA,
        "title": f"{kind} {group}/{version}",
        "$comment": comment,
        **body,
    }


def _converted(node: Any, *, drop_extensions: bool) -> Any:
    if isinstance(node, list):
        return [_converted(item, drop_extensions=drop_extensions) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "patternProperties", "definitions"):
            # Keys of these maps are field names, not keywords: never treat them as such.
            result[key] = {
                name: _converted(sub, drop_extensions=drop_extensions)
                for name, sub in value.items()
            }
        else:
            result[key] = _converted(value, drop_extensions=drop_extensions)
    if result.pop("nullable", False) is True:
        _allow_null(result)
    if drop_extensions:
        if result.get("x-kubernetes-int-or-string") is True and "anyOf" not in result:
            result["anyOf"] = [{"type": "integer"}, {"type": "string"}]
        result = {
            key: value for key, value in result.items() if not key.startswith("x-kubernetes-")
        }
    return result


def _allow_null(schema: dict[str, Any]) -> None:
    """``nullable: true`` in JSON schema: ``null`` added to the type (and to an enum)."""
    kind = schema.get("type")
    if isinstance(kind, str):
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        schema["type"] = [*kind, "null"]
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]


def canonical_digest(document: Any) -> str:
    """sha256 of the canonical JSON of ``document`` (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- the pinned list ------------------------------------------------------------------


def load_sources(path: Path) -> list[dict[str, Any]]:
    """The entries of a crd-sources.json, each checked for the keys it needs."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise FetchError(f"{path}: cannot read the pinned CRD list: {err}") from err
    entries = document.get("files") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not entries:
        raise FetchError(f"{path}: `files` must be a non-empty list")
    outputs: set[str] = set()
    for index, entry in enumerate(entries):
        where = f"{path}: files[{index}]"
        if not isinstance(entry, dict):
            raise FetchError(f"{where}: must be an object")
        missing = sorted(_ENTRY_KEYS - set(entry))
        unknown = sorted(set(entry) - _ENTRY_KEYS)
        if missing or unknown:
            raise FetchError(f"{where}: missing keys {missing}, unknown keys {unknown}")
        if len(str(entry["commit"])) != 40:
            raise FetchError(f"{where}.commit: {entry['commit']!r} is not a full commit id")
        for key in ("sha256", "schema_sha256"):
            value = entry[key]
            if value is not None and (len(str(value)) != 64 or not _is_hex(str(value))):
                raise FetchError(f"{where}.{key}: {value!r} is not a sha256 hex digest")
        if entry["schema_sha256"] is None:
            raise FetchError(f"{where}.schema_sha256: required (the converted schema's digest)")
        output = str(entry["output"])
        if Path(output).name != output or not output.endswith(".json") or output in outputs:
            raise FetchError(f"{where}.output: {output!r} must be a unique file name *.json")
        outputs.add(output)
    return entries


def _is_hex(value: str) -> bool:
    return all(char in "0123456789abcdef" for char in value)


# --- fetch, verify, write ---------------------------------------------------------------


def read_upstream(entry: dict[str, Any], source_dir: Path | None) -> bytes:
    """The upstream file's bytes: from ``source_dir`` when given, else from GitHub."""
    if source_dir is not None:
        local = source_dir / entry["repo"] / entry["commit"] / entry["path"]
        try:
            return local.read_bytes()
        except OSError as err:
            raise FetchError(f"{entry['output']}: cannot read {local}: {err}") from err
    url = RAW_URL.format(**entry)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 - https only
            data: bytes = response.read()
    except OSError as err:
        raise FetchError(f"{entry['output']}: cannot fetch {url}: {err}") from err
    return data


def verified_schema(entry: dict[str, Any], data: bytes) -> dict[str, Any]:
    """The converted schema of one entry, after both digests were checked."""
    where = f"{entry['output']} ({entry['repo']}@{entry['commit']}:{entry['path']})"
    actual = hashlib.sha256(data).hexdigest()
    if entry["sha256"] is not None and actual != entry["sha256"]:
        raise FetchError(
            f"{where}: sha256 mismatch: expected {entry['sha256']}, got {actual}; "
            "the upstream file is not the one pinned, refusing it"
        )
    try:
        group, schema = crd_schema(data.decode("utf-8"), entry["kind"], entry["version"])
    except (UnicodeDecodeError, yaml.YAMLError, KeyError, TypeError) as err:
        raise FetchError(f"{where}: not a CRD this script can read: {err}") from err
    except FetchError as err:
        raise FetchError(f"{where}: {err}") from err
    converted = convert(
        schema,
        kind=entry["kind"],
        group=group,
        version=entry["version"],
        comment=entry["comment"],
        extensions=entry["kubernetes_extensions"],
    )
    digest = canonical_digest(converted)
    if digest != entry["schema_sha256"]:
        raise FetchError(
            f"{where}: schema_sha256 mismatch: expected {entry['schema_sha256']}, got "
            f"{digest} (file sha256 {actual}); the converted schema is not the one pinned, "
            "refusing it"
        )
    return converted


def fetch_all(sources: Path, output_dir: Path, source_dir: Path | None = None) -> dict[str, str]:
    """Fetch, verify and convert every pinned CRD, then write them all.

    Returns the sha256 of each upstream file by output name, so that a maintainer can
    pin file digests from a trusted run (the schema digests were verified either way).
    """
    entries = load_sources(sources)
    if output_dir.exists() and (not output_dir.is_dir() or any(output_dir.iterdir())):
        raise FetchError(f"{output_dir}: must be missing or an empty directory")
    schemas: dict[str, dict[str, Any]] = {}
    digests: dict[str, str] = {}
    for entry in entries:
        data = read_upstream(entry, source_dir)
        schemas[entry["output"]] = verified_schema(entry, data)
        digests[entry["output"]] = hashlib.sha256(data).hexdigest()
    output_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{output_dir.name}-", dir=output_dir.parent))
    try:
        for name, schema in schemas.items():
            text = json.dumps(schema, indent=1, ensure_ascii=False) + "\n"
            (staging / name).write_text(text, encoding="utf-8")
        listing = json.dumps([_listed(entry) for entry in entries], indent=1) + "\n"
        (staging / "SOURCES.json").write_text(listing, encoding="utf-8")
        os.replace(staging, output_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return dict(sorted(digests.items()))


def _listed(entry: dict[str, Any]) -> dict[str, Any]:
    """The SOURCES.json item of a written schema (the reference directory's layout)."""
    keys = ("kind", "version", "repo", "commit", "path", "sha256", "schema_sha256")
    return {"file": entry["output"], **{key: entry[key] for key in keys}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output_dir", type=Path, help="directory to create with the schemas")
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES, help="pinned list")
    parser.add_argument(
        "--source-dir", type=Path, default=None, help="read DIR/<repo>/<commit>/<path>"
    )
    args = parser.parse_args(argv)
    try:
        written = fetch_all(args.sources, args.output_dir, args.source_dir)
    except FetchError as err:
        print(f"fetch_crds: error: {err}", file=sys.stderr)
        return 2
    pinned = {entry["output"]: entry["sha256"] for entry in load_sources(args.sources)}
    for name, digest in written.items():
        state = "pinned" if pinned[name] else "not pinned; schema digest verified"
        print(f"fetch_crds: {name}: file sha256 {digest} ({state})")
    print(f"fetch_crds: wrote {len(written)} verified CRD schemas to {args.output_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
