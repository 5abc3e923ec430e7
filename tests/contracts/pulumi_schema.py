"""Check registered resources against the providers' Pulumi package schemas, offline.

The directory named by ``TRAINSTACK_PULUMI_SCHEMA_DIR`` (the layout of
``../shared/reference/pulumi-schemas``; its SOURCES.json says where each file comes from)
holds, per provider package, a Pulumi package schema (``<package>.json``: ``resources``,
``types``, ``provider``, ``x-resourceTokens``) and, for bridged Terraform providers, the
Terraform provider's own validation rules (``<package>-tf-validations.json``), which the
bridged provider runs in ``Check`` -- at ``pulumi preview`` -- before any API call.

:meth:`ProviderSchemas.check` returns every :class:`Violation` of one planned resource:

- from the Pulumi schema: unknown inputs, required inputs, types (``$ref`` followed into
  ``types``), ``const`` and enums, deprecated inputs;
- from the Terraform rules (snake_case names mapped to Pulumi's camelCase; Pulumi
  flattens ``MaxItems: 1`` blocks into objects and pluralises list names):
  ConflictsWith, ExactlyOneOf, AtLeastOneOf, RequiredWith, enums (StringInSlice,
  IntInSlice), ranges and lengths, MaxItems/MinItems, removed fields, the known
  ``ValidateFunc`` forms, and sensitive values given in plain text.

Values the plan masks (``[secret]``, ``[computed]``) are present with an unknown value:
they count for required/conflict rules and are not type- or range-checked.

Types the schemas cannot describe are violations too (``undescribed type``), except the
program's own components (package ``trainstack``) and the stack itself. Custom resources
(``kubernetes:<group>/<version>:<Kind>`` of a group the Kubernetes SDK does not know) are
checked against the contract of the SDK's ``apiextensions.CustomResource``
(``pulumi_kubernetes/apiextensions/CustomResource.py``: ``apiVersion`` and ``kind``
required and fixed by the type token, ``metadata`` an ObjectMeta, ``spec`` anything); their
``spec`` is checked against the operator's CRD by the conformance tests.

A schema keyword or ``ValidateFunc`` this checker does not understand raises
:class:`SchemaError` (or is reported) rather than being skipped, so a check cannot pass
by not looking.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from trainstack.plan.masking import COMPUTED, SECRET
from trainstack.plan.model import PlannedResource

SCHEMA_DIR_ENV = "TRAINSTACK_PULUMI_SCHEMA_DIR"
SKIP_REASON = (
    f"{SCHEMA_DIR_ENV} is not set: point it at ../shared/reference/pulumi-schemas to check "
    "the registered resources against the providers' Pulumi schemas"
)
MASKED = (SECRET, COMPUTED)
OWN_PACKAGES = ("trainstack",)
STACK_TYPE = "pulumi:pulumi:Stack"
STACK_REFERENCE = "pulumi:pulumi:StackReference"
ANY = "pulumi.json#/Any"
_ASSETS = ("pulumi.json#/Asset", "pulumi.json#/Archive")
# Keywords of a Pulumi property schema that say nothing about which values are valid.
_DOCUMENTATION = {
    "description",
    "deprecationMessage",
    "default",
    "defaultInfo",
    "language",
    "secret",
    "willReplaceOnChanges",
    "replaceOnChanges",
    "plain",
    "isOverlay",
}
_VALIDATING = {"type", "$ref", "items", "additionalProperties", "properties", "required"}
_VALIDATING |= {"const", "enum", "oneOf"}
_TYPE_CHECKS = {
    "string": lambda value: isinstance(value, str),
    "integer": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "number": lambda value: isinstance(value, int | float) and not isinstance(value, bool),
    "boolean": lambda value: isinstance(value, bool),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
}
_FUNCTION = re.compile(r"^(\w+)\((.*)\)$")


class SchemaError(Exception):
    """A schema this checker cannot read: fix the checker, never skip the check."""


@dataclass(frozen=True, order=True)
class Violation:
    """One input the provider would refuse (or warn about), and the rule it breaks."""

    resource: str
    """``<type token> <resource name>``."""
    path: str
    """Dotted input path, e.g. ``scalingConfig.maxSize`` or ``taints[0].key``."""
    rule: str
    """The schema rule, e.g. ``unknown input``, ``required``, ``type``, ``conflictsWith``."""
    detail: str

    def __str__(self) -> str:
        return f"{self.resource}: {self.path or '(inputs)'}: {self.rule}: {self.detail}"


def schema_dir() -> Path:
    """The schema directory from the environment; skips the calling test when unset."""
    value = os.environ.get(SCHEMA_DIR_ENV)
    if not value:
        pytest.skip(SKIP_REASON)
    directory = Path(value)
    if not directory.is_dir():
        raise SchemaError(f"{SCHEMA_DIR_ENV}={value} is not a directory")
    return directory


def snake_to_camel(name: str) -> str:
    """Terraform's ``vswitch_ids`` as Pulumi names it: ``vswitchIds``."""
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def is_component(type_token: str) -> bool:
    """The program's own components and the stack: no provider describes them."""
    return type_token == STACK_TYPE or type_token.split(":", 1)[0] in OWN_PACKAGES


