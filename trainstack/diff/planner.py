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
import threading
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
    children = _Children()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            pending = [
                pool.submit(_plan_revision, request, digest_key, children) for request in revisions
            ]
            for stack in dict.fromkeys(stacks):
                write_plan(plan_stack(project, stack, bytes.fromhex(digest_key)), output_dir)
            failures = [future.result() for future in pending]
        except BaseException:
            # Interrupted, or a working-tree plan failed: do not wait for the revisions.
            children.stop()
            raise
    for failure in failures:
        if failure is not None:
            raise DiffError(failure)


class _Children:
    """The ``trainstack plan`` processes started for revisions, so they can be stopped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._processes: list[subprocess.Popen[str]] = []
        self._stopped = False

    def start(self, command: list[str], cwd: str, env: dict[str, str]) -> subprocess.Popen[str]:
        """Start ``command`` (refused once :meth:`stop` was called)."""
        with self._lock:
            if self._stopped:
                raise DiffError("the diff was stopped")
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            self._processes.append(process)
            return process

    def stop(self) -> None:
        """SIGTERM to every running plan: each removes its staging directory and exits."""
        with self._lock:
            self._stopped = True
            for process in self._processes:
                if process.poll() is None:
                    process.terminate()


def _plan_revision(request: RevisionPlan, digest_key: str, children: _Children) -> str | None:
    """Plan one stack of a checkout; returns the error message, or ``None`` on success."""
    root = str(request.project_root)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env[DIGEST_KEY_ENV] = digest_key
    command = [sys.executable, "-m", "trainstack", "plan", request.stack]
    command += ["--output-dir", str(request.output_dir)]
    process = children.start(command, root, env)
    try:
        stdout, stderr = process.communicate(timeout=PLAN_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return (
            f"planning stack {request.stack} at {request.where} took over {PLAN_TIMEOUT_SECONDS} s"
        )
    if process.returncode == 0 and (request.output_dir / request.stack / RESOURCES_JSON).is_file():
        return None
    where = f"planning stack {request.stack} at {request.where} failed"
    errors = [line[len("error: ") :] for line in stderr.splitlines() if line.startswith("error: ")]
    if errors:
        # One line per problem, as the revision's own `trainstack plan` reported them.
        return "\n".join(f"{where}: {line}" for line in errors)
    output = stderr.strip() or stdout.strip() or "(no output)"
    if len(output) > _STDERR_TAIL_CHARS:
        output = "..." + output[-_STDERR_TAIL_CHARS:]
    return f"{where} (exit status {process.returncode}):\n{output}"
