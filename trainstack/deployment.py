"""Everything a stack deploys, checked: its configuration, its experiments, the warnings.

The Pulumi program and ``trainstack plan`` both start here, so a mistake stops
``pulumi preview``/``up`` and the offline plan alike, before any resource is registered.

**The one seam between the plan and the program.** ``trainstack plan`` prepares the
stack first (so a bad value stops the plan before the program runs), then runs the
program, the very ``__main__.py`` that ``pulumi up`` runs, in this process under the
SDK's mock engine. The language host starts a program without arguments, so the plan
hands its :class:`Deployment` over explicitly instead: while :func:`hand_over` is in
effect, :func:`handed_over` returns it (marked ``offline``), and the program asks for it
in its one entry line, ``prepare_for_program(handed_over())``. Under ``pulumi up``
nothing is handed over and the program prepares the stack itself. The hand-over lives
in a context variable, set for one program run and reset after it, so the plans of one
process (a diff plans several) never see each other's.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from trainstack.chart.paths import CHART_DIR
from trainstack.checks import Finding, check_experiments, enforce
from trainstack.checks.acknowledge import Acknowledged, acknowledge
from trainstack.checks.enforcement import Enforcement, enforcement
from trainstack.checks.observed import facts_note, observed_findings
from trainstack.checks.selection import unselected_findings
from trainstack.config.data_sources import ResolvedDataset, resolve_datasets
from trainstack.config.loader import AnyStack, LoadedStack, load_from_pulumi
from trainstack.core.errors import PlaceholderError, TrainstackError
from trainstack.core.mentions import Files
from trainstack.core.names import placeholders
from trainstack.core.project import Project
from trainstack.core.yaml.positions import where_written
from trainstack.experiments.elsewhere import other_stacks
from trainstack.experiments.resolve import Experiment
from trainstack.experiments.select import NotSelected, resolve_selection
from trainstack.facts.store import FACTS_DIR, read_facts

CHART_PATH = f"./{CHART_DIR}"
"""The project's own chart, relative to the project root (absolute paths would differ on
every machine and show up as a change in every diff)."""


_HANDED_OVER: ContextVar[Deployment | None] = ContextVar("trainstack_handed_over", default=None)


@dataclass(frozen=True)
class Deployment:
    """A validated stack, the experiments it runs, and the warnings about them.

    A data stack has no experiments, datasets to resolve or teams: only its ``stack``.
    """

    stack: AnyStack
    experiments: tuple[Experiment, ...] = ()
    warnings: tuple[Finding, ...] = ()
    datasets: tuple[ResolvedDataset, ...] = ()
    """What each dataset resolves to (data stacks it reads are looked up here)."""
    enforcement: dict[str, Enforcement] = field(default_factory=dict)
    """How each team's share is enforced, by team name."""
    offline: bool = False
    """Run by ``trainstack plan`` under the mock engine: nothing is downloaded or read from
    a cluster, and placeholders are allowed (and listed)."""
    acknowledged: tuple[Acknowledged, ...] = ()
    """Warnings an experiment file or the stack acknowledges (not in :attr:`warnings`)."""
    not_selected: tuple[NotSelected, ...] = ()
    """Experiments of the directory the stack does not select, by file."""
    facts_note: str = ""
    """What the pools and operators were compared with: the cluster's facts, or nothing."""
    files: Files = field(default_factory=dict)
    """The files read for it (the stack's, its template's, the experiments', the data
    stacks'), by the name messages give them: where printed messages find their keys' lines."""

    @property
    def referenced_stacks(self) -> list[str]:
        """The data stacks this stack reads through StackReferences, each once."""
        names = (d.reference.stack.name for d in self.datasets if d.reference is not None)
        return list(dict.fromkeys(names))

    def placeholders(self) -> list[tuple[str, str]]:
        """(key, placeholder) of every value still to set: the stack's, the populate specs
        of the data it mounts (their Jobs run here), then its experiments'."""
        return (
            self.stack.placeholders()
            + populate_placeholders(self.datasets)
            + experiment_placeholders(self.experiments)
        )


def populate_placeholders(datasets: tuple[ResolvedDataset, ...]) -> list[tuple[str, str]]:
    """(``<data stack file>: <key>``, placeholder) of the populate specs whose Jobs (or the
    waits for them) this stack runs: deploying runs them with these values."""
    return [
        (f"{item.reference.stack.source}: {key}", value)
        for item in datasets
        if item.populate is not None and item.reference is not None
        for key, value in placeholders(
            item.populate.model_dump(mode="json", by_alias=True, exclude_none=True),
            f"{item.reference.key}.populate",
        )
    ]