@dataclass(frozen=True)
class _Contract:
    """What one resource type accepts: its inputs, required ones, the package and TF rules."""

    package: dict[str, Any]
    properties: dict[str, Any]
    required: tuple[str, ...]
    tf_fields: dict[str, Any] | None


class ProviderSchemas:
    """The Pulumi package schemas (and Terraform rules) of one schema directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.packages: dict[str, dict[str, Any]] = {}
        self.tf_rules: dict[str, dict[str, Any]] = {}
        for path in sorted(directory.glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            if path.name.endswith("-tf-validations.json"):
                self.tf_rules.update(document["resources"])
            elif isinstance(document, dict) and "resources" in document:
                self.packages[str(document["name"])] = document
        if not self.packages:
            raise SchemaError(f"no Pulumi package schema (*.json with `resources`) in {directory}")

    @staticmethod
    @functools.lru_cache(maxsize=4)
    def load(directory: Path) -> ProviderSchemas:
        """The schemas of ``directory``, read once per process."""
        return ProviderSchemas(directory)

    # --- which contract a type token has ------------------------------------------------

    def contract(self, type_token: str) -> _Contract | str:
        """The contract of ``type_token``, or why there is none."""
        if type_token == STACK_REFERENCE:
            # Pulumi's own resource (pulumi/stack_reference.py): one input, the stack's name.
            return _Contract({"types": {}}, {"name": {"type": "string"}}, ("name",), None)
        parts = type_token.split(":")
        if len(parts) != 3:
            return f"{type_token!r} is not a type token (package:module:Name)"
        if parts[0] == "pulumi" and parts[1] == "providers":
            package = self.packages.get(parts[2])
            if package is None:
                return f"no schema for package {parts[2]!r} in {self.directory}"
            return self._contract(package, package["provider"], None)
        package = self.packages.get(parts[0])
        if package is None:
            return f"no schema for package {parts[0]!r} in {self.directory}"
        resource = package["resources"].get(type_token)
        if resource is not None:
            return self._contract(package, resource, self.tf_rules.get(type_token))
        if parts[0] == "kubernetes" and self._is_custom_resource(package, parts[1]):
            return self._custom_resource(package, api_version=parts[1], kind=parts[2])
        derived = _sdk_component_contract(package, type_token)
        if derived is not None:
            return derived
        version = package.get("version", "?")
        known = "a type of the SDK" if type_token in package["x-resourceTokens"] else "unknown"
        return (
            f"{type_token} ({known}) is not described by {package['name']}.json "
            f"({package['name']} {version}): add its section to the schema directory"
        )

    @staticmethod
    def _contract(
        package: dict[str, Any], section: dict[str, Any], tf: dict[str, Any] | None
    ) -> _Contract:
        return _Contract(
            package=package,
            properties=section.get("inputProperties", {}),
            required=tuple(section.get("requiredInputs", [])),
            tf_fields=None if tf is None else tf["fields"],
        )

    def is_custom_resource(self, type_token: str) -> bool:
        """A Kubernetes type of an API group the SDK does not know (``kueue.x-k8s.io``)."""
        package, _, rest = type_token.partition(":")
        if package not in self.packages or package != "kubernetes":
            return False
        return self._is_custom_resource(self.packages[package], rest.partition(":")[0])

    @staticmethod
    def _is_custom_resource(package: dict[str, Any], api_version: str) -> bool:
        group, _, version = api_version.rpartition("/")
        if not group or not version or "." not in group:
            return False
        return not any(
            token.split(":")[1].startswith(f"{group}/") for token in package["x-resourceTokens"]
        )

    @staticmethod
    def _custom_resource(package: dict[str, Any], api_version: str, kind: str) -> _Contract:
        properties = {
            "apiVersion": {"type": "string", "const": api_version},
            "kind": {"type": "string", "const": kind},
            "metadata": {"$ref": "#/types/kubernetes:meta/v1:ObjectMeta"},
            "spec": {"$ref": ANY},
        }
        return _Contract(package, properties, ("apiVersion", "kind"), None)

    # --- checking -----------------------------------------------------------------------

    def check_all(self, resources: Iterable[PlannedResource]) -> list[Violation]:
        """Every violation of every resource, sorted."""
        return sorted(v for resource in resources for v in self.check(resource))

    def check(self, resource: PlannedResource) -> list[Violation]:
        """Every violation of one resource's inputs (none for the program's components)."""
        if is_component(resource.type):
            return []
        where = f"{resource.type} {resource.name}"
        contract = self.contract(resource.type)
        if isinstance(contract, str):
            return [Violation(where, "", "undescribed type", contract)]
        checker = _Checker(where, contract.package)
        checker.check_object(resource.inputs, contract.properties, contract.required, "", "input")
        if contract.tf_fields is not None:
            _TerraformRules(checker, contract.tf_fields, resource.inputs).check()
        return sorted(set(checker.violations))

    def unmapped_terraform_fields(self) -> dict[str, list[str]]:
        """Settable Terraform fields with no Pulumi input, by resource (should be none)."""
        unmapped: dict[str, list[str]] = {}
        for token, rules in sorted(self.tf_rules.items()):
            contract = self.contract(token)
            if isinstance(contract, str):
                unmapped[token] = [contract]
                continue
            checker = _Checker(token, contract.package)
            missing = _TerraformRules(checker, rules["fields"], {}).unmapped(
                rules["fields"], contract.properties, ""
            )
            if missing:
                unmapped[token] = missing
        return unmapped


def _present(value: Any) -> bool:
    return value is not None


class _Checker:
    """Walks one resource's inputs against Pulumi property schemas, collecting violations."""

    def __init__(self, where: str, package: dict[str, Any]) -> None:
        self.where = where
        self.package = package
        self.violations: list[Violation] = []

    def report(self, path: str, rule: str, detail: str) -> None:
        self.violations.append(Violation(self.where, path, rule, detail))

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """``schema`` with a local ``$ref`` replaced by its type; None for ``Any``."""
        ref = schema.get("$ref")
        if ref is None:
            return schema
        if ref == ANY or ref in _ASSETS:
            return None
        prefix = "#/types/"
        if not str(ref).startswith(prefix):
            raise SchemaError(f"{self.where}: cannot follow $ref {ref!r} (only local types)")
        resolved = self.package["types"].get(str(ref)[len(prefix) :])
        if resolved is None:
            raise SchemaError(f"{self.where}: $ref {ref!r} names no type of the package")
        return dict(resolved)

    def check_object(
        self,
        value: Mapping[str, Any],
        properties: Mapping[str, Any],
        required: Iterable[str],
        path: str,
        noun: str,
    ) -> None:
        for name in required:
            if not _present(value.get(name)):
                self.report(_join(path, name), "required", f"required {noun} is missing")
        for name, item in value.items():
            here = _join(path, name)
            if name not in properties:
                self.report(here, f"unknown {noun}", _unknown(noun, name, properties))
                continue
            schema = properties[name]
            if _present(item) and schema.get("deprecationMessage"):
                self.report(here, "deprecated", str(schema["deprecationMessage"]))
            self.check_value(item, schema, here)

    def check_value(self, value: Any, schema: Mapping[str, Any], path: str) -> None:
        """Check one value (masked and null values are unknown: nothing to check)."""
        if value is None or (isinstance(value, str) and value in MASKED):
            return
        unknown = set(schema) - _DOCUMENTATION - _VALIDATING
        if unknown:
            raise SchemaError(f"{self.where}: {path}: schema keywords not understood: {unknown}")
        if "oneOf" in schema:
            self._one_of(value, schema["oneOf"], path)
            return
        resolved = self.resolve(schema)
        if resolved is None:
            return
        if resolved is not schema:
            self.check_value(value, resolved, path)
            return
        if "const" in schema and value != schema["const"]:
            self.report(path, "const", f"must be {schema['const']!r}, found {value!r}")
            return
        if "enum" in schema:
            allowed = [
                entry["value"] if isinstance(entry, dict) else entry for entry in schema["enum"]
            ]
            if value not in allowed:
                self.report(path, "enum", f"{value!r} is not one of {allowed}")
                return
        kind = schema.get("type")
        if kind is None:
            if {"items", "properties", "additionalProperties"} & set(schema):
                raise SchemaError(f"{self.where}: {path}: a schema with structure but no type")
            return
        if kind not in _TYPE_CHECKS:
            raise SchemaError(f"{self.where}: {path}: unknown type {kind!r}")
        if not _TYPE_CHECKS[kind](value):
            self.report(path, "type", f"expected {kind}, found {type(value).__name__} {value!r}")
            return
        if kind == "array" and "items" in schema:
            for index, item in enumerate(value):
                self.check_value(item, schema["items"], f"{path}[{index}]")
        elif kind == "object":
            self._object(value, schema, path)

    def _object(self, value: dict[str, Any], schema: Mapping[str, Any], path: str) -> None:
        if "properties" in schema:
            self.check_object(
                value, schema["properties"], schema.get("required", []), path, "property"
            )
        elif "additionalProperties" in schema:
            for key, item in value.items():
                self.check_value(item, schema["additionalProperties"], _join(path, key))

    def _one_of(self, value: Any, options: list[Mapping[str, Any]], path: str) -> None:
        for option in options:
            trial = _Checker(self.where, self.package)
            trial.check_value(value, option, path)
            if not trial.violations:
                return
        self.report(path, "oneOf", f"{value!r} matches none of {len(options)} alternatives")


