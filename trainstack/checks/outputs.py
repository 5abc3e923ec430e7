"""A job that writes its model where no volume is mounted loses it with its pods.

The rule is deliberately conservative, so that it never cries wolf: it reads only what
the experiment itself says (``job.command`` and ``job.args``; an image's own ENTRYPOINT
is not known offline) and only options that name an output directory by convention:

- an option in :data:`OUTPUT_OPTIONS`, spelt with one or two dashes, ``-`` or ``_``
  alike (``--model-dir``, ``--model_dir``, ``-train_dir``), its value after ``=`` or as
  the next word;
- whose value is an absolute path without shell expansion (``$``, backquotes): relative
  paths depend on the image's working directory, expansions on the run.

The path is backed when it is, or is under, the mount path of a claim the job mounts
writable (``job.datasets`` not ``readOnly``, ``job.results``) or of a writable
``job.hostPaths`` entry. Anything else (the container's own file system, /dev/shm)
disappears with the pod.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Sequence

from trainstack.checks.findings import Finding, warning
from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment
from trainstack.training_job import TrainingJob

OUTPUT_OPTIONS = frozenset(
    {
        "model_dir",
        "train_dir",
        "output_dir",
        "out_dir",
        "log_dir",
        "logdir",
        "logging_dir",
        "checkpoint_dir",
        "ckpt_dir",
        "save_dir",
        "saved_model_dir",
        "export_dir",
        "results_dir",
        "summary_dir",
        "job_dir",
    }
)
"""Option names (dashes as underscores) that name a directory the job writes to: the
conventions of TensorFlow (``model_dir``, ``train_dir``, ``logdir``), Keras and Kubeflow's
examples (``saved_model_dir``, ``checkpoint_dir``), Hugging Face (``output_dir``,
``logging_dir``) and Vertex/Cloud ML (``job_dir``)."""

_OPTION = re.compile(r"^--?([A-Za-z][A-Za-z0-9_-]*)(?:=(.*))?$", re.DOTALL)


def output_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """A warning per output directory of the command that no mounted volume backs."""
    return [found for experiment in experiments for found in _unbacked(experiment)]


def _unbacked(experiment: Experiment) -> list[Finding]:
    job = experiment.job
    mounts = _writable_mounts(job)
    findings = []
    for key, option, path in _outputs(job):
        if any(_under(path, mount) for mount, _ in mounts):
            continue
        mounted = ", ".join(f"{where} at {mount}" for mount, where in mounts)
        findings.append(
            warning(
                experiment.source,
                experiment.release_name,
                key,
                f"{option} {path}: the job writes there, but no volume is mounted at or above "
                f"it ({mounted or 'the job mounts no writable volume'}): what it writes is lost "
                "with the pods; mount a claim there (job.results {claimName, mountPath}, a "
                "dataset of the stack) or write under a mounted path",
                "unbackedWrite",
            )
        )
    return findings


def _outputs(job: TrainingJob) -> list[tuple[str, str, str]]:
    """(key, option, path) of every output directory the command and args name."""
    words: list[tuple[str, str]] = []
    if isinstance(job.command, str):
        words += [("job.command", word) for word in _split(job.command)]
    elif job.command is not None:
        words += [(f"job.command[{index}]", word) for index, word in enumerate(job.command)]
    words += [(f"job.args[{index}]", word) for index, word in enumerate(job.args)]
    found = []
    for index, (key, word) in enumerate(words):
        match = _OPTION.match(word)
        if match is None or match.group(1).replace("-", "_").lower() not in OUTPUT_OPTIONS:
            continue
        value = match.group(2)
        if value is None and index + 1 < len(words):
            value = words[index + 1][1]
        if value is not None and value.startswith("/") and not re.search(r"[$`]", value):
            # The option as written (one dash or two): the message quotes the command.
            found.append((key, word.split("=", 1)[0], posixpath.normpath(value)))
    return found


def _split(command: str) -> list[str]:
    """The words of a shell command (operators such as ``;`` and ``&&`` apart)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: the shell refuses it too; read what is there
        return command.split()


def _writable_mounts(job: TrainingJob) -> list[tuple[str, str]]:
    """(mount path, what is mounted there) of every writable volume of the job."""
    mounts = [
        (dataset.mount_path, f"job.datasets[{index}] {dataset.claim_name}")
        for index, dataset in enumerate(job.datasets)
        if not dataset.read_only
    ]
    if job.results.claim_name is not None:
        mounts.append((job.results.mount_path, f"job.results {job.results.claim_name}"))
    mounts += [
        (host.mount_path, f"job.hostPaths[{index}] {host.path}")
        for index, host in enumerate(job.host_paths)
        if not host.read_only
    ]
    return [(posixpath.normpath(path), where) for path, where in mounts]


def _under(path: str, mount: str) -> bool:
    return path == mount or path.startswith(mount.rstrip("/") + "/")
