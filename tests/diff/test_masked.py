"""Masked values: the reviewer sees THAT a secret changed, never the value or its digest."""

from __future__ import annotations

import re
from pathlib import Path

from tests.diff.plan_dirs import secret_resource, urn, write_plan_dir
from tests.stack_helpers import REPO, existing_ack_config, with_data_stack
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.diff.compare import compare
from trainstack.diff.render_markdown import markdown
from trainstack.diff.render_text import text_lines
from trainstack.diff.snapshot import load_snapshot
from trainstack.diff.sources import two_stacks

SECRET_URN_NAME = ("kubernetes:core/v1:Secret", "db-credentials")
DIGEST_A, DIGEST_B = "0" * 31 + "a", "0" * 31 + "b"


def _secret_plans(tmp_path: Path, digest_a: str | None, digest_b: str | None) -> list[Path]:
    plans = []
    for side, digest in (("a", digest_a), ("b", digest_b)):
        stack = f"stack-{side}"
        digests = (
            {"config": {}, "resources": {urn(stack, *SECRET_URN_NAME): {"data.password": digest}}}
            if digest
            else None
        )
        plans.append(
            write_plan_dir(
                tmp_path / side,
                stack,
                {"resnet": 2},
                resources=[secret_resource(stack, "[secret]")],
                digests=digests,
            )
        )
    return plans


def _text(diff_lines: list[tuple[str, str]]) -> str:
    return "\n".join(line for line, _ in diff_lines)


def test_changed_secret_is_reported_changed_with_its_value_masked(tmp_path: Path) -> None:
    first, second = _secret_plans(tmp_path, DIGEST_A, DIGEST_B)

    result = compare(load_snapshot(first), load_snapshot(second), "a", "b")

    [secret] = result.shown
    assert (secret.key.label, secret.status) == ("Secret default/db", "changed")
    assert secret.masked_changes == (("data", "password"),)
    text = _text(text_lines([result]))
    comment = markdown([result])
    for output in (text, comment):
        assert "data.password: changed (value masked)" in output
        assert "-  password: '[secret] (before)'" in output
        assert "+  password: '[secret] (after)'" in output
        assert DIGEST_A not in output and DIGEST_B not in output


def test_secret_with_the_same_digest_is_unchanged(tmp_path: Path) -> None:
    first, second = _secret_plans(tmp_path, DIGEST_A, DIGEST_A)

    result = compare(load_snapshot(first), load_snapshot(second), "a", "b")

    assert not result.has_changes


def test_secrets_without_digests_are_said_to_be_uncomparable(tmp_path: Path) -> None:
    first, second = _secret_plans(tmp_path, None, None)

    result = compare(load_snapshot(first), load_snapshot(second), "a", "b")

    assert not result.shown
    assert len(result.notes) == 1
    assert result.notes[0].startswith("1 masked value(s) could not be compared")


def test_unmasked_secret_data_from_a_chart_is_masked_and_compared(tmp_path: Path) -> None:
    plans = []
    for side, password in (("a", "hunter2-old"), ("b", "hunter2-new")):
        stack = f"s{side}"
        secret = {
            "release": urn(stack, "kubernetes:helm.sh/v3:Release", "resnet-release"),
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "ssh", "namespace": "default"},
            "stringData": {"password": password},
        }
        plans.append(write_plan_dir(tmp_path / side, stack, {"resnet": 2}, extra_objects=[secret]))

    result = compare(load_snapshot(plans[0]), load_snapshot(plans[1]), "a", "b")

    [secret] = result.shown
    assert secret.masked_changes == (("stringData", "password"),)
    for output in (_text(text_lines([result])), markdown([result])):
        assert "stringData.password: changed (value masked)" in output
        assert "hunter2" not in output


def test_changed_secure_config_shows_the_key_never_the_ciphertext_or_digest(
    tmp_path: Path,
) -> None:
    for stack, ciphertext in (("left", "v1:AAAAcipherLEFTxyz="), ("right", "v1:AAAAcipherRIGHTq=")):
        config = existing_ack_config("baseline")
        config["trainstack:kubeconfig"] = {"secure": ciphertext}
        (tmp_path / f"Pulumi.{stack}.yaml").write_text(dump_yaml({"config": config}))
    project = Project(root=REPO, name="trainstack", stack_config_dir=with_data_stack(tmp_path))

    compared = two_stacks(project, "left", "right", context=3)

    changes = [(change.key, change.status) for change in compared.diff.config_changes]
    assert changes == [("trainstack:kubeconfig", "changed")]
    assert not compared.diff.shown  # the program only ever sees the placeholder
    for output in (_text(text_lines([compared.diff])), markdown([compared.diff])):
        assert "secure config trainstack:kubeconfig: changed (value masked)" in output
        assert "cipher" not in output
        assert not re.search(r"[0-9a-f]{32}", output), "a digest leaked into the report"