def experiment_placeholders(experiments: tuple[Experiment, ...]) -> list[tuple[str, str]]:
    """(``<file>: job.<key>``, placeholder) of the experiments' values still to set, once per
    file (the points of a matrix share theirs), sorted."""
    found = {
        (f"{experiment.source}: {key}", value)
        for experiment in experiments
        for key, value in placeholders(experiment.values, "job")
    }
    return sorted(found)


def prepare(project_root: Path, stack: AnyStack, stack_dir: Path | None = None) -> Deployment:
    """Resolve and check the experiments and datasets of ``stack``; raise on any error.

    ``stack_dir``: where data stacks named by ``stack-reference`` datasets are found
    (default: the project's stack directory).
    """
    if not isinstance(stack, LoadedStack):
        return Deployment(stack, files=stack.files)
    try:
        return _prepare(project_root, stack, stack_dir)
    except TrainstackError as error:
        raise error.reading(stack.files) from None


def _prepare(project_root: Path, stack: LoadedStack, stack_dir: Path | None) -> Deployment:
    directory = stack_dir or Project.load(project_root).stack_config_dir
    datasets = resolve_datasets(stack, directory)
    selection = resolve_selection(project_root, stack.config, stack.source, stack.files)
    experiments = selection.experiments
    data_files = (d.reference.stack.files for d in datasets if d.reference is not None)
    files = dict(selection.files)
    for each in data_files:
        files.update(each)
    warnings = enforce(check_experiments(experiments, stack.config, stack.source), files)
    facts_file = f"{FACTS_DIR}/{stack.name}.json"
    facts = read_facts(project_root, stack.name, lambda path: facts_file)
    if facts is not None:
        observed = observed_findings(experiments, stack.config, stack.source, facts, facts_file)
        warnings = sorted([*warnings, *observed])
    known = [n for item in selection.not_selected for n in (item.name, *item.experiments)]
    left, acknowledged = acknowledge(
        warnings, experiments, stack.config, stack.source, stack.name, known
    )
    if selection.not_selected:
        project = Project(root=project_root, name="", stack_config_dir=directory)
        others = other_stacks(project, stack.name, stack.config.experiments.directory)
        left = sorted([*left, *unselected_findings(selection.not_selected, others, stack.source)])
    return Deployment(
        stack,
        tuple(experiments),
        tuple(left),
        datasets,
        enforcement(stack.config, experiments),
        acknowledged=tuple(acknowledged),
        not_selected=selection.not_selected,
        facts_note=facts_note(facts_file, facts is not None, stack.name),
        files=files,
    )


def prepare_for_program(handed: Deployment | None) -> Deployment:
    """:func:`prepare` for the Pulumi program: errors end the run cleanly, warnings are logged.

    ``handed``: the deployment ``trainstack plan`` prepared and handed over
    (:func:`handed_over`; ``None`` under ``pulumi up``). The program then validates the
    configuration again but does not resolve and check every experiment a second time.
    """
    import pulumi

    try:
        stack = load_from_pulumi()
        stack_dir = Project.find().stack_config_dir
        if handed is not None:
            if handed.stack.config == stack.config:
                return handed
            return dataclasses.replace(prepare(Path.cwd(), stack, stack_dir), offline=True)
        deployment = prepare(Path.cwd(), stack, stack_dir)
        found = deployment.placeholders()
        if found:
            # Each key where it is written (FILE:LINE: KEY), when the file was read here.
            located = [
                (where_written(key, stack.source, deployment.files), value) for key, value in found
            ]
            raise PlaceholderError(stack.source, located)
    except TrainstackError as error:
        raise pulumi.RunError(str(error)) from None
    for warning in deployment.warnings:
        pulumi.log.warn(f"warning: {warning}")
    for acknowledged in deployment.acknowledged:
        pulumi.log.info(f"acknowledged: {acknowledged}")
    return deployment


def handed_over() -> Deployment | None:
    """The deployment ``trainstack plan`` hands the program it runs (see the module doc)."""
    return _HANDED_OVER.get()


@contextlib.contextmanager
def hand_over(deployment: Deployment) -> Iterator[None]:
    """Hand ``deployment`` (offline) to the program the plan runs meanwhile."""
    token = _HANDED_OVER.set(dataclasses.replace(deployment, offline=True))
    try:
        yield
    finally:
        _HANDED_OVER.reset(token)
