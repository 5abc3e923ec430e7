"""``trainstack operators --format json``: the catalog as a versioned document."""

from __future__ import annotations

import json
import re

from tests.project_copy import run_in_process
from tests.stack_helpers import REPO
from trainstack.operators.render_json import OPERATORS_FORMAT


def _catalog() -> dict:
    outcome = run_in_process(["operators", "--format", "json"], REPO)
    assert outcome.status == 0, outcome.stderr
    document: dict = json.loads(outcome.stdout)
    return document


def test_the_catalog_parses_with_the_text_listings_releases() -> None:
    document = _catalog()
    assert document["format"] == OPERATORS_FORMAT
    text = run_in_process(["operators"], REPO).stdout
    # Every release the text lists (`  <version>: <install kind> in namespace ...`), per family
    listed = re.findall(r"^  ([0-9][^:]*): \S+ in namespace", text, flags=re.MULTILINE)
    releases = [r["version"] for family in document["operators"] for r in family["releases"]]
    assert releases == listed and releases


def test_a_release_says_what_it_serves_drops_and_pulls() -> None:
    families = {family["key"]: family for family in _catalog()["operators"]}
    arena = {r["version"]: r for r in families["arena"]["releases"]}
    pytorch = next(s for s in arena["0.13.1"]["serves"] if s["kind"] == "PyTorchJob")
    assert pytorch["operatorApi"] == "arena" and pytorch["kueueCanHold"] is False
    assert {"pytorch.elasticPolicy", "pytorch.master.replicas"} <= set(pytorch["drops"])
    mpi = {r["version"]: r for r in families["mpiOperator"]["releases"]}["0.8.2"]
    assert mpi["install"]["namespace"] == "mpi-operator"
    assert any(pull["mirror"].startswith("operators.mpiOperator.") for pull in mpi["pulls"])
    assert all(isinstance(fact, str) for fact in mpi["unverified"])


def test_the_version_rules_are_ranges() -> None:
    rules = _catalog()["requirements"]
    assert rules and all(set(rule["versions"]) == {"atLeast", "below"} for rule in rules)
    assert any(rule["whileQueued"] for rule in rules)
