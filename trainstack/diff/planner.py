"""Make the plans a diff compares, all with one random secret-digest key.

The working tree is planned in this process (its code is the code running). A git
revision is planned by ``python -m trainstack plan`` run inside its checkout, with the
checkout as working directory and first on ``PYTHONPATH``: the revision's own code
runs, not the working tree's editable install (which Python only consults after
``sys.path``). Revisions plan in parallel while the working tree plans here.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from trainstack.errors import DiffError
from trainstack.plan.masking import DIGEST_KEY_ENV
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import RESOURCES_JSON, write_plan
from trainstack.project import Project

PLAN_TIMEOUT_SECONDS = 600
_STDERR_TAIL_CHARS = 4000


@dataclass(frozen=True)
class RevisionPlan:
    """Plan ``stack`` of the checkout at ``project_root`` into ``output_dir/<stack>``."""

    stack: str
    project_root: Path
    output_dir: Path
    where: str
    """How errors name the revision: ``origin/main (1a2b3c4)``."""


def new_digest_key() -> str:
    """A fresh key per diff run: digests of one run cannot be compared with another's."""
    return secrets.token_hex(32)


def make_plans(
    revisions: Sequence[RevisionPlan],
    project: Project,
    stacks: Sequence[str],
    output_dir: Path,
    digest_key: str,
) -> None:
    """Plan ``revisions`` in subprocesses and ``stacks`` of ``project`` here, into ``output_dir``.

    A revision that fails raises :class:`DiffError` with its stderr; a working-tree stack
    that fails raises its own error (e.g. the configuration error naming the key).
    """
    workers = max(1, min(len(revisions), os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = [pool.submit(_plan_revision, request, digest_key) for request in revisions]
        for stack in dict.fromkeys(stacks):
            write_plan(plan_stack(project, stack, bytes.fromhex(digest_key)), output_dir)
        failures = [future.result() for future in pending]
    for failure in failures:
        if failure is not None:
            raise DiffError(failure)


def _plan_revision(request: RevisionPlan, digest_key: str) -> str | None:
    """Plan one stack of a checkout; returns the error message, or ``None`` on success."""
    root = str(request.project_root)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env[DIGEST_KEY_ENV] = digest_key
    command = [sys.executable, "-m", "trainstack", "plan", request.stack]
    command += ["--output-dir", str(request.output_dir)]
    try:
        result = subprocess.run(
            command,
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=PLAN_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return (
            f"planning stack {request.stack} at {request.where} took over {PLAN_TIMEOUT_SECONDS} s"
        )
    if result.returncode == 0 and (request.output_dir / request.stack / RESOURCES_JSON).is_file():
        return None
    output = result.stderr.strip() or result.stdout.strip() or "(no output)"
    if len(output) > _STDERR_TAIL_CHARS:
        output = "..." + output[-_STDERR_TAIL_CHARS:]
    return (
        f"planning stack {request.stack} at {request.where} failed "
        f"(exit status {result.returncode}):\n{output}"
    )
