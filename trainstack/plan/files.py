"""The plan files' shapes, defined once: the writer encodes them and ``trainstack diff`` reads them.

Each JSON file of a plan directory is one of these types (msgspec structs: typed, and
encoded and decoded in C). The writer builds them from a :class:`~trainstack.plan.model.Plan`
and :func:`encode` writes them with sorted keys and two-space indents, byte for byte
what ``json.dumps(..., indent=2, sort_keys=True, ensure_ascii=False)`` writes for the
same data (except a float with an exponent, ``1e20`` instead of ``1e+20``), ten times
faster. :func:`decode` reads a file back into its type and turns every way a file can
be broken into one :class:`~trainstack.core.errors.DiffError` naming the file and the item.

Fields a plan of an earlier trainstack may not have (``options``, ``parent``, every
optional file) have defaults, so that ``trainstack diff --plans`` reads earlier plans
too; unknown fields are ignored for the same reason (a later trainstack may add some).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from trainstack.core.errors import DiffError
from trainstack.core.json_depth import ALLOWED_DEPTH, TOO_DEEP, too_deep
from trainstack.core.limits import MAX_PLAN_FILE_BYTES

STACK_TYPE = "pulumi:pulumi:Stack"
"""The type of the stack's own resource, the root of every other (the first item of
``resources.json``)."""

RESOURCES_JSON = "resources.json"
OBJECTS_JSON = "objects.json"
EXPERIMENTS_JSON = "experiments.json"
PROVIDER_CONFIG_JSON = "provider-config.json"
OUTPUTS_JSON = "outputs.json"
DATASETS_JSON = "datasets.json"
SECRET_DIGESTS_JSON = "secret-digests.json"
REVIEW_JSON = "review.json"
REVIEW_FORMAT = "trainstack-review/1"


class ResourceItem(msgspec.Struct, frozen=True):
    """One item of ``resources.json``: a resource the program registered (or read)."""

    urn: str
    type: str
    name: str
    parent: str = ""
    inputs: dict[str, Any] = {}
    options: dict[str, Any] = {}
    """protect, retainOnDelete, deleteBeforeReplace, dependsOn (URNs), provider (URN),
    replaceOnChanges, ignoreChanges; ``read: true`` for a read."""


class ObjectItem(msgspec.Struct, frozen=True, rename={"api_version": "apiVersion"}):
    """One item of ``objects.json``: an object Helm renders for a release of the chart."""

    release: str
    """URN of the Helm release resource."""
    kind: str
    name: str
    object: dict[str, Any]
    api_version: str = ""
    namespace: str = ""


class ExperimentItem(
    msgspec.Struct,
    frozen=True,
    rename={
        "base_values": "baseValues",
        "acceleration_overrides": "accelerationOverrides",
        "effective_resources": "effectiveResources",
    },
):
    """One item of ``experiments.json``: an experiment's release and its chart values."""

    name: str
    release: str
    """URN of its Helm release ("" when the program registered none)."""
    namespace: str = ""
    source: str = ""
    values: dict[str, Any] = {}
    base_values: dict[str, Any] = {}
    """The values without the stack's acceleration overrides (the fairness report)."""
    acceleration_overrides: dict[str, Any] = {}
    effective_resources: dict[str, Any] = {}
    """Per role, the requests and limits its pods get after the team's LimitRange (the
    fairness report compares them)."""


class Fact(msgspec.Struct, frozen=True):
    """What a dataset resolves to, one fact: its value and the key it comes from."""

    value: Any
    key: str


class DatasetItem(msgspec.Struct, frozen=True):
    """One item of ``datasets.json``: what a dataset resolves to, fact by fact."""

    name: str
    facts: dict[str, Fact] = {}


class SecretDigests(msgspec.Struct, frozen=True):
    """``secret-digests.json``: keyed digests of masked values, by where they are."""

    config: dict[str, str] = {}
    """By ``secure:`` config key."""
    resources: dict[str, dict[str, str]] = {}
    """By resource URN, then dotted location in its inputs."""
    objects: dict[str, dict[str, str]] = {}
    """By ``kind/namespace/name`` of a chart object, then dotted location."""


class WarningItem(msgspec.Struct, frozen=True):
    """A plan-time warning in ``review.json``: its id, where it is and what it says."""

    check: str
    """The warning's id (what an acknowledgement names)."""
    source: str
    experiment: str
    key: str
    message: str