class _TerraformRules:
    """The Terraform provider's own rules, applied to Pulumi-named inputs."""

    def __init__(self, checker: _Checker, fields: dict[str, Any], inputs: dict[str, Any]) -> None:
        self.checker = checker
        self.root_fields = fields
        self.inputs = inputs
        self._groups_seen: set[tuple[str, frozenset[str]]] = set()

    def check(self) -> None:
        self._block(self.root_fields, self.inputs, "", nested=False)

    # Names: Terraform snake_case -> the Pulumi input that exists (pluralised for lists).
    def _name(self, tf_name: str, value: Mapping[str, Any]) -> str:
        camel = snake_to_camel(tf_name)
        if camel in value:
            return camel
        plurals = [f"{camel}s", f"{camel}es"]
        if camel.endswith("y"):
            plurals.append(f"{camel[:-1]}ies")
        return next((plural for plural in plurals if plural in value), camel)

    def _block(
        self, fields: dict[str, Any], value: Mapping[str, Any], path: str, nested: bool
    ) -> None:
        for tf_name, field in sorted(fields.items()):
            name = self._name(tf_name, value)
            here = _join(path, name)
            item = value.get(name)
            for rule in ("exactlyOneOf", "atLeastOneOf"):
                if rule in field:
                    self._group(rule, field[rule], here)
            if not _present(item):
                if nested and field.get("required"):
                    # Top-level required fields are Pulumi's requiredInputs (the bridge
                    # fills auto-named ones such as `name`), checked already.
                    self.checker.report(here, "required", "required by the Terraform provider")
                continue
            self._field(field, item, here)

    def _field(self, field: dict[str, Any], item: Any, here: str) -> None:
        report = self.checker.report
        if field.get("removed"):
            report(here, "removed", str(field["removed"]))
        for other in field.get("conflictsWith", []):
            if self._present_at(other):
                report(here, "conflictsWith", f"cannot be set together with {self._pulumi(other)}")
        for other in field.get("requiredWith", []):
            if not self._present_at(other):
                report(here, "requiredWith", f"needs {self._pulumi(other)} set too")
        if field.get("sensitive") and item != SECRET:
            report(here, "sensitive", "given in plain text: pass it as a Pulumi secret")
        if isinstance(item, str) and item in MASKED:
            return
        self._value(field, item, here)

    def _value(self, field: dict[str, Any], item: Any, here: str) -> None:
        kind = field.get("type")
        elem = field.get("elem") or {}
        if kind in ("list", "set"):
            if "fields" in elem and field.get("maxItems") == 1:
                # Pulumi flattens a block of at most one element into an object.
                if isinstance(item, dict):
                    self._block(elem["fields"], item, here, nested=True)
                return
            if not isinstance(item, list):
                return
            self._size(field, len(item), here, "items")
            for index, element in enumerate(item):
                where = f"{here}[{index}]"
                if "fields" in elem and isinstance(element, dict):
                    self._block(elem["fields"], element, where, nested=True)
                elif "fields" not in elem and not (isinstance(element, str) and element in MASKED):
                    self._scalar(elem, element, where)
            return
        if kind == "map":
            if isinstance(item, dict):
                for key, element in item.items():
                    self._scalar(elem, element, _join(here, key))
            return
        self._scalar(field, item, here)

    def _scalar(self, rule: dict[str, Any], item: Any, here: str) -> None:
        report = self.checker.report
        if "enum" in rule:
            allowed = rule["enum"]
            if rule.get("ignoreCase") and isinstance(item, str):
                ok = item.casefold() in [a.casefold() for a in allowed if isinstance(a, str)]
            else:
                ok = item in allowed
            if not ok:
                report(here, "enum", f"{item!r} is not one of {allowed}")
        if isinstance(item, int | float) and not isinstance(item, bool):
            if "minimum" in rule and item < rule["minimum"]:
                report(here, "minimum", f"{item} is below {rule['minimum']}")
            if "maximum" in rule and item > rule["maximum"]:
                report(here, "maximum", f"{item} is above {rule['maximum']}")
        if isinstance(item, str):
            self._size(rule, len(item), here, "characters", lengths=True)
        if "validateFunc" in rule:
            self._function(str(rule["validateFunc"]), item, here)

    def _size(
        self, rule: dict[str, Any], size: int, here: str, unit: str, lengths: bool = False
    ) -> None:
        low, high = ("minLength", "maxLength") if lengths else ("minItems", "maxItems")
        if low in rule and size < rule[low]:
            self.checker.report(here, low, f"{size} {unit}, at least {rule[low]} allowed")
        if high in rule and size > rule[high]:
            self.checker.report(here, high, f"{size} {unit}, at most {rule[high]} allowed")

    def _function(self, function: str, item: Any, here: str) -> None:
        """The ValidateFunc forms of the rules file; any other one is reported, not skipped."""
        match = _FUNCTION.match(function)
        name, args = (match.group(1), match.group(2)) if match else (function, "")
        bounds = [float(arg) for arg in args.split(",") if arg.strip()]
        ok: bool
        if name == "FloatAtLeast" and len(bounds) == 1:
            ok = isinstance(item, int | float) and item >= bounds[0]
        elif name == "FloatBetween" and len(bounds) == 2:
            ok = isinstance(item, int | float) and bounds[0] <= item <= bounds[1]
        elif name == "ValidateNullableBool":
            ok = item in ("", "true", "false")
        elif name == "ValidateNullableIntBetween" and len(bounds) == 2:
            ok = item == "" or (
                isinstance(item, str)
                and re.fullmatch(r"-?\d+", item) is not None
                and bounds[0] <= int(item) <= bounds[1]
            )
        else:
            self.checker.report(here, "validateFunc", f"{function} is not known to the checker")
            return
        if not ok:
            self.checker.report(here, "validateFunc", f"{item!r} fails {function}")

    # Group rules and cross-field references resolve Terraform paths from the root.
    def _group(self, rule: str, members: list[str], here: str) -> None:
        key = (rule, frozenset(members))
        if key in self._groups_seen:
            return
        self._groups_seen.add(key)
        present = [self._pulumi(member) for member in members if self._present_at(member)]
        names = ", ".join(self._pulumi(member) for member in members)
        if rule == "exactlyOneOf" and len(present) != 1:
            self.checker.report(here, rule, f"exactly one of {names} must be set, found {present}")
        if rule == "atLeastOneOf" and not present:
            self.checker.report(here, rule, f"at least one of {names} must be set")

    def _walk(self, tf_path: str) -> tuple[Any, str]:
        """(value or None, Pulumi path) of a Terraform path like ``scaling_config.0.max_size``."""
        fields: dict[str, Any] = self.root_fields
        value: Any = self.inputs
        path = ""
        for segment in tf_path.split("."):
            if segment.isdigit():
                if isinstance(value, list):
                    value = value[int(segment)] if int(segment) < len(value) else None
                    path = f"{path}[{segment}]"
                continue
            name = self._name(segment, value if isinstance(value, dict) else {})
            path = _join(path, name)
            field = fields.get(segment, {})
            fields = (field.get("elem") or {}).get("fields", {})
            value = value.get(name) if isinstance(value, dict) else None
        return value, path

    def _present_at(self, tf_path: str) -> bool:
        return _present(self._walk(tf_path)[0])

    def _pulumi(self, tf_path: str) -> str:
        return self._walk(tf_path)[1]

    def unmapped(
        self, fields: dict[str, Any], properties: Mapping[str, Any], path: str
    ) -> list[str]:
        """Settable Terraform fields that map to no Pulumi property (checks the mapping)."""
        missing: list[str] = []
        for tf_name, field in sorted(fields.items()):
            settable = field.get("optional") or field.get("required")
            if not settable or field.get("removed"):
                continue
            name = self._name(tf_name, properties)
            if name not in properties:
                missing.append(_join(path, tf_name))
                continue
            nested = (field.get("elem") or {}).get("fields")
            if nested:
                schema = properties[name]
                target = schema.get("items", schema)
                resolved = self.checker.resolve(target)
                sub = (resolved or {}).get("properties", {})
                missing += self.unmapped(nested, sub, _join(path, tf_name))
        return missing


