"""Plan one stack: validate its configuration, then run the program under the mock engine."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from trainstack.chart.batch import RenderRequest, render_all_packed
from trainstack.config.loader import AnyStack, LoadedStack, load_stack_config
from trainstack.config.pulumi_config import (
    StackFile,
    decode_config_value,
    engine_environment,
    read_stack_file,
)
from trainstack.core.errors import PlanError
from trainstack.core.project import CONFIG_NAMESPACE, Project
from trainstack.cost.estimate import StackCost, stack_cost
from trainstack.deployment import CHART_PATH, Deployment, hand_over, prepare
from trainstack.plan.charts import (
    HELM_RELEASE,
    EarlyRenders,
    expand_local_releases,
    is_local_chart,
)
from trainstack.plan.conformance import check_conformance, schema_files
from trainstack.plan.engine import ProgramRun, run_program
from trainstack.plan.files import STACK_TYPE
from trainstack.plan.masking import SECRET, Masker
from trainstack.plan.model import Plan, PlannedResource, RenderedObject
from trainstack.plan.output_dir import pause_setting
from trainstack.plan.render_cache import RenderCache
from trainstack.results.durations import recorded_seconds

COLLECT_AFTER_EXPERIMENTS = 100
"""From this many experiments a plan frees the SDK's objects of its run at once (below)."""

REMOTE_CHART_NOTE = (
    "{count} Helm release(s) of remote charts are recorded as chart + version + values: "
    "remote charts cannot be fetched offline, so their objects are not expanded."
)
FETCHED_AT_DEPLOY = ("kubernetes:yaml/v2:ConfigGroup", "kubernetes:kustomize/v2:Directory")
FETCHED_NOTE = (
    "{count} operator install(s) from a release manifest or a kustomize overlay are recorded "
    "as source + version + digest (inputs of trainstack:operators:TrainingOperators): they "
    "are downloaded, and the manifest's sha256 checked, at deploy time, so their objects are "
    "not expanded offline."
)


def plan_stack(
    project: Project,
    stack_name: str,
    digest_key: bytes | None = None,
    crd_dir: Path | None = None,
    memo: dict[str, Plan] | None = None,
    releases: RenderCache | None = None,
) -> Plan:
    """Everything ``pulumi up -s <stack_name>`` would register, computed offline.

    The configuration is validated first (a bad value stops the plan before the
    program runs); a program that registers nothing is an error, never an empty plan.
    With ``digest_key`` the plan keeps keyed digests of the secrets it masks, so that
    two plans made with the same key show which secrets changed (see ``masking``). Every
    planned object is checked against its API's schema (custom resources against the CRD
    schemas in ``crd_dir`` when given) before anything is returned. ``memo``: plans
    already made in this run (with the same key), by stack name; the data stacks this
    stack reads are taken from it, and added to it. ``releases``: the release cache, which
    keeps each release's render and checks (only releases that changed are rendered and
    checked; the plan is the same byte for byte).
    """
    engine_environment()  # what the SDK would read of the environment, before it does
    pause_setting()
    stack_file = read_stack_file(project, stack_name)
    config, secret_keys = stack_file.config, stack_file.secret_keys
    stack = load_stack_config(stack_name, config, secret_keys, stack_file.source, stack_file.path)
    deployment = prepare(project.root, stack, project.stack_config_dir)
    _check_project_files(project, deployment)
    run, renders = _run(project, stack_name, stack_file, deployment, digest_key, memo, releases)
    resources = run.resources
    if not any(resource.type != STACK_TYPE for resource in resources):
        raise PlanError(f"{project.main_program} registered no resources for stack {stack_name}")
    config_digests = _config_digests(stack_file, digest_key)
    objects = expand_local_releases(project.root, resources, digest_key, renders)
    conformance_note = _checked(project, stack, resources, objects, digest_key, crd_dir, releases)
    cost, cost_note = _cost(project, deployment)
    extra_notes = filter(None, [deployment.facts_note, cost_note])
    return Plan(
        stack=stack,
        resources=tuple(resources),
        notes=(*_notes(resources), *extra_notes, conformance_note),
        config_digests=config_digests,
        provider_config=_provider_config(config, secret_keys),
        objects=tuple(objects),
        experiments=deployment.experiments,
        warnings=deployment.warnings,
        outputs=run.outputs,
        datasets=deployment.datasets,
        enforcement=deployment.enforcement,
        acknowledged=deployment.acknowledged,
        not_selected=deployment.not_selected,
        cost=cost,
        files=deployment.files,
    )


def _checked(
    project: Project,
    stack: AnyStack,
    resources: list[PlannedResource],
    objects: list[RenderedObject],
    digest_key: bytes | None,
    crd_dir: Path | None,
    releases: RenderCache | None,
) -> str:
    """The plan's schema checks (:func:`check_conformance`), less the releases whose checks
    passed before (kept by ``releases``); those that pass now are kept."""
    if releases is None:
        return check_conformance(stack.config, resources, objects, crd_dir)
    schemas = schema_files(stack.config)
    keys = releases.check_keys(project.root, resources, digest_key, crd_dir, schemas)
    passed = {urn for urn, key in keys.items() if releases.passed(key)}
    note = check_conformance(stack.config, resources, objects, crd_dir, passed)
    releases.keep_passed(key for urn, key in keys.items() if urn not in passed)
    return note


