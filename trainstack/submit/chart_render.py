"""``trainstack chart render``: a values file's manifests, like ``helm template``; with
``--stack STACK``, an experiment with everything the stack gives it.

With ``--stack`` the experiment is resolved and checked as the plan does
(:mod:`trainstack.submit.prepare`) and each release the stack deploys of it is rendered
by the plan's own function: the objects printed are the plan's (``build/plan/STACK/
objects/``), and those of ``trainstack run`` but for each run's name and labels.
``--values-file FILE`` writes the release's chart values (the stack's overrides,
pools, queue, acceleration and run labels applied): ``helm install RELEASE
charts/training-job --namespace NS -f FILE`` installs the same objects (the chart reads
nothing of the cluster: no ``lookup``, no ``Capabilities``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trainstack.chart.paths import CHART_DIR
from trainstack.console.safe_text import printable
from trainstack.core.errors import OutputError, TrainstackError
from trainstack.core.project import Project
from trainstack.experiments.completion import complete_stack
from trainstack.submit.options import CrdDir, Sets, SetStrings

if TYPE_CHECKING:
    from trainstack.experiments.resolve import Experiment

VALUES_HEADER = "# Chart values written by `trainstack chart render --stack`"


def render(
    source: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="Values file (YAML); with --stack, an experiment file or experiment name.",
            show_default=False,
        ),
    ],
    stack: Annotated[
        str | None,
        typer.Option(
            "--stack",
            "-s",
            metavar="STACK",
            help="Render the experiment with everything this stack gives it, as the plan does.",
            autocompletion=complete_stack,
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="NAME", help="Release name (default: the file's name)."),
    ] = None,
    namespace: Annotated[
        str,
        typer.Option("--namespace", "-n", metavar="NAMESPACE", help="Namespace of the release."),
    ] = "default",
    values_file: Annotated[
        Path | None,
        typer.Option(
            "--values-file",
            metavar="FILE",
            help="With --stack: also write the release's values, for `helm install -f FILE`.",
        ),
    ] = None,
    sets: Sets = None,
    set_strings: SetStrings = None,
    crd_dir: CrdDir = None,
) -> None:
    """Print the manifests of a values file, like `helm template`; with --stack, of an
    experiment as the stack deploys it."""
    if stack is None:
        from trainstack.chart.cli import render_values_file

        if values_file is not None or sets or set_strings:
            raise TrainstackError("--values-file, --set and --set-string need --stack")
        render_values_file(Path(source), name, namespace)
        return
    if name is not None or namespace != "default":
        raise TrainstackError(
            "--name and --namespace are the stack's with --stack (the experiment's name, its "
            "team's namespace)"
        )
    _render_on_stack(source, stack, values_file, sets or [], set_strings or [], crd_dir)


def _render_on_stack(
    source: str,
    stack_name: str,
    values_file: Path | None,
    sets: list[str],
    set_strings: list[str],
    crd_dir: Path | None,
) -> None:
    import sys

    from trainstack.experiments.overrides import parse_overrides
    from trainstack.plan.crd_dir import crd_dir_from
    from trainstack.submit.objects import documents_text, object_ref
    from trainstack.submit.prepare import (
        check_objects,
        load_cluster_stack,
        prepare_experiment,
        render_objects,
    )

    project = Project.find()
    stack = load_cluster_stack(project, stack_name)
    overrides = parse_overrides(sets, set_strings)
    prepared = prepare_experiment(project, stack, source, overrides)
    documents = [
        (f"release {experiment.release_name} on {stack.name}: {object_ref(o).shown()}", o)
        for experiment in prepared.experiments
        for o in render_objects(project, experiment)
    ]
    check_objects(stack, [document for _, document in documents], crd_dir_from(crd_dir))
    if values_file is not None:
        _write_values(values_file, prepared.experiments, stack.name)
    sys.stdout.write(documents_text(documents))
    if not prepared.selected:
        sys.stderr.write(
            f"note: stack {stack.name} does not select {source}: `pulumi up` does not deploy "
            "it; `trainstack run` runs it\n"
        )


def _write_values(path: Path, experiments: tuple[Experiment, ...], stack: str) -> None:
    """The first release's values, under a header naming it and how to install it; a file
    trainstack did not write is never overwritten."""
    from trainstack.core.yaml.io import dump_yaml

    points = {experiment.point_name for experiment in experiments}
    if len(points) != 1:
        raise TrainstackError(
            f"--values-file writes the values of one experiment; this is a matrix of "
            f"{len(points)} points on stack {stack}: name one point ({', '.join(sorted(points))})"
        )
    first = experiments[0]
    header = (
        f"{VALUES_HEADER} for release {first.release_name} of {printable(first.source)} on "
        f"stack {stack}.\n# Install the same objects: helm install {first.release_name} "
        f"{CHART_DIR} --namespace {first.namespace} -f <this file>\n"
    )
    text = header + dump_yaml(first.values)
    if path.is_symlink() or (path.exists() and not (path.is_file() and _ours(path))):
        raise OutputError(
            f"{path}: exists and is not a values file trainstack wrote; not overwritten"
        )
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        temporary.unlink(missing_ok=True)


def _ours(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(VALUES_HEADER)).decode("utf-8", "replace") == VALUES_HEADER
    except OSError:
        return False
