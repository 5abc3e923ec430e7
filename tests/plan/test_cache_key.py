"""The plan cache's secret-digest key is what docs/secrets.md says: where it is, its mode,
what it keys (the digests of masked values in the cached plans), and that it is never
printed or written anywhere else."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import stat
from pathlib import Path

import pytest

from tests.diff.plan_dirs import copy_project
from tests.project_copy import run_in_process
from tests.stack_helpers import REPO
from trainstack.plan.cache import CACHE_DIR_ENV, DEFAULT_CACHE, KEY_FILE, NO_CACHE_ENV

CIPHERTEXT = "v1:c2VjcmV0LWt1YmVjb25maWc="
SECRET_KEY = "trainstack:nodePassword"


def test_the_key_is_a_private_file_of_the_cache_that_keys_its_plans_digests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_project(tmp_path / "project")
    # A secret to digest: the GPU nodes' root password, which the pools of the cluster
    # template aiacc and baseline share name (the clusters they create need no kubeconfig).
    template = root / "stacks" / "templates" / "workload-1-ack.yaml"
    text = template.read_text()
    login = "login:\n      keyName: <ECS key pair the nodes accept (create it in cn-beijing)>"
    assert login in text
    template.write_text(text.replace(login, f"login:\n      passwordSecret: {SECRET_KEY}", 1))
    for stack in ("aiacc", "baseline"):
        path = root / "stacks" / f"Pulumi.{stack}.yaml"
        path.write_text(
            path.read_text().replace(
                "config:\n", f"config:\n  {SECRET_KEY}:\n    secure: {CIPHERTEXT}\n", 1
            )
        )
    monkeypatch.delenv(CACHE_DIR_ENV, raising=False)
    monkeypatch.delenv(NO_CACHE_ENV, raising=False)
    previous = os.umask(0o022)
    try:
        outcome = run_in_process(["diff", "aiacc", "baseline"], root)
    finally:
        os.umask(previous)
    assert outcome.status == 1, outcome.stderr

    key_file = root / DEFAULT_CACHE / KEY_FILE
    assert "`build/cache/secret-digest.key`" in (REPO / "docs" / "secrets.md").read_text()
    assert key_file.relative_to(root).as_posix() == "build/cache/secret-digest.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700
    key = key_file.read_text(encoding="ascii")
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    # Never printed, never in a plan.
    assert key not in outcome.stdout + outcome.stderr
    cached = [path for path in (key_file.parent / "plans").rglob("*") if path.is_file()]
    assert cached and all(key.encode() not in path.read_bytes() for path in cached)
    # What it keys: HMAC-SHA256 of the masked value (here the `secure:` value as the stack
    # file holds it, its ciphertext, never decrypted).
    raw = json.dumps({"secure": CIPHERTEXT}, sort_keys=True).encode()
    expected = hmac.new(bytes.fromhex(key), raw, hashlib.sha256).hexdigest()[:32]
    digests = [
        json.loads(path.read_text()) for path in cached if path.name == "secret-digests.json"
    ]
    assert len(digests) == 2  # aiacc's plan and baseline's
    assert [found["config"] for found in digests] == [{SECRET_KEY: expected}] * 2
    assert CIPHERTEXT not in "".join(path.read_text(errors="replace") for path in cached)
