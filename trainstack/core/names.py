"""Names that end up in Kubernetes or Alibaba Cloud: their grammars, the constrained string
types built on them, and the one placeholder form of values a stack must still set.

The label and name grammars are shared by the stack configuration and the training-job
model (so a label means the same in a stack file and in an experiment).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, StringConstraints

from trainstack.core.base_model import constraint, pattern
from trainstack.core.limits import MAX_QUANTITY_CHARS
from trainstack.core.quantity import QUANTITY_PATTERN, quantity_problem

MANAGED_BY: Mapping[str, str] = MappingProxyType({"app.kubernetes.io/managed-by": "trainstack"})
"""The label of every object trainstack creates itself (the components' namespaces, quotas,
queues, volumes and populate jobs; the health run's jobs); Helm labels its releases'."""

# RFC 1123 subdomain: claim, secret, service-account and priority-class names.
DNS_SUBDOMAIN_PATTERN = pattern(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
    "a Kubernetes name: lowercase letters, digits, '-' and '.' (a DNS subdomain)",
)
# Label names and values: at most 63 characters, bounded in the pattern itself so that
# the JSON schema Helm checks says exactly what the model says.
LABEL_KEY_PATTERN = (
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"
)
LABEL_VALUE_PATTERN = r"^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$"
LABEL_PREFIX_MAX = 253  # a DNS subdomain
LABEL_KEY_WORDS = "a label key: [prefix/]name, a DNS prefix of at most 253 and a name of 63"


def is_label_key(key: str) -> bool:
    """A Kubernetes label (or annotation) key: ``[prefix/]name``, prefix at most 253."""
    prefix, _, _ = key.rpartition("/")
    return len(prefix) <= LABEL_PREFIX_MAX and re.fullmatch(LABEL_KEY_PATTERN, key) is not None


# RFC 1123 label: namespaces, release names, most object names (63: DNS label limit).
SHA256_DIGEST_PATTERN = r"^sha256:[0-9a-f]{64}$"
"""A digest as trainstack writes it: a job's base values, a run's environment, a dataset's
manifest (``sha256:`` and 64 lowercase hexadecimal digits)."""
Sha256Digest = Annotated[str, StringConstraints(pattern=SHA256_DIGEST_PATTERN)]

DNS_LABEL_PATTERN = pattern(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
    "a DNS label: lowercase letters, digits and '-', starting and ending with a letter or digit",
)
DnsLabel = Annotated[str, StringConstraints(pattern=DNS_LABEL_PATTERN, max_length=63)]

# Helm release names: at most 53 characters (Helm keeps 10 of the 63 for its suffixes).
RELEASE_NAME_MAX = 53

# Chart versions must be pinned exactly: a range would let a re-run install something else.
PINNED_VERSION_PATTERN = pattern(
    r"^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$",
    "an exact version such as 0.6.0 (no range, no `latest`)",
)
PinnedVersion = Annotated[str, StringConstraints(pattern=PINNED_VERSION_PATTERN)]

# Helm chart repositories: an HTTPS index or an OCI registry. Plain http:// is refused
# (anyone on the path could swap the chart), and so are credentials in the URL
# (`https://user:password@...`): they would sit in plain text in the stack file.
CHART_REPO_PATTERN = pattern(
    r"^(https|oci)://[^\s/@]+(/[^\s@]*)?$",
    "an https:// or oci:// URL, without credentials (`user:password@`)",
)


def _no_credentials_in_url(url: str) -> str:
    # Checked before the pattern, whose error would show the value (and the password).
    authority = url.partition("://")[2].partition("/")[0]
    if "@" in authority:
        raise constraint(
            "",
            "a URL with credentials (not shown)",
            "a URL without `user:password@`: give the registry's credentials to Helm "
            "(`helm registry login`, `helm repo add --username`), never in the stack file",
        )
    return url


ChartRepo = Annotated[
    str,
    BeforeValidator(lambda url: _no_credentials_in_url(url) if isinstance(url, str) else url),
    StringConstraints(pattern=CHART_REPO_PATTERN, max_length=2048),
]

# Helm chart names: lowercase letters, digits and dashes (Helm's best practices); never a
# path (`../x`) nor a space.
ChartName = Annotated[str, StringConstraints(pattern=DNS_LABEL_PATTERN, max_length=63)]

# Kubernetes node names are DNS subdomains (also IP-like names such as 10.0.0.5).
NodeName = Annotated[str, StringConstraints(pattern=DNS_SUBDOMAIN_PATTERN, max_length=253)]


def _quantity(text: str) -> str:
    problem = quantity_problem(text)
    if problem is not None:
        raise constraint("", text, problem)
    return text


# The stack configuration's quantities: the readable subset of Kubernetes' grammar,
# at most 2^63-1 like every Kubernetes quantity.
Quantity = Annotated[
    str,
    StringConstraints(pattern=QUANTITY_PATTERN, max_length=MAX_QUANTITY_CHARS),
    AfterValidator(_quantity),
]


# Label keys and values as the API server accepts them (the training-job model's patterns).
def _label_key(key: str) -> str:
    if not is_label_key(key):
        raise constraint("", key, "a label key: [prefix/]name, a DNS prefix of at most 253")
    return key


LabelKey = Annotated[
    str, StringConstraints(pattern=LABEL_KEY_PATTERN, max_length=317), AfterValidator(_label_key)
]
LabelValue = Annotated[str, StringConstraints(pattern=LABEL_VALUE_PATTERN)]

NonEmpty = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False)]


# Explicit placeholders: values a stack must set before it is deployed. Example stacks
# cannot know a user's cluster IDs, VPCs or pinned digests. Instead of plausible-looking
# inventions they hold placeholders in one recognisable form, `<what to put here>`: the
# offline plan works with them and lists each one under "set before deploying", and the
# program refuses to deploy while any is left.
PLACEHOLDER_PATTERN = r"<[^<>\n]{1,200}>"
"""The one placeholder form: text in angle brackets, e.g. ``<ACK cluster ID>`` (usable in
pydantic patterns, whose Rust regex `$` never matches before a trailing newline)."""

_PLACEHOLDER = re.compile(PLACEHOLDER_PATTERN)


def is_placeholder(value: Any) -> bool:
    """Whether ``value`` is a placeholder (the whole value, nothing around it)."""
    return isinstance(value, str) and _PLACEHOLDER.fullmatch(value) is not None


def placeholders(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """(dotted key, placeholder) of every placeholder inside ``value``, found at ``path``."""
    if is_placeholder(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from placeholders(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from placeholders(item, f"{path}[{index}]")


def _inside_project(path: str) -> str:
    if ".." in path.split("/"):
        raise constraint("", path, "a directory inside the project (no `..`)")
    return path


RelativeDirectory = Annotated[
    str,
    StringConstraints(pattern=r"^[^/\s][^\s]*$", max_length=1024),
    AfterValidator(_inside_project),
]
"""A directory of the project, relative to its root (no leading ``/``, no ``..``)."""