def _cost(project: Project, deployment: Deployment) -> tuple[StackCost | None, str | None]:
    """A cluster stack's cost, its run lengths from its recorded runs where there are any."""
    stack = deployment.stack
    if not isinstance(stack, LoadedStack):
        return None, None
    experiments = deployment.experiments
    recorded, note = recorded_seconds(project.root, stack.name, experiments, project.display)
    return stack_cost(stack.name, stack.config, experiments, recorded), note


def _run(
    project: Project,
    stack_name: str,
    stack_file: StackFile,
    deployment: Deployment,
    digest_key: bytes | None,
    memo: dict[str, Plan] | None,
    releases: RenderCache | None,
) -> tuple[ProgramRun, dict[RenderRequest, bytes | None]]:
    """The program run under the mock engine, ``deployment`` handed over to it; and the
    experiments' charts, rendered by a worker meanwhile (those ``releases`` has, taken
    from it instead; those it lacks, kept in it)."""
    chart = (project.root / CHART_PATH).resolve()
    requests = [
        RenderRequest.of(e.release_name, e.namespace, chart, e.values)
        for e in deployment.experiments
    ]
    # Only asked whether it has them here: read (and verified) after the program, so that a
    # plan of many experiments does not hold every render while the program runs.
    listed = {r for r in requests if releases.has(r)} if releases is not None else set()
    # Started first: the worker renders while the data stacks and the program run.
    early = EarlyRenders([request for request in requests if request not in listed])
    try:
        references = _referenced_outputs(project, deployment, digest_key, memo, releases)
        with hand_over(deployment):
            run = run_program(
                project.main_program,
                project.name,
                stack_name,
                stack_file.config,
                stack_file.secret_keys,
                digest_key,
                references,
            )
        # The SDK's objects of the run (its outputs, their tasks and futures) refer to one
        # another: only a full collection frees them, and with the command line's collector
        # settings (trainstack.console.lifetime) none comes before the plan ends. Freed here,
        # the renders, the objects and the files reuse their memory instead of adding to it
        # (1,000 experiments: some 420,000 objects, 0.7 s of CPU; the peak of the steps
        # after the run was 45 MiB higher without it). A small plan leaves a few MiB, and a
        # full collection walks the whole process (a test process holds far more than
        # the plan): it costs more than it frees there.
        if len(deployment.experiments) >= COLLECT_AFTER_EXPERIMENTS:
            gc.collect()
        renders = early.take()
        if releases is not None:
            cached = releases.renders(r for r in requests if r in listed)
            missing = [r for r in requests if r not in cached and r not in renders]
            renders.update(zip(missing, render_all_packed(missing), strict=True))
            releases.keep_renders(renders)
            renders.update(cached)
        return run, renders
    finally:
        early.close()  # a failed or interrupted plan does not wait for the worker


def _check_project_files(project: Project, deployment: Deployment) -> None:
    """The program ``pulumi up`` runs and (with experiments) the chart they install: a
    project copied without them (only its stacks and experiments) is one error naming
    each, not a traceback (after the configuration's own errors, the more useful)."""
    needed = [(project.main_program, "the Pulumi program `pulumi up` runs")]
    if deployment.experiments:
        needed.append((project.root / CHART_PATH, "the training-job chart experiments install"))
    missing = [f"{project.display(path)} ({what})" for path, what in needed if not path.exists()]
    if missing:
        raise PlanError(
            f"the project at {project.root} lacks {' and '.join(missing)}: a trainstack "
            "project is a copy of the whole repository, not only its stacks/ and experiments/"
        )


def _referenced_outputs(
    project: Project,
    deployment: Deployment,
    digest_key: bytes | None,
    memo: dict[str, Plan] | None,
    releases: RenderCache | None,
) -> dict[str, dict[str, Any]]:
    """The data stacks ``deployment`` reads: their own plans answer its StackReferences offline."""
    references = {}
    for name in deployment.referenced_stacks:
        if memo is not None and name in memo:
            references[name] = memo[name].outputs
            continue
        referenced = plan_stack(project, name, digest_key, memo=memo, releases=releases)
        if memo is not None:
            memo[name] = referenced
        references[name] = referenced.outputs
    return references


def _config_digests(stack_file: StackFile, digest_key: bytes | None) -> dict[str, str]:
    """Keyed digests of the stack file's encrypted values (none without a key)."""
    if digest_key is None:
        return {}
    masker = Masker(digest_key)
    return {k: masker.digest(v) for k, v in sorted(stack_file.ciphertexts.items())}


def _provider_config(config: dict[str, str], secret_keys: set[str]) -> dict[str, Any]:
    """The stack's non-`trainstack:` settings, as the engine passes them (secrets masked)."""
    return {
        key: SECRET if key in secret_keys else decode_config_value(value)
        for key, value in sorted(config.items())
        if not key.startswith(f"{CONFIG_NAMESPACE}:")
    }


def _notes(resources: list[PlannedResource]) -> list[str]:
    notes = []
    remote = [r for r in resources if r.type == HELM_RELEASE and not is_local_chart(r)]
    if remote:
        notes.append(REMOTE_CHART_NOTE.format(count=len(remote)))
    fetched = [r for r in resources if r.type in FETCHED_AT_DEPLOY]
    if fetched:
        notes.append(FETCHED_NOTE.format(count=len(fetched)))
    return notes
