"""Hostile and unlucky inputs: each must end in one `error:` line, exit 2, nothing touched.

A case changes a copy of the project (a stack file, an experiment, the environment,
the output directory), runs one command, and says which file and key the one error
line must name. Cases that could crash or hang the interpreter run in a subprocess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.project_copy import (
    assert_refused,
    edit_yaml,
    run_in_process,
    run_subprocess,
    tree,
)
from trainstack.core.limits import MAX_EXPERIMENT_FILES

Edit = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """One hostile input, the command it is given to, and what the error must name."""

    id: str
    edit: Edit
    expect: tuple[str, ...]
    """Fragments the single error line contains (the file, the key, what was found)."""
    args: tuple[str, ...] = ("plan", "onprem", "-o", "out")
    env: dict[str, str] = field(default_factory=dict)
    isolate: bool = False
    """Run in a subprocess: the input could crash or hang the interpreter."""
    secret: str | None = None
    """A value that must never be printed nor written."""

    def __str__(self) -> str:
        return self.id


def check_refused(case: Case, root: Path, scope: Path) -> None:
    """Apply ``case`` to the project at ``root``, run its command, and check that it is
    refused with one line and that nothing under ``scope`` changed."""
    case.edit(root)
    before = tree(scope)
    run = run_subprocess if case.isolate else run_in_process
    outcome = run(list(case.args), root, case.env)
    assert_refused(outcome, case.expect)
    assert tree(scope) == before
    if case.secret is not None:
        assert case.secret not in outcome.stdout + outcome.stderr


def nothing(_: Path) -> None:
    """No change."""


def stack(name: str, change: Callable[[dict[str, Any]], None]) -> Edit:
    """Change the ``config:`` of ``stacks/Pulumi.<name>.yaml``."""
    return lambda root: edit_yaml(
        root / "stacks" / f"Pulumi.{name}.yaml", lambda doc: change(doc["config"])
    )


def stack_text(name: str, old: str, new: str) -> Edit:
    """Replace text in a stack file (for what YAML data cannot express)."""
    return _replace(f"stacks/Pulumi.{name}.yaml", old, new)


def write(relative: str, data: str | bytes) -> Edit:
    """Write (or overwrite) a file of the project."""

    def edit(root: Path) -> None:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data)

    return edit


def experiment(file: str, change: Callable[[dict[str, Any]], None]) -> Edit:
    """Change ``experiments/<file>``."""
    return lambda root: edit_yaml(root / "experiments" / file, change)


def _replace(relative: str, old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / relative
        text = path.read_text()
        assert old in text, f"{old!r} not in {relative}"
        path.write_text(text.replace(old, new, 1))

    return edit


def job(file: str, *path: str, value: Any) -> Edit:
    """Set ``job.<path>`` of an experiment file."""

    def change(document: dict[str, Any]) -> None:
        cursor = document["job"]
        for key in path[:-1]:
            cursor = cursor.setdefault(key, {})
        cursor[path[-1]] = value

    return experiment(file, change)


def _set(*path: str | int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(config: dict[str, Any]) -> None:
        cursor: Any = config
        for key in path[:-1]:
            cursor = cursor[key]
        cursor[path[-1]] = value

    return change


def _drop(*path: str | int) -> Callable[[dict[str, Any]], None]:
    def change(config: dict[str, Any]) -> None:
        cursor: Any = config
        for key in path[:-1]:
            cursor = cursor[key]
        del cursor[path[-1]]

    return change


def _laughs(levels: int) -> str:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def _billion_points(document: dict[str, Any]) -> None:
    values = list(range(1000))
    document["matrix"] = {
        "axes": {"nodes": "worker.replicas", "gpusPerNode": "worker.gpus", "seed": "env.SEED"},
        "product": {"nodes": values, "gpusPerNode": values, "seed": [str(v) for v in values]},
    }


def _many_experiments(root: Path) -> None:
    # One file past the limit with the example experiments already there (each is empty:
    # the count is checked before any file is read).
    present = len(list((root / "experiments").glob("*.yaml")))
    for index in range(MAX_EXPERIMENT_FILES + 1 - present):
        (root / "experiments" / f"e{index:05d}.yaml").write_text("")


def _symlink(target: str, link: str) -> Edit:
    def edit(root: Path) -> None:
        (root / link).symlink_to(root / target)

    return edit


def both(*edits: Edit) -> Edit:
    """Several edits, in order."""

    def edit(root: Path) -> None:
        for each in edits:
            each(root)

    return edit


ONPREM = "stacks/Pulumi.onprem.yaml"
AIACC = "stacks/Pulumi.aiacc.yaml"
IMAGENET = "imagenet-tensorflow.yaml"
KERAS = "keras-lstm-scaling.yaml"
PLAN_AIACC = ("plan", "aiacc", "-o", "out")

STACK_FILES = [
    Case(
        "non-utf8-byte",
        write(ONPREM, Path(__file__).parents[2].joinpath(ONPREM).read_bytes() + b"# caf\xe9\n"),
        (f"invalid YAML in {ONPREM}: line ", "found the byte 0xe9, which is not UTF-8"),
    ),
    Case("empty-stack-file", write(ONPREM, ""), (ONPREM, "config: found no trainstack: settings")),
    Case(
        "date-where-a-number-goes",
        stack_text("onprem", "desiredSize: 2", "desiredSize: 2024-01-01"),
        (ONPREM, 'trainstack:nodePools[0].desiredSize: found "2024-01-01"; allowed: an integer'),
    ),
    Case(
        # A top-level value is decoded as JSON, the way the engine hands config to
        # programs: past 4,300 digits Python's reader refuses it (a ValueError: kept as text).
        "a-number-of-5000-digits-as-text",
        stack_text("onprem", "config:\n", 'config:\n  trainstack:bogus: "' + "9" * 5000 + '"\n'),
        (ONPREM, 'trainstack:bogus: found unknown key "bogus"'),
    ),
    Case(
        "binary-tag",
        stack_text("onprem", "gpuModel: V100", "gpuModel: !!binary VjEwMA=="),
        (ONPREM, 'config["trainstack:nodePools"][0].gpuModel (line', "found the tag !!binary"),
    ),
    Case(
        "set-tag",
        stack_text("onprem", "gpuModel: V100", "gpuModel: !!set {V100}"),
        (ONPREM, 'config["trainstack:nodePools"][0].gpuModel (line', "found the tag !!set"),
    ),
    Case(
        "missing-provider",
        stack("onprem", _drop("trainstack:cluster", "provider")),
        (ONPREM, "trainstack:cluster.provider: found nothing", "'alicloud', 'existing'"),
    ),
    Case(
        "missing-source-type",
        stack("onprem", _drop("trainstack:datasets", 0, "source", "type")),
        (ONPREM, "trainstack:datasets[0].source.type: found nothing", "'alicloud-nas', 'nfs'"),
    ),
    Case(
        "missing-component-kind",
        stack("aiacc", _set("trainstack:acceleration", "component", value={"name": "ack-aiacc"})),
        (AIACC, "trainstack:acceleration.component.kind: found nothing", "'ack-addon', 'helm'"),
        args=PLAN_AIACC,
    ),
    Case(
        "bool-is-not-a-number",
        stack("onprem", _set("trainstack:nodePools", 0, "gpusPerNode", value=True)),
        (ONPREM, "trainstack:nodePools[0].gpusPerNode: found true; allowed: an integer"),
    ),
    Case(
        "node-name-with-slash",
        stack("onprem", _set("trainstack:nodePools", 0, "nodes", 0, value="a/b")),
        (ONPREM, 'trainstack:nodePools[0].nodes[0]: found "a/b"', "a Kubernetes name"),
    ),
    Case(
        "node-name-climbing-out",
        stack("onprem", _set("trainstack:nodePools", 0, "nodes", 0, value="../..")),
        (ONPREM, 'trainstack:nodePools[0].nodes[0]: found "../.."', "a Kubernetes name"),
    ),
    Case(
        "claim-in-a-namespace-nothing-creates",
        stack("onprem", _set("trainstack:datasets", 0, "namespace", value="ghost")),
        (ONPREM, 'trainstack:datasets[0].namespace: found "ghost"', "nothing creates this one"),
    ),
    Case(
        "chart-name-with-a-space",
        stack("aiacc", _set("trainstack:queueing", "chart", "name", value="kue ue")),
        (AIACC, 'trainstack:queueing.chart.name: found "kue ue"', "a DNS label"),
        args=PLAN_AIACC,
    ),
    Case(
        "chart-name-as-a-path",
        stack("aiacc", _set("trainstack:queueing", "chart", "name", value="../x")),
        (AIACC, 'trainstack:queueing.chart.name: found "../x"', "a DNS label"),
        args=PLAN_AIACC,
    ),
    Case(
        "plain-http-chart-repo",
        stack("aiacc", _set("trainstack:queueing", "chart", "repo", value="http://x/c")),
        (AIACC, 'trainstack:queueing.chart.repo: found "http://x/c"', "https:// or oci://"),
        args=PLAN_AIACC,
    ),
    Case(
        "password-in-chart-repo-url",
        stack(
            "aiacc", _set("trainstack:queueing", "chart", "repo", value="https://me:Hunter2@x/c")
        ),
        (AIACC, "trainstack:queueing.chart.repo: found", "(not shown)"),
        args=PLAN_AIACC,
        secret="Hunter2",
    ),
    Case(
        "plain-text-secret-key",
        stack("aiacc", _set("alicloud:secretKey", value="LTAI-Very-Secret-1")),
        (
            AIACC,
            "alicloud:secretKey: found a plain-text value (not shown)",
            "pulumi config set --secret alicloud:secretKey",
        ),
        args=PLAN_AIACC,
        secret="LTAI-Very-Secret-1",
    ),
    Case(
        "plain-text-nested-token",
        stack("aiacc", _set("alicloud:assumeRole", value={"sessionToken": "Tok-Secret-2"})),
        (AIACC, "alicloud:assumeRole.sessionToken: found a plain-text value (not shown)"),
        args=PLAN_AIACC,
        secret="Tok-Secret-2",
    ),
    Case(
        "anonymous-team-member",
        stack("aiacc", _set("trainstack:teams", 0, "members", "users", value=["system:anonymous"])),
        (AIACC, "trainstack:teams[0].members.users[0]", "allowBroadSubjects"),
        args=PLAN_AIACC,
    ),
    Case(
        "every-authenticated-user",
        stack(
            "aiacc",
            _set("trainstack:teams", 1, "members", "groups", value=["system:authenticated"]),
        ),
        (AIACC, 'trainstack:teams[1].members.groups[0]: found "system:authenticated"'),
        args=PLAN_AIACC,
    ),
    Case(
        "every-service-account-of-a-namespace",
        stack(
            "aiacc",
            _set(
                "trainstack:teams",
                0,
                "members",
                "groups",
                value=["system:serviceaccounts:kube-system"],
            ),
        ),
        (AIACC, "trainstack:teams[0].members.groups[0]"),
        args=PLAN_AIACC,
    ),
    Case(
        "alias-bomb",
        write(ONPREM, _laughs(9)),
        (ONPREM, "aliases expanded", "at most 100000"),
        isolate=True,
    ),
    Case(
        "deep-nesting",
        write(ONPREM, "config: " + "[" * 200_000 + "]" * 200_000 + "\n"),
        (ONPREM, "nested more than 64 deep"),
        isolate=True,
    ),
    Case(
        "two-megabytes",
        write(ONPREM, "# " + "x" * (2 << 20) + "\n"),
        (ONPREM, "(file): found more than 1048576 bytes"),
    ),
    Case(
        "duplicate-key",
        stack_text(
            "onprem",
            "  trainstack:nodePools:",
            "  trainstack:nodePools: []\n  trainstack:nodePools:",
        ),
        (ONPREM, "the key 'trainstack:nodePools' a second time"),
    ),
    Case(
        "second-document",
        stack_text("onprem", "config:", "config: {}\n---\nconfig:"),
        (ONPREM, "a second YAML document"),
    ),
    Case(
        "infinity",
        stack_text("onprem", "desiredSize: 2", "desiredSize: .inf"),
        (ONPREM, "desiredSize (line", "found .inf"),
    ),
    Case(
        "duration-beyond-int64",
        stack("aiacc", _set("trainstack:queueing", "podsReadyTimeout", value="9999999999999h")),
        (AIACC, "trainstack:queueing.podsReadyTimeout", "an int64 of nanoseconds"),
        args=PLAN_AIACC,
    ),
    Case(
        "quantity-of-5000-digits",
        stack("aiacc", _set("trainstack:teams", 0, "quota", "cpu", value="9" * 5000)),
        (AIACC, "trainstack:teams[0].quota.cpu"),
        args=PLAN_AIACC,
    ),
    Case(
        "label-key-with-trailing-newline",
        stack("onprem", _set("trainstack:nodePools", 0, "labels", value={"pool\n": "x"})),
        (ONPREM, 'trainstack:nodePools[0].labels["pool\\n"]'),
    ),
    Case(
        "experiments-outside-the-project",
        stack("onprem", _set("trainstack:experiments", value={"directory": "../elsewhere"})),
        (ONPREM, 'trainstack:experiments.directory: found "../elsewhere"'),
    ),
]

EXPERIMENTS = [
    Case(
        "replicas-2-to-the-70",
        job(IMAGENET, "worker", "replicas", value=2**70),
        ("experiments/imagenet-tensorflow.yaml", "job.worker.replicas: found 1.18", "an integer"),
        args=PLAN_AIACC,
    ),
    Case(
        "replicas-over-the-limit",
        job(IMAGENET, "worker", "replicas", value=10_001),
        ("experiments/imagenet-tensorflow.yaml", "job.worker.replicas: found 10001", "<= 10000"),
        args=PLAN_AIACC,
    ),
    Case(
        "deadline-2-to-the-70",
        job(IMAGENET, "runPolicy", "activeDeadlineSeconds", value=2**70),
        ("experiments/imagenet-tensorflow.yaml", "job.runPolicy.activeDeadlineSeconds"),
        args=PLAN_AIACC,
    ),
    Case(
        "deadline-beyond-int64",
        job(IMAGENET, "runPolicy", "activeDeadlineSeconds", value=2**63),
        # Helm reads numbers as float64: 2^63 arrives as 9223372036854776000.
        ("job.runPolicy.activeDeadlineSeconds: found 9223372036854776000", "<= 92233720"),
        args=PLAN_AIACC,
    ),
    Case(
        "ttl-beyond-int32",
        job(IMAGENET, "runPolicy", "ttlSecondsAfterFinished", value=2**31),
        ("job.runPolicy.ttlSecondsAfterFinished: found 2147483648", "<= 2147483647"),
        args=PLAN_AIACC,
    ),
    Case(
        "quantity-of-5000-digits",
        job(IMAGENET, "worker", "resources", value={"limits": {"memory": "9" * 5000}}),
        ("job.worker.resources.limits.memory", "a quantity such as 8, 500m or 32Gi"),
        args=PLAN_AIACC,
    ),
    Case(
        "quantity-with-a-huge-exponent",
        job(IMAGENET, "worker", "resources", value={"limits": {"memory": "1e999999999"}}),
        ('job.worker.resources.limits.memory: found "1e999999999"', "at most 9223372036854775807"),
        args=PLAN_AIACC,
    ),
    Case(
        "quantity-with-trailing-newline",
        job(IMAGENET, "worker", "resources", value={"limits": {"memory": "32Gi\n"}}),
        ('job.worker.resources.limits.memory: found "32Gi\\n"',),
        args=PLAN_AIACC,
    ),
    Case(
        "env-name-with-trailing-newline",
        job(IMAGENET, "env", value={"NCCL_DEBUG\n": "INFO"}),
        ('job.env["NCCL_DEBUG\\n"]', "an environment variable name"),
        args=PLAN_AIACC,
    ),
    Case(
        "label-value-with-trailing-newline",
        job(IMAGENET, "labels", value={"team": "vision\n"}),
        ('job.labels.team: found "vision\\n"', "a label value"),
        args=PLAN_AIACC,
    ),
    Case(
        "gpus-true",
        job(IMAGENET, "worker", "gpus", value=True),
        ("job.worker.gpus: found true; allowed: an integer",),
        args=PLAN_AIACC,
    ),
    Case(
        "yes-means-true-to-helm",
        _replace(f"experiments/{IMAGENET}", "  workingDir: /data\n", "  labels: {gpu_node: yes}\n"),
        ("experiments/imagenet-tensorflow.yaml", "job.labels.gpu_node: found true"),
        args=PLAN_AIACC,
    ),
    Case(
        "binary-tag-in-a-job",
        _replace(f"experiments/{IMAGENET}", "workingDir: /data", "workingDir: !!binary L2RhdGE="),
        ("experiments/imagenet-tensorflow.yaml", "job.workingDir (line", "the tag !!binary"),
        args=PLAN_AIACC,
    ),
    Case(
        "name-with-trailing-newline",
        experiment(IMAGENET, _set("name", value="imagenet-tensorflow\n")),
        ("experiments/imagenet-tensorflow.yaml", 'name: found "imagenet-tensorflow\\n"'),
        args=PLAN_AIACC,
    ),
    Case(
        "matrix-of-ten-thousand-points",
        experiment(
            KERAS, _set("matrix", "points", value=[{"nodes": 1, "gpusPerNode": 1}] * 10_000)
        ),
        ("experiments/keras-lstm-scaling.yaml", "matrix.points", "at most 256 item(s)"),
        args=PLAN_AIACC,
    ),
    Case(
        "matrix-of-a-billion-points",
        experiment(KERAS, _billion_points),
        ("experiments/keras-lstm-scaling.yaml", 'matrix.product: found "1000000000 points'),
        args=PLAN_AIACC,
    ),
    Case(
        "name-template-indexing",
        experiment(KERAS, _set("matrix", "nameTemplate", value="{name}-{nodes[0]}")),
        ("matrix.nameTemplate", "{nodes[0]} is not a placeholder"),
        args=PLAN_AIACC,
    ),
    Case(
        "name-template-format",
        experiment(KERAS, _set("matrix", "nameTemplate", value="{name}-{nodes:d}")),
        ("matrix.nameTemplate", "{nodes} has a conversion or format"),
        args=PLAN_AIACC,
    ),
    Case(
        "too-many-experiment-files",
        _many_experiments,
        (
            "invalid experiment in experiments: (directory): found "
            f"{MAX_EXPERIMENT_FILES + 1} experiment files",
        ),
    ),
]

NAMES_AND_PLACES = [
    Case(
        "stack-named-dot-dot",
        write("stacks/Pulumi.....yaml", "config: {}\n"),
        ("stack name '..' is invalid", "a Pulumi stack name"),
        args=("plan", "..", "-o", "out/inner"),
    ),
    Case(
        "stack-named-dot",
        write("stacks/Pulumi...yaml", "config: {}\n"),
        ("stack name '.' is invalid",),
        args=("plan", ".", "-o", "out"),
    ),
    Case(
        "stack-name-climbing-out",
        nothing,
        ("stack name 'x/../../../victim' is invalid",),
        args=("plan", "x/../../../victim", "-o", "out"),
    ),
    Case(
        "output-dir-is-a-file",
        write("plan.txt", "notes"),
        ("--output-dir", "plan.txt is a file, not a directory"),
        args=("plan", "onprem", "-o", "plan.txt"),
    ),
    Case(
        "output-holds-a-foreign-directory",
        write("elsewhere/onprem/thesis.tex", "years of work"),
        ("elsewhere/onprem exists and was not written by `trainstack plan`",),
        args=("plan", "onprem", "-o", "elsewhere"),
    ),
    Case(
        "output-is-a-symlink-to-a-plan",
        both(write("elsewhere/.keep", ""), _symlink("out/onprem", "elsewhere/onprem")),
        ("elsewhere/onprem is a symbolic link",),
        args=("plan", "onprem", "-o", "elsewhere"),
    ),
    Case(
        "symlink-inside-the-previous-plan",
        _symlink("Pulumi.yaml", "out/onprem/resources/link.yaml"),
        ("out/onprem/resources/link.yaml is a symbolic link inside the plan directory",),
    ),
    Case(
        "digest-key-not-hex",
        nothing,
        ("environment variable TRAINSTACK_SECRET_DIGEST_KEY", "(not shown)"),
        env={"TRAINSTACK_SECRET_DIGEST_KEY": "not-a-hex-key-but-a-secret-3"},
        secret="not-a-hex-key-but-a-secret-3",
    ),
    Case(
        "digest-key-too-short",
        nothing,
        ("environment variable TRAINSTACK_SECRET_DIGEST_KEY", "32 to 128 hexadecimal digits"),
        env={"TRAINSTACK_SECRET_DIGEST_KEY": "abcd"},
    ),
]

# One problem, one line (each was several: the first claiming only a string is allowed;
# two at the wrong key, one saying it was missing), and a capacity Kubernetes refuses.
ONE_LINE_EACH = [
    Case(
        "a-list-command-of-non-strings",
        job("horovod-resnet50-onprem.yaml", "command", value=[1, 2, {"a": "b"}]),
        (
            "experiments/horovod-resnet50-onprem.yaml:",
            'job.command: found [1, 2, {"a": "b"}]; allowed: one of: a list whose every '
            "item is a string; a string",
        ),
    ),
    Case(
        "a-secure-value-on-a-pool-key",
        stack_text("onprem", "desiredSize: 2", "desiredSize:\n        secure: v1:AAAA"),
        (f"{ONPREM}:19:", "trainstack:nodePools[0].desiredSize: found a secret value (not shown)"),
    ),
    Case(
        "a-dataset-of-capacity-zero",
        stack("onprem", _set("trainstack:datasets", 0, "capacity", value="0")),
        (ONPREM, 'trainstack:datasets[0].capacity: found "0"; allowed: a quantity greater than'),
    ),
    Case(
        "a-dataset-of-capacity-zero-gibibytes",
        stack("onprem", _set("trainstack:datasets", 2, "capacity", value="0Gi")),
        (ONPREM, 'trainstack:datasets[2].capacity: found "0Gi"'),
    ),
]

PLAN_CASES = STACK_FILES + EXPERIMENTS + NAMES_AND_PLACES + ONE_LINE_EACH
