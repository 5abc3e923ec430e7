"""The offline plan never leaves its inputs: a ``$ref`` in a CRD schema of
``TRAINSTACK_CRD_DIR`` that points at a URL or another file is refused, naming it, before
anything is fetched or read (a loopback server counts the requests: none).

A schema file a regression could hang on (a FIFO, a device) or crash the interpreter with
(deep nesting) is planned in a process of its own; the other inputs, read whole and
refused the same way, in this process (the console's ``main()``: 2-3 s of CPU less each)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conformance import crd_dir
from tests.hostile.corpus import Case, check_refused
from tests.live.apiserver import RecordedApi, serve
from tests.project_copy import copy_project, run_in_process
from trainstack.plan.crd_dir import CRD_DIR_ENV

pytestmark = [
    pytest.mark.slow,  # left out of `make test-fast`
    # Plans run in this process: nothing else a process would print on its stderr.
    pytest.mark.usefixtures("stderr_as_a_process_has_it"),
]

TOKEN = "SECRET-SCHEMA-CONTENT-42"
MPIJOB = "mpijob-v2beta1.json"


@pytest.fixture()
def schemas(tmp_path: Path) -> Path:
    """A copy of the reference CRD schemas (skipped, with the reason, when unset)."""
    copy = tmp_path / "crds"
    shutil.copytree(crd_dir(), copy)
    return copy


@pytest.fixture()
def server() -> Iterator[tuple[RecordedApi, str]]:
    api = RecordedApi()
    for url in serve(api):
        yield api, url


def _with_ref(schemas: Path, reference: str) -> None:
    path = schemas / MPIJOB
    schema = json.loads(path.read_text())
    schema["properties"]["spec"] = {"$ref": reference}
    path.write_text(json.dumps(schema))


@pytest.mark.parametrize("kind", ["http", "file", "relative"])
def test_a_reference_outside_the_schema_set_is_refused(
    tmp_path: Path, schemas: Path, server: tuple[RecordedApi, str], kind: str
) -> None:
    api, url = server
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"description": TOKEN, "type": "object"}))
    reference = {
        "http": f"{url}/schema.json",
        "file": secret.as_uri(),
        "relative": "../secret.json#/",
    }[kind]
    _with_ref(schemas, reference)
    case = Case(
        f"ref-{kind}",
        lambda _: None,
        (
            f"CRD schema {schemas / MPIJOB}: `$ref` '{reference}' at /properties/spec/$ref: "
            "refused (an offline plan resolves a schema's references only inside its schema set",
        ),
        args=("plan", "aiacc", "-o", "out"),
        env={CRD_DIR_ENV: str(schemas)},
        secret=TOKEN,
    )
    check_refused(case, copy_project(tmp_path / "project"), tmp_path / "project")
    assert api.seen == []


def test_a_pointer_inside_the_schema_is_followed(tmp_path: Path, schemas: Path) -> None:
    path = schemas / MPIJOB
    schema = json.loads(path.read_text())
    schema["definitions"] = {"spec": schema["properties"]["spec"]}
    schema["properties"]["spec"] = {"$ref": "#/definitions/spec"}
    path.write_text(json.dumps(schema))
    root = copy_project(tmp_path / "project")

    outcome = run_in_process(["plan", "aiacc", "-o", "out"], root, {CRD_DIR_ENV: str(schemas)})
    assert outcome.status == 0, outcome.stderr


def _replace(schemas: Path, make: str) -> None:
    path = schemas / MPIJOB
    path.unlink()
    if make == "dev-zero":
        path.symlink_to("/dev/zero")
    elif make == "fifo":
        os.mkfifo(path)
    elif make == "not-utf8":
        path.write_bytes(b'{"title": "MPIJob kubeflow.org/v2beta1", "description": "\xff"}')
    elif make == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    else:  # a CRD document of the wrong shape
        path.write_text(json.dumps({"kind": "CustomResourceDefinition", "spec": {"versions": 5}}))


IN_A_PROCESS = {"dev-zero", "fifo", "deep"}


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        ("dev-zero", "not a regular file; allowed: a regular file"),
        ("fifo", "not a regular file; allowed: a regular file"),
        ("not-utf8", "is not UTF-8"),
        ("deep", "JSON nested more than 64 deep; allowed: at most 64 levels"),
        ("wrong-shape", "not a CustomResourceDefinition of the expected shape"),
    ],
)
def test_a_schema_file_that_cannot_be_read_is_one_error(
    tmp_path: Path, schemas: Path, make: str, expected: str
) -> None:
    """Never read (a device, a FIFO: no hang, no MemoryError), never a traceback."""
    _replace(schemas, make)
    case = Case(
        f"crd-{make}",
        lambda _: None,
        (f"CRD schema {schemas / MPIJOB}: ", expected),
        args=("plan", "aiacc", "-o", "out"),
        env={CRD_DIR_ENV: str(schemas)},
        isolate=make in IN_A_PROCESS,
    )
    check_refused(case, copy_project(tmp_path / "project"), tmp_path / "project")