def _unknown(noun: str, name: str, properties: Mapping[str, Any]) -> str:
    """What to say about an unknown name: the close ones, or all when there are few."""
    close = difflib.get_close_matches(name, list(properties), n=3)
    if close:
        return f"not an {noun} of this type; did you mean {' or '.join(close)}?"
    if len(properties) <= 12:
        return f"not an {noun} of this type ({', '.join(sorted(properties)) or 'none'})"
    return f"not an {noun} of this type (it has {len(properties)}; see the package schema)"


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


# Types the reference directory has no section for (multi-language components of the
# Kubernetes SDK; the ACK managed cluster, listed only under alicloud.json's
# x-resourceTokens, see its SOURCES.json), with the installed SDK's Args class that declares
# their inputs. Nested input types (``Sequence['ManagedKubernetesAddonArgs']``) are read
# from the module holding the SDK's input classes.
_SDK_COMPONENT_ARGS = {
    "kubernetes:yaml/v2:ConfigGroup": ("pulumi_kubernetes.yaml.v2", "ConfigGroupArgs"),
    "kubernetes:kustomize/v2:Directory": ("pulumi_kubernetes.kustomize.v2", "DirectoryArgs"),
    # a dataset's populate Job; its object is checked against Kubernetes' own schema too
    # (tests/components/test_populate_job.py)
    "kubernetes:batch/v1:Job": ("pulumi_kubernetes.batch.v1", "JobArgs"),
    # the populate Job's inputs (its layout and HTTP file list), mounted by the Job
    "kubernetes:core/v1:ConfigMap": ("pulumi_kubernetes.core.v1", "ConfigMapArgs"),
    "alicloud:cs/managedKubernetes:ManagedKubernetes": (
        "pulumi_alicloud.cs.managed_kubernetes",
        "ManagedKubernetesArgs",
    ),
}
_SDK_INPUT_TYPES = {"pulumi_alicloud.cs.managed_kubernetes": "pulumi_alicloud.cs._inputs"}
_SDK_TYPES = {"str": "string", "bool": "boolean", "int": "integer", "float": "number"}


