"""One schema, two validators: a compiled one says whether an object is valid, jsonschema
says why not.

jsonschema walks a pod spec through Kubernetes' definitions in about half a
millisecond, and a plan of 200 experiments checks some 600 objects and pod templates
(a third of a second). jsonschema-rs, the same JSON Schema drafts compiled in Rust,
answers "valid?" in microseconds. An object it accepts has no violation to report; an
object it rejects (or that it cannot judge) goes through jsonschema, whose errors are
the ones reported, as before: a plan's messages do not depend on the fast path.

Both get the same schema, the same referenced documents and no format assertions
(jsonschema, without a format checker, treats ``format`` as an annotation).

Offline means offline: a schema's ``$ref`` is resolved only inside the schema set (a
``#/...`` pointer into the schema itself, or a document registered by its ``$id``). Any
other reference (``http://``, ``file://``, a relative file name) is refused before a
validator is built (:func:`local_refs_only`, naming the file, the key and the reference),
and jsonschema's registry retrieves nothing (:data:`OFFLINE`): it would otherwise fetch
a URL or read a local file.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema
import jsonschema_rs
from referencing import Registry
from referencing.exceptions import NoSuchResource

from trainstack.console.safe_text import printable
from trainstack.core.errors import TrainstackError


def _retrieve_nothing(uri: str) -> Any:
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]


OFFLINE: Registry[Any] = Registry(retrieve=_retrieve_nothing)  # type: ignore[call-arg]
"""A registry that retrieves no reference: what is not registered in it does not resolve."""


def local_refs_only(
    schema: Any,
    source: str,
    error: type[TrainstackError],
    known: Collection[str] = (),
) -> None:
    """Raise ``error`` naming the first ``$ref`` of ``schema`` that points outside it (or
    outside the documents ``known`` by ``$id``)."""
    pending: list[tuple[Any, str]] = [(schema, "")]
    while pending:
        node, where = pending.pop()
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and not _inside(reference, known):
                raise error(
                    f"{source}: `$ref` {printable(repr(reference), 120)} at "
                    f"{printable(where or '/', 120)}/$ref: refused (an offline plan resolves "
                    "a schema's references only inside its schema set: no URL, no other file)"
                )
            pending.extend((value, f"{where}/{key}") for key, value in node.items())
        elif isinstance(node, list):
            pending.extend((value, f"{where}/{index}") for index, value in enumerate(node))


def _inside(reference: str, known: Collection[str]) -> bool:
    document = reference.partition("#")[0]
    return document == "" or document in known


@dataclass(frozen=True)
class SchemaCheck:
    """jsonschema's validator of a schema, and jsonschema-rs's of the same schema."""

    validator: jsonschema.protocols.Validator
    fast: Any | None
    """A ``jsonschema_rs`` validator; ``None`` when it could not compile the schema."""

    @classmethod
    def of(
        cls,
        validator: jsonschema.protocols.Validator,
        draft: Any,
        documents: Mapping[str, Any] | None = None,
    ) -> SchemaCheck:
        """The check of ``validator``'s schema; ``draft`` is jsonschema-rs's validator
        class of its draft, ``documents`` the ones its ``$ref``s name, by ``$id``."""
        try:
            registry = jsonschema_rs.Registry(list((documents or {}).items()))
            fast = draft(validator.schema, validate_formats=False, registry=registry, offline=True)
        except Exception:  # a schema it cannot compile: jsonschema alone judges
            fast = None
        return cls(validator, fast)

    def errors(self, instance: Any) -> Iterator[jsonschema.ValidationError]:
        """jsonschema's errors for ``instance`` (none, at once, when the compiled
        validator accepts it)."""
        if self.fast is not None:
            try:
                if self.fast.is_valid(instance):
                    return iter(())
            except Exception:  # a value it cannot take: jsonschema judges
                pass
        return self.validator.iter_errors(instance)
