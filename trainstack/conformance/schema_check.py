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
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema
import jsonschema_rs


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
