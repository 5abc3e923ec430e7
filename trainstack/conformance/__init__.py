"""Offline conformance: would the API server accept every planned object unchanged?"""

from trainstack.conformance.crds import CrdSchemas
from trainstack.conformance.validate import SchemaFiles, Violation, object_violations, violations

__all__ = ["CrdSchemas", "SchemaFiles", "Violation", "object_violations", "violations"]
