"""Make the plans a diff compares, all with one secret-digest key, each side at most once.

The working tree is planned in this process (its code is the code running). A git
revision is planned by ``python -m trainstack plan`` run inside its checkout, with the
checkout as working directory and first on ``PYTHONPATH``: the revision's own code
runs, not the working tree's editable install (which Python only consults after
``sys.path``). Revisions plan in child processes while the working tree plans here, so
both cores work; on a terminal, stderr shows how far it got.

Each plan is looked up first in the plan cache (:mod:`trainstack.plan.cache`) by the
digest of everything it reads: an unchanged side is not planned again. A data stack that
several stacks read is planned once per side.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from trainstack.console.signals import on_stop
from trainstack.core.errors import DiffError
from trainstack.core.project import Project
from trainstack.diff.children import Children
from trainstack.diff.progress import Progress
from trainstack.plan.cache import PlanCache
from trainstack.plan.cache_digests import TreeTooLarge, environment_digest, plan_digest, side_digest
from trainstack.plan.files import RESOURCES_JSON
from trainstack.plan.masking import DIGEST_KEY_ENV
from trainstack.plan.model import Plan
from trainstack.plan.render_cache import RenderCache
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import write_plan

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
    cache: PlanCache | None = None,
    progress: Progress | None = None,
) -> dict[Path, Path]:
    """Plan ``revisions`` in subprocesses and ``stacks`` of ``project`` here, into ``output_dir``.

    Returns where each plan is, by where it was asked for (``output_dir/<stack>``, or
    ``<revision output_dir>/<stack>``): a plan found in ``cache`` is copied there, verified.
    Without a cache every plan is made, with a key of this run only.

    A revision that fails raises :class:`DiffError` with its stderr; a working-tree stack
    that fails raises its own error (e.g. the configuration error naming the key).
    """
    key = cache.secret_key() if cache is not None else bytes.fromhex(new_digest_key())
    run = _Run(project, output_dir, key, progress, RenderCache(cache) if cache else None)
    head, pending = _not_cached(_CacheLookup(cache, project, key), stacks, revisions, run)
    if progress is not None:
        progress.start(len(head) + len(pending), cached=len(run.located))
    made = _plan_all(head, pending, run)
    if cache is not None:
        # Only once every plan succeeded: a diff that fails leaves the cache as it was.
        cache.put_all(made)
    return run.located


_Made = list[tuple[str, str, Path]]
"""Plans made in this run: (cache entry, stack, where the plan is)."""


@dataclass
class _Run:
    """What the steps of one :func:`make_plans` share, and where each plan is found."""

    project: Project
    output_dir: Path
    """Where the working tree's plans are written."""
    key: bytes
    """The secret-digest key of every plan of the run."""
    progress: Progress | None
    releases: RenderCache | None
    """Renders and checks of releases kept in the plan cache (none without one)."""
    located: dict[Path, Path] = field(default_factory=dict)
    """Where each plan is, by where it was asked for."""


class _CacheLookup:
    """The plan cache, asked by the digest of everything a plan reads (no cache: nothing)."""

    def __init__(self, cache: PlanCache | None, project: Project, key: bytes) -> None:
        self._cache = cache
        self._project = project
        self._key = key
        self._sides: dict[Path, bytes | None] = {}
        try:
            self._shared = environment_digest() if cache is not None else b""
        except TreeTooLarge:
            self._cache = None  # hashing would take longer than planning

    def entry(self, root: Path, stack: str) -> str | None:
        """The cache entry of ``stack`` of the checkout at ``root`` (``None`` without a cache)."""
        if self._cache is None:
            return None
        if root not in self._sides:
            project = self._project
            stack_dir = (project if root == project.root else Project.load(root)).stack_config_dir
            try:
                self._sides[root] = side_digest(self._shared, root, stack_dir)
            except TreeTooLarge:
                self._sides[root] = None  # this side is planned, not looked up
        side = self._sides[root]
        return plan_digest(side, stack, self._key) if side is not None else None

    def find(self, entry: str | None, stack: str, output_dir: Path) -> bool:
        """Whether the cache had the plan of ``entry`` and copied it, verified, to
        ``output_dir/<stack>``."""
        if self._cache is None or not entry:
            return False
        output_dir.mkdir(parents=True, exist_ok=True)
        return self._cache.get(entry, stack, output_dir / stack)


