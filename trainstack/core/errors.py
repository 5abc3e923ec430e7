"""Every error a user can cause, in one module.

The CLI prints :meth:`TrainstackError.lines` (one ``error:`` line per problem) for any
:class:`TrainstackError` and exits with status 2; the Pulumi program turns it into a
``pulumi.RunError`` so that ``pulumi up`` stops with the same message and no traceback.
Errors only format: each carries the files it names, and the console passes the function
that finds a key's line in them (:func:`trainstack.core.yaml.positions.at`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Self

from trainstack.core.mentions import Files, Locate, located_mentions, unlocated, written_in


@dataclass(frozen=True)
class Problem:
    """One invalid value: where it is, what was found there and what is allowed."""

    path: str
    found: str
    allowed: str
    related: tuple[str, ...] = ()  # other keys it is about (the other half of a pair)

    def __str__(self) -> str:
        return f"{self.path}: found {self.found}; allowed: {self.allowed}"


class TrainstackError(Exception):
    """Base class of every error caused by user input or by the user's environment."""

    source_files: Files = MappingProxyType({})  # the files its messages name, where known

    def lines(self, locate: Locate = unlocated) -> list[str]:
        """What the CLI prints: one self-contained line per problem (each after ``error:``);
        ``locate`` names the line of a key in its file, for the errors whose problems have
        keys."""
        return str(self).splitlines() or [type(self).__name__]

    def reading(self, files: Files) -> Self:
        """This error, knowing more of the files its messages name: added by whoever read
        them (a stack's loader, a plan's preparation); its own come first."""
        self.source_files = {**files, **self.source_files}
        return self


class InvalidInputError(TrainstackError):
    """A file the user wrote holds invalid values; lists every problem at once."""

    kind = "input"

    def __init__(
        self, source: str | Path, problems: Sequence[Problem], files: Files | None = None
    ) -> None:
        self.source = str(source)
        self.problems = tuple(problems)
        own = {self.source: source} if isinstance(source, Path) else {}  # a path: that file
        self.source_files = {**own, **(files or {})}
        super().__init__(self._render())

    def lines(self, locate: Locate = unlocated) -> list[str]:
        """One line per problem, each naming the file and, where ``locate`` finds its keys
        in it, their lines (``file:LINE``; ``str()`` keeps them under one header)."""
        lines = []
        files = self.source_files
        for problem in self.problems:
            # A key written in another file (a stack's cluster template) comes as
            # ``FILE: KEY`` (``StackConfig.mention``): located in that file.
            at, path = written_in(self.source, problem.path)
            shown = Problem(path, problem.found, problem.allowed, problem.related)
            related = [f"{locate(self.source, k, files)} ({k})" for k in problem.related]
            where = " and ".join([locate(at, path, files), *related])
            text = located_mentions(str(shown), lambda f, k: locate(f, k, files))
            lines.append(f"invalid {self.kind} in {where}: {text}")
        return lines

    def _render(self) -> str:
        if len(self.problems) == 1:
            return f"invalid {self.kind} in {self.source}: {self.problems[0]}"
        lines = [f"invalid {self.kind} in {self.source}: {len(self.problems)} problems"]
        lines += [f"  - {problem}" for problem in self.problems]
        return "\n".join(lines)


class ConfigError(InvalidInputError):
    """The stack configuration (``stacks/Pulumi.<stack>.yaml``) is invalid."""

    kind = "stack configuration"


class ExperimentError(InvalidInputError):
    """An experiment file (``experiments/*.yaml``) or a stack's override of it is invalid."""

    kind = "experiment"


class YamlSyntaxError(InvalidInputError):
    """A YAML file could not be parsed, or uses what trainstack does not read (tags...)."""

    kind = "YAML"


class InputLimitError(InvalidInputError):
    """A file exceeds one of the documented limits (``trainstack.core.limits``)."""

    kind = "input"


class ValuesError(InvalidInputError):
    """A values file given to the training-job chart is invalid."""

    kind = "chart values"


class InvalidExperimentsError(TrainstackError):
    """Several files (experiments, their overrides, acknowledgements) are invalid: every
    file is reported."""

    def __init__(self, errors: Sequence[InvalidInputError]) -> None:
        self.errors = tuple(errors)
        super().__init__("\n".join(str(error) for error in self.errors))

    def lines(self, locate: Locate = unlocated) -> list[str]:
        """One line per problem of every file."""
        return [line for error in self.errors for line in error.lines(locate)]

    def reading(self, files: Files) -> Self:  # each file's error too
        for error in self.errors:
            error.reading(files)
        return super().reading(files)


