"""Job values given on the command line: ``--set KEY=VALUE`` and ``--set-string KEY=VALUE``.

``KEY`` is a dotted key of the experiment's ``job`` (``worker.gpus``; ``job.worker.gpus``
too, as messages spell it; a ``.`` inside a key is written ``\\.``). ``VALUE`` is read as
the experiment file reads the same value, by Helm's reader (``8`` is a number, ``"8"``
text, ``[a, b]`` a list, ``{a: 1}`` a mapping, empty or ``null`` deletes the chart's
default); with ``--set-string`` it is text, exactly as typed. A value holding a line break
is text too (YAML would fold it into one line). Nothing of either is ever run: a value
is data handed to the model, and the model decides.

The overrides of one command are one mapping, merged over the job like the stack's own
``trainstack:experiments.overrides`` (mappings merge, everything else is replaced; a later
``--set`` of the same key wins). They are validated by the job's model against the
experiment as the stack gives it before anything else is done, so a misspelt key is the
error a file with it gives, naming the option instead of the file; the same mapping is
recorded on the job (:data:`~trainstack.experiments.runs.OVERRIDES_ANNOTATION`) and in
each results file, so that results of different overrides are never taken for each other.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from trainstack.console.safe_text import printable
from trainstack.core.errors import ExperimentError, Problem, YamlSyntaxError
from trainstack.core.json_depth import raw_too_deep
from trainstack.core.validation import problems_from
from trainstack.core.values import merged
from trainstack.core.yaml.io import parse_helm_yaml

if TYPE_CHECKING:
    # Only annotations: ``results compare`` reads recorded overrides through this module
    # (recorded_json, overrides_words) and should not load the stack and job models.
    from trainstack.config.stack import StackConfig
    from trainstack.experiments.resolve import Candidate

SET = "--set"
SET_STRING = "--set-string"
MAX_OVERRIDES = 64
"""``--set`` and ``--set-string`` options of one command."""
MAX_KEY_CHARS = 256
"""Characters of one ``KEY`` (the longest job key is far shorter)."""
MAX_RECORDED_BYTES = 16 << 10
"""The overrides as recorded on the job (an annotation: Kubernetes caps all of a job's
annotations at 256 KiB together) and in each results file: 16 KiB of JSON."""
COMMAND_LINE = "the command line"
_FORM = (
    "KEY=VALUE: KEY a dotted key of the experiment's job (e.g. worker.gpus, env.NCCL_DEBUG; "
    "'\\.' for a dot inside a key), VALUE as the experiment file writes it"
)


@dataclass(frozen=True)
class Override:
    """One ``--set`` (or ``--set-string``) as typed, and what it sets."""

    option: str
    typed: str
    """``KEY=VALUE`` as typed (shown escaped in messages)."""
    path: tuple[str, ...]
    value: Any

    def shown(self) -> str:
        """``--set worker.gpus=8``, control characters escaped, cut when long."""
        return f"{self.option} {printable(self.typed, 120)}"


def parse_overrides(sets: Sequence[str], strings: Sequence[str] = ()) -> tuple[Override, ...]:
    """Every ``--set`` then every ``--set-string``, parsed (in the order typed within each)."""
    typed = [(SET, item) for item in sets] + [(SET_STRING, item) for item in strings]
    if len(typed) > MAX_OVERRIDES:
        problem = Problem(
            SET, f"{len(typed)} values", f"at most {MAX_OVERRIDES} (write an experiment file)"
        )
        raise ExperimentError(COMMAND_LINE, [problem])
    parsed = [_parse(option, item) for option, item in typed]
    recorded = recorded_json(overrides_mapping(parsed))
    if len(recorded.encode()) > MAX_RECORDED_BYTES:
        problem = Problem(
            SET,
            f"{len(recorded.encode())} bytes of values in all",
            f"at most {MAX_RECORDED_BYTES} (they are recorded on the job as an annotation); "
            "write an experiment file instead",
        )
        raise ExperimentError(COMMAND_LINE, [problem])
    return tuple(parsed)


def _parse(option: str, item: str) -> Override:
    key, equals, text = item.partition("=")
    path = _path(key) if equals else None
    if path is None:
        found = f"{describe(item)} (no '=')" if not equals else f"the key {describe(key)}"
        raise ExperimentError(COMMAND_LINE, [Problem(option, found, _FORM)])
    if option == SET_STRING or "\n" in text or "\r" in text:
        return Override(option, item, path, text)
    return Override(option, item, path, _value(option, item, text, path))


def describe(text: str) -> str:
    """A typed text for a message: quoted, control characters escaped, cut when long."""
    return f"'{printable(text, 80)}'"


def _path(key: str) -> tuple[str, ...] | None:
    """The keys of ``a.b\\.c`` (``("a", "b.c")``); ``None`` when not a key path."""
    if not key or len(key) > MAX_KEY_CHARS or not key.isprintable():
        return None
    parts: list[str] = []
    current = ""
    escaped = False
    for character in key:
        if escaped:
            current += character
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == ".":
            parts.append(current)
            current = ""
        else:
            current += character
    parts.append(current)
    if escaped or not all(parts):
        return None
    return tuple(parts[1:] if parts[0] == "job" and len(parts) > 1 else parts)


def _value(option: str, item: str, text: str, path: tuple[str, ...]) -> Any:
    """``text`` read as the value of a key of the experiment file (Helm's reader, its
    bounds); a single line, so that nothing typed can add a key of its own."""
    try:
        document = parse_helm_yaml(f"value: {text}", f"{option} {describe(item)}")
    except YamlSyntaxError as error:
        found = error.problems[0].found if error.problems else "invalid YAML"
        problem = Problem(
            f"job.{'.'.join(path)}",
            f"{describe(text)}: {found}",
            f"a value as the experiment file writes it (quote text holding ': ' or ' #'), "
            f"or {SET_STRING} for text as typed",
        )
        raise ExperimentError(f"{option} {describe(item)}", [problem]) from None
    if set(document) != {"value"}:
        problem = Problem(f"job.{'.'.join(path)}", describe(text), "one value")
        raise ExperimentError(f"{option} {describe(item)}", [problem])
    return document["value"]


def overrides_mapping(overrides: Sequence[Override]) -> dict[str, Any]:
    """The overrides as one mapping of job values, each merged over the ones before."""
    result: dict[str, Any] = {}
    for override in overrides:
        nested: Any = override.value
        for key in reversed(override.path):
            nested = {key: nested}
        result = merged(result, nested)
    return result


def recorded_json(mapping: Mapping[str, Any]) -> str:
    """The overrides as recorded on the job: compact JSON, keys sorted (same values, same
    text)."""
    return json.dumps(mapping, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def overrides_words(mapping: Mapping[str, Any] | None) -> str:
    """The overrides as the options that give them: ``--set worker.gpus=2`` (each value
    as JSON, which the experiment file's YAML reads alike); ``none`` without any."""
    if mapping is None:
        return "unknown"
    flat = list(_flat(mapping, ()))
    if not flat:
        return "none"
    return " ".join(
        f"{SET} {'.'.join(_escaped(key) for key in path)}={json.dumps(value)}"
        for path, value in flat
    )


def _escaped(key: str) -> str:
    """A key as ``--set`` writes it: a dot inside it escaped."""
    return key.replace(".", "\\.")


def _flat(
    mapping: Mapping[str, Any], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], Any]]:
    for key, value in sorted(mapping.items()):
        if isinstance(value, Mapping) and value:
            yield from _flat(value, (*path, str(key)))
        else:
            yield (*path, str(key)), value