def _not_cached(
    lookup: _CacheLookup,
    stacks: Sequence[str],
    revisions: Sequence[RevisionPlan],
    run: _Run,
) -> tuple[list[tuple[str, str | None]], list[tuple[RevisionPlan, str | None]]]:
    """Each plan the cache has goes into ``run.located``; the working tree's stacks and the
    revisions still to plan are returned, each with its cache entry."""
    head: list[tuple[str, str | None]] = []
    for stack in dict.fromkeys(stacks):
        entry = lookup.entry(run.project.root, stack)
        if lookup.find(entry, stack, run.output_dir):
            run.located[run.output_dir / stack] = run.output_dir / stack
        else:
            head.append((stack, entry))
    pending: list[tuple[RevisionPlan, str | None]] = []
    for request in revisions:
        entry = lookup.entry(request.project_root, request.stack)
        if lookup.find(entry, request.stack, request.output_dir):
            planned = request.output_dir / request.stack
            run.located[planned] = planned
        else:
            pending.append((request, entry))
    return head, pending


def _plan_all(
    head: list[tuple[str, str | None]], pending: list[tuple[RevisionPlan, str | None]], run: _Run
) -> _Made:
    """Plan the revisions in child processes while the working tree plans here; each plan
    goes into ``run.located``. Raises the first revision's failure once every plan has
    ended."""
    # As many children as cores: the working tree's plans here finish first, and the
    # revision's go on on every core.
    workers = max(1, min(len(pending), os.cpu_count() or 1))
    children = Children()
    failures: list[str | None] = []
    made: _Made = []
    with on_stop(children.kill), ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            futures: list[tuple[RevisionPlan, str | None, Future[str | None]]] = [
                (
                    request,
                    entry,
                    pool.submit(_plan_revision, request, run.key.hex(), children, run.progress),
                )
                for request, entry in pending
            ]
            made += _plan_working_tree(head, run)
            for request, entry, future in futures:
                failure = future.result()
                failures.append(failure)
                if failure is None:
                    planned = request.output_dir / request.stack
                    run.located[planned] = planned
                    if entry is not None:
                        made.append((entry, request.stack, planned))
        except BaseException:
            # Interrupted, or a working-tree plan failed: do not wait for the revisions.
            children.stop()
            raise
        finally:
            if run.progress is not None:
                run.progress.finish()
    for failure in failures:
        if failure is not None:
            raise DiffError(failure)
    return made


def _plan_working_tree(head: list[tuple[str, str | None]], run: _Run) -> _Made:
    """Plan the working tree's stacks in this process (a data stack several read, once)."""
    made: _Made = []
    memo: dict[str, Plan] = {}
    for stack, entry in head:
        if run.progress is not None:
            run.progress.planning(f"{stack} (working tree)")
        plan = memo.get(stack) or plan_stack(
            run.project, stack, run.key, memo=memo, releases=run.releases
        )
        memo[stack] = plan
        run.located[run.output_dir / stack] = write_plan(plan, run.output_dir)
        if entry is not None:
            made.append((entry, stack, run.output_dir / stack))
        if run.progress is not None:
            run.progress.done()
    return made


def _plan_revision(
    request: RevisionPlan, digest_key: str, children: Children, progress: Progress | None
) -> str | None:
    """Plan one stack of a checkout; returns the error message, or ``None`` on success."""
    if progress is not None:
        progress.planning(f"{request.stack} at {request.where}")
    try:
        return _run_revision(request, digest_key, children)
    finally:
        if progress is not None:
            progress.done()


def _run_revision(request: RevisionPlan, digest_key: str, children: Children) -> str | None:
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