class AcknowledgedItem(msgspec.Struct, frozen=True, rename={"acknowledged_in": "acknowledgedIn"}):
    """An acknowledged warning in ``review.json``, with why it is meant and where."""

    check: str
    source: str
    experiment: str
    key: str
    message: str
    reason: str
    acknowledged_in: str
    """The file and key of the acknowledgement."""


class NotSelectedItem(msgspec.Struct, frozen=True):
    """Experiments of one file that the stack does not select."""

    file: str
    experiments: list[str] = []


class ReviewFile(msgspec.Struct, frozen=True, rename={"stack_file": "stackFile"}):
    """``review.json``: what a reviewer reads beside the objects."""

    stack_file: str
    """The stack file the plan read (warnings about a team name it)."""
    format: str = REVIEW_FORMAT
    warnings: list[WarningItem] = []
    acknowledged: list[AcknowledgedItem] = []
    not_selected: list[NotSelectedItem] = msgspec.field(default_factory=list, name="notSelected")


Mapping = dict[str, Any]
"""``outputs.json`` and ``provider-config.json``: a JSON object."""

T = TypeVar("T")


def encode(value: Any) -> bytes:
    """Canonical JSON: keys sorted at every level, two-space indents, a final newline."""
    return msgspec.json.format(msgspec.json.encode(value, order="sorted"), indent=2) + b"\n"


def read(path: Path, kind: type[T], default: T) -> T:
    """The file at ``path`` as ``kind`` (``default`` when it does not exist)."""
    if not path.is_file():
        return default
    try:
        if path.stat().st_size > MAX_PLAN_FILE_BYTES:
            raise DiffError(
                f"{path}: larger than {MAX_PLAN_FILE_BYTES} bytes (trainstack's limit on a "
                "plan file); is this a plan directory of `trainstack plan`?"
            )
        data = path.read_bytes()
    except OSError as error:
        raise DiffError(f"{path}: unreadable ({error.strerror or error})") from None
    return decode(data, kind, path)


_AT = re.compile(r"^(?P<message>.*) - at `\$(?P<where>[^`]*)`$", re.DOTALL)
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_BYTE = re.compile(r"\(byte (\d+)\)")


def decode(data: bytes, kind: type[T], path: Path) -> T:
    """``data`` (the bytes of ``path``) as ``kind``, or one :class:`DiffError` saying why not."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DiffError(f"{path}: not UTF-8 (byte {error.start})") from None
    try:
        decoded = msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError as error:
        # The typed decoder stops at the first value of the wrong type, before it sees
        # that the rest is no JSON at all: a syntax error is the better message.
        _check_syntax(data, path)
        raise DiffError(f"{path}: {_validation(str(error))}") from None
    except msgspec.DecodeError as error:
        raise DiffError(f"{path}: not valid JSON ({_position(str(error), data)})") from None
    except RecursionError:
        raise DiffError(_TOO_DEEP.format(path=path)) from None
    if too_deep(decoded):
        raise DiffError(_TOO_DEEP.format(path=path))
    return decoded


_TOO_DEEP = "{path}: " + f"{TOO_DEEP}; allowed: {ALLOWED_DEPTH}"


def _check_syntax(data: bytes, path: Path) -> None:
    try:
        msgspec.json.decode(data)
    except msgspec.DecodeError as error:
        raise DiffError(f"{path}: not valid JSON ({_position(str(error), data)})") from None
    except RecursionError:
        raise DiffError(_TOO_DEEP.format(path=path)) from None


def _validation(message: str) -> str:
    """``item [0]: 'type' missing or not a string`` from msgspec's words."""
    match = _AT.match(message)
    text, where = (match["message"], match["where"]) if match else (message, "")
    item = re.match(r"^\[(\d+)\](.*)$", where)
    place = f"item [{item[1]}]{item[2]}" if item else (where.lstrip(".") or "(file)")
    missing = _MISSING.match(text)
    if missing:
        return f"{place}: '{missing['field']}' missing"
    return f"{place}: {text[0].lower()}{text[1:]}"


def _position(message: str, data: bytes) -> str:
    """msgspec's ``(byte N)`` as ``at line L, column C``."""
    found = _BYTE.search(message)
    if found is None:
        lines = data.count(b"\n") + 1
        return f"{message.rstrip('.')} at line {lines}"
    offset = int(found[1])
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return f"{_BYTE.sub('', message).strip()} at line {line}, column {column}"