def _sdk_component_contract(package: dict[str, Any], type_token: str) -> _Contract | None:
    """The contract of a type the reference lacks, derived from the installed SDK.

    The same method as the reference's own sections (its SOURCES.json): the Args class's
    ``@pulumi.getter`` names, types from their annotations, required = ``__init__``
    keywords without a default. Only for tokens the SDK really registers.
    """
    if type_token not in _SDK_COMPONENT_ARGS or type_token not in package["x-resourceTokens"]:
        return None
    module_name, class_name = _SDK_COMPONENT_ARGS[type_token]
    args_class = getattr(_sdk_module(module_name), class_name)
    inputs = _sdk_module(_SDK_INPUT_TYPES.get(module_name, module_name))
    properties, required = _sdk_properties(args_class, inputs)
    return _Contract(package, properties, required, None)


def _sdk_module(dotted: str) -> Any:
    """A module of an SDK, reached from its package the way the program reaches it
    (``pulumi_alicloud.cs``): importing a submodule of pulumi_alicloud on its own first
    leaves its package half-initialised."""
    import importlib

    root, *parts = dotted.split(".")
    module = importlib.import_module(root)
    for index, part in enumerate(parts):
        name = ".".join([root, *parts[: index + 1]])
        module = getattr(module, part, None) or importlib.import_module(name)
    return module


