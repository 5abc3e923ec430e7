"""The framework registry: what each ``job.framework`` renders and which pods it starts."""

from trainstack.frameworks import mpi, pytorch, tensorflow  # noqa: F401  (they register)
from trainstack.frameworks.registry import by_crd, framework, frameworks
from trainstack.frameworks.spec import FrameworkSpec, Role, RolePods

__all__ = ["FrameworkSpec", "Role", "RolePods", "by_crd", "framework", "frameworks"]
