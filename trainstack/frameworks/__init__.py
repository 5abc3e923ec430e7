"""The framework registry: what each ``job.framework`` renders and which pods it starts."""

from trainstack.frameworks import mpi, pytorch, tensorflow, trainjob  # noqa: F401  (they register)
from trainstack.frameworks.registry import by_crd, framework, frameworks
from trainstack.frameworks.spec import FrameworkSpec, JobWarning, Port, Role, RolePods, Violation

__all__ = [
    "FrameworkSpec",
    "JobWarning",
    "Port",
    "Role",
    "RolePods",
    "Violation",
    "by_crd",
    "framework",
    "frameworks",
]