def raise_all(errors: Sequence[InvalidInputError]) -> None:
    """Raise the one error, or all of them together; nothing when there is none."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise InvalidExperimentsError(errors)


class StackNotFoundError(TrainstackError):
    """The named stack has no configuration file."""

    def __init__(self, stack: str, path: str, known: Sequence[str]) -> None:
        import difflib

        choices = ", ".join(known) if known else "none"
        close = difflib.get_close_matches(stack, known, n=1)
        guess = f" (did you mean {close[0]!r}?)" if close else ""
        super().__init__(
            f"stack {stack!r} has no configuration file {path}{guess}; stacks in this "
            f"project: {choices}"
        )


class ProjectNotFoundError(TrainstackError):
    """No ``Pulumi.yaml`` in the working directory or any parent."""

    def __init__(self, start: Path) -> None:
        super().__init__(
            f"no Pulumi.yaml in {start} or any parent directory; "
            "run trainstack from inside the project"
        )


class PlanCheckError(TrainstackError):
    """Plan-time checks found experiments that cannot run as declared."""

    def __init__(self, failures: Sequence[str], located: Sequence[str] | None = None) -> None:
        self.failures = tuple(failures)
        self.located = tuple(located) if located is not None else self.failures
        """The same failures with the key's line in its file (``file:LINE``), to print."""
        lines = [f"{len(self.failures)} plan-time check(s) failed:"]
        lines += [f"  - {failure}" for failure in self.failures]
        super().__init__("\n".join(lines))

    def lines(self, locate: Locate = unlocated) -> list[str]:
        """One line per failed check (each names the file and line, the experiment and the key;
        located when the checks ran)."""
        return [f"plan-time check failed: {failure}" for failure in self.located]


class ChartError(TrainstackError):
    """The training-job chart could not be generated, rendered, linted or packaged."""


class ChartDriftError(TrainstackError):
    """Committed generated files (the chart, the docs' reference) differ from the generator's."""

    def __init__(self, where: Path, files: Sequence[str], command: str = "chart") -> None:
        self.files = tuple(files)
        listed = "\n".join(f"  - {name}" for name in self.files)
        super().__init__(
            f"{where} is out of date with the models it is generated from; these files "
            f"differ:\n{listed}\nrun `trainstack {command} generate` and commit the result"
        )


class PlanError(TrainstackError):
    """The program could not be planned (it failed under the mock engine)."""


class ManifestError(TrainstackError):
    """An operator's release manifest could not be downloaded, or is not the pinned one."""

    def __init__(self, source: str, key: str, reason: str) -> None:
        self.source, self.key = source, key
        super().__init__(f"operator manifest of {key} in {source}: {reason}")


class PlaceholderError(TrainstackError):
    """A stack still holds placeholders and cannot be deployed."""

    def __init__(self, source: str, found: Sequence[tuple[str, str]]) -> None:
        self.found = tuple(found)
        lines = [f"{source} still has {len(self.found)} placeholder(s); set before deploying:"]
        lines += [f"  - {key}: {value}" for key, value in self.found]
        super().__init__("\n".join(lines))


class DiffError(TrainstackError):
    """Two plans could not be compared (missing plan, bad git revision...)."""


class StackNameError(TrainstackError):
    """A stack name that Pulumi would refuse, or that cannot name a plan directory."""


class OutputError(TrainstackError):
    """A command cannot write where it was asked to (not a directory, read-only, full...)."""


class EnvironmentVariableError(TrainstackError):
    """An environment variable trainstack reads holds an invalid value."""

    def __init__(self, name: str, found: str, allowed: str) -> None:
        super().__init__(f"environment variable {name}: found {found}; allowed: {allowed}")


class DataStackError(TrainstackError):
    """A command that needs a cluster stack was given a data stack."""

    def __init__(self, stack: str, source: str) -> None:
        super().__init__(
            f"stack {stack} ({source}) is a data stack (trainstack:dataStore): it has no "
            "cluster and runs no experiments; name a cluster stack"
        )


class UnknownExperimentError(TrainstackError):
    """A command names an experiment (or matrix) the stack does not run."""

    def __init__(
        self, name: str, stack: str, source: str, known: Sequence[str], what: str = "experiment"
    ) -> None:
        choices = ", ".join(known) if known else "none"
        super().__init__(
            f"stack {stack} ({source}) runs no {what} {name!r}; "
            f"its {'matrices' if what == 'matrix' else what + 's'}: {choices}"
        )


class LogError(InvalidInputError):
    """A training log holds none of the metrics it should report."""

    kind = "training log"


class ResultsFileError(InvalidInputError):
    """A results file (``results/STACK/EXPERIMENT/run-*.json``) cannot be read."""

    kind = "results file"


class FactsFileError(InvalidInputError):
    """A facts file (``facts/STACK.json``, written by ``trainstack inspect``) cannot be read."""

    kind = "facts file"


class ResultsError(TrainstackError):
    """Results cannot be recorded or compared (no results yet, an unwritable file...)."""


class ClusterError(TrainstackError):
    """The cluster cannot be reached or refused a request (the message says which and why)."""


class TelemetryError(TrainstackError):
    """The Prometheus that holds the runs' GPU telemetry cannot be read, or answered what
    its HTTP API does not (the message says which)."""


class JobNotFoundError(TrainstackError):
    """The experiment's job (or the pod whose logs are asked for) is not on the cluster."""