def read_recorded(text: str) -> dict[str, Any] | None:
    """The overrides a job records (:func:`recorded_json`); ``None`` when the text is not
    what trainstack writes there (the job then counts as run without overrides known)."""
    data = text.encode("utf-8", errors="replace")
    if len(data) > MAX_RECORDED_BYTES or raw_too_deep(data):
        return None
    try:
        document = json.loads(data)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


def check_overrides(
    candidates: Sequence[Candidate], config: StackConfig, overrides: Sequence[Override]
) -> None:
    """Validate ``overrides`` over each candidate's job as the stack overrides it: a wrong
    key, type or value is the model's error, naming the option (a job the file or stack
    already breaks is left to the plan-time resolution, which names them)."""
    from trainstack.training_job import TrainingJob

    if not overrides:
        return
    mapping = overrides_mapping(overrides)
    stack = config.experiments.overrides
    for candidate in candidates:
        job = candidate.job
        for key in dict.fromkeys([candidate.source.spec.name, candidate.name]):
            job = merged(job, stack.get(key, {}))
        if not _valid(job):
            continue
        try:
            TrainingJob.model_validate(merged(job, mapping))
        except ValidationError as failure:
            problems = problems_from(failure, TrainingJob, "job.")
            shown = " ".join(override.shown() for override in overrides)
            raise ExperimentError(printable(shown, 240), problems) from failure


def _valid(job: Mapping[str, Any]) -> bool:
    from trainstack.training_job import TrainingJob

    try:
        TrainingJob.model_validate(job)
    except ValidationError:
        return False
    return True


def with_overrides(
    config: StackConfig, names: Sequence[str], mapping: Mapping[str, Any]
) -> StackConfig:
    """``config`` selecting the experiments (matrix points) ``names``, each with ``mapping``
    merged over the stack's own overrides of it (applied last, so it wins)."""
    settings = config.experiments
    select = settings.select
    missing = [name for name in names if not settings.selects((name,))]
    if select is not None and missing:
        select = [*select, *missing]
    overrides = dict(settings.overrides)
    if mapping:
        for name in names:
            overrides[name] = merged(overrides.get(name, {}), mapping)
    experiments = settings.model_copy(update={"select": select, "overrides": overrides})
    return config.model_copy(update={"experiments": experiments})
