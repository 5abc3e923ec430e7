"""The frameworks of the job model: what each ``job.framework`` renders and which pods it starts.

One package per framework (``mpi/``, ``tensorflow/``...) holds everything about it, as
Kueue keeps ``jobs/kubeflow/jobs/<kind>/``: its section of the values (``mpi:``,
``tensorflow:``...: the chart ignores the sections of the frameworks not selected), its
roles beyond ``worker``, its rules and warnings, and, in its ``__init__.py``, its
:class:`FrameworkSpec` (``SPEC``), with its run defaults and Arena settings.
"""

from trainstack.training_job.frameworks.registry import FRAMEWORKS, by_crd, framework, frameworks
from trainstack.training_job.frameworks.spec import (
    FrameworkSpec,
    JobWarning,
    Port,
    Role,
    RolePods,
    Violation,
)

__all__ = [
    "FRAMEWORKS",
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