def _sdk_properties(args_class: Any, inputs: Any) -> tuple[dict[str, Any], tuple[str, ...]]:
    """(properties, required) of one SDK Args class."""
    import inspect

    properties: dict[str, Any] = {}
    for member in vars(args_class).values():
        getter = getattr(member, "fget", None)
        wire = getattr(getter, "_pulumi_name", None)
        if getter is None or wire is None:
            continue
        properties[wire] = _sdk_type(inspect.getsource(getter), inputs)
    required = tuple(
        snake_to_camel(name)
        for name, parameter in inspect.signature(args_class.__init__).parameters.items()
        if name != "__self__" and parameter.default is inspect.Parameter.empty
    )
    return properties, required


def _sdk_type(source: str, inputs: Any = None) -> dict[str, Any]:
    """The JSON type of a getter, from its annotation as written (``-> pulumi.Input[...]``)."""
    annotation = source.partition("->")[2].partition(":\n")[0]
    if "Sequence" in annotation:
        inner = annotation.rpartition("[")[2].strip("]").strip("'")
        item = _SDK_TYPES.get(inner.removeprefix("_builtins."))
        if item:
            return {"type": "array", "items": {"type": item}}
        nested = getattr(inputs, inner, None) if inner.endswith("Args") else None
        if nested is not None:
            properties, required = _sdk_properties(nested, inputs)
            shape = {"type": "object", "properties": properties, "required": list(required)}
            return {"type": "array", "items": shape}
        return {"type": "array", "items": {"$ref": ANY}}
    if "Mapping[str," in annotation:  # ``Mapping[str, pulumi.Input[_builtins.str]]``
        inner = annotation.partition("Mapping[str,")[2]
        value = next((t for p, t in _SDK_TYPES.items() if f"_builtins.{p}" in inner), None)
        return {"type": "object", "additionalProperties": {"type": value} if value else True}
    for python, json_type in _SDK_TYPES.items():
        if f"_builtins.{python}" in annotation:
            return {"type": json_type}
    return {"$ref": ANY}
