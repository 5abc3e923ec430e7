"""The three things a diff can compare: two stacks, each stack with a git revision, two plans."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from trainstack.console.signals import scratch_directory
from trainstack.core.errors import DiffError
from trainstack.core.project import PROJECT_FILE, Project
from trainstack.diff.compare import compare
from trainstack.diff.gitbase import checkout
from trainstack.diff.model import Snapshot, StackDiff
from trainstack.diff.planner import RevisionPlan, make_plans
from trainstack.diff.progress import Progress
from trainstack.diff.snapshot import empty_snapshot, load_snapshot
from trainstack.plan.cache import PlanCache, wanted_cache

MISSING_AT_BASE = "stack {stack} does not exist at {ref}: every object shows as added"
MISSING_IN_TREE = "stack {stack} does not exist in the working tree: every object shows as removed"


@dataclass(frozen=True)
class Compared:
    """A diff and the two snapshots it was made from (the fairness report reads both)."""

    diff: StackDiff
    before: Snapshot
    after: Snapshot


def plan_cache(project: Project, wanted: bool) -> PlanCache | None:
    """The plan cache, unless turned off (``--no-cache``, ``TRAINSTACK_NO_CACHE``) or unusable."""
    return wanted_cache(project.root, wanted)


def two_stacks(
    project: Project,
    first: str,
    second: str,
    context: int,
    use_cache: bool = True,
    full: bool = False,
) -> Compared:
    """Stacks ``first`` and ``second`` of the working tree; both must exist."""
    for stack in (first, second):
        project.stack_file(stack)  # a typo in a stack name is an error, not an empty side
    with (
        scratch_directory("trainstack-diff-") as scratch,
    ):
        located = make_plans(
            [],
            project,
            (first, second),
            Path(scratch),
            plan_cache(project, use_cache),
            Progress.on_terminal(),
        )
        before = load_snapshot(_at(located, Path(scratch) / first))
        after = load_snapshot(_at(located, Path(scratch) / second))
    return Compared(compare(before, after, first, second, context, full=full), before, after)


def _at(located: dict[Path, Path], wanted: Path) -> Path:
    return located.get(wanted, wanted)


def against_base(
    project: Project,
    ref: str,
    stacks: Sequence[str],
    context: int,
    use_cache: bool = True,
    full: bool = False,
) -> list[Compared]:
    """Each stack planned at git revision ``ref`` and in the working tree.

    ``stacks`` defaults to every stack of either side. A stack that exists on one side
    only is compared with an empty plan (all added or all removed), with a note.
    """
    with (
        checkout(project.root, ref) as base,
        scratch_directory("trainstack-diff-") as scratch,
    ):
        base_project = (
            Project.load(base.project_root)
            if (base.project_root / PROJECT_FILE).is_file()
            else None
        )
        base_stacks = set(base_project.stacks()) if base_project else set()
        head_stacks = set(project.stacks())
        names = list(dict.fromkeys(stacks)) or sorted(base_stacks | head_stacks)
        unknown = [name for name in names if name not in base_stacks | head_stacks]
        if unknown:
            raise DiffError(
                f"stack(s) {', '.join(unknown)} exist neither at {ref} nor in the working "
                f"tree; stacks: {', '.join(sorted(base_stacks | head_stacks)) or 'none'}"
            )
        base_dir, head_dir = Path(scratch) / "base", Path(scratch) / "head"
        revisions = [
            RevisionPlan(name, base.project_root, base_dir, base.where)
            for name in names
            if name in base_stacks
        ]
        head = [name for name in names if name in head_stacks]
        located = make_plans(
            revisions,
            project,
            head,
            head_dir,
            plan_cache(project, use_cache),
            Progress.on_terminal(),
        )
        results = []
        for name in names:
            notes = []
            if name in base_stacks:
                before = load_snapshot(_at(located, base_dir / name), name)
            else:
                before = empty_snapshot(name)
                notes.append(MISSING_AT_BASE.format(stack=name, ref=ref))
            if name in head_stacks:
                after = load_snapshot(_at(located, head_dir / name), name)
            else:
                after = empty_snapshot(name)
                notes.append(MISSING_IN_TREE.format(stack=name))
            stack_diff = compare(
                before, after, f"{name}@{ref}", name, context, tuple(notes), full=full
            )
            results.append(Compared(stack_diff, before, after))
    return results


def two_plans(first: Path, second: Path, context: int, full: bool = False) -> Compared:
    """Two plan directories made earlier (``DIR/STACK`` as ``trainstack plan`` writes them).

    Masked values compare only when both plans were made with the same
    ``TRAINSTACK_SECRET_DIGEST_KEY``; otherwise the diff says they could not be compared.
    """
    before, after = load_snapshot(first), load_snapshot(second)
    return Compared(
        compare(before, after, str(first), str(second), context, full=full), before, after
    )
