"""How a served API spells a job: the dialects the chart renders (the value ``operatorApi``).

The operator catalog says which dialect each served API speaks (``ServedApi.dialect``), a
framework which dialects its object can be rendered in (``FrameworkSpec.dialects``), and
the job which one it is rendered in (``TrainingJob.operator_api``); all three use
:data:`Dialect`.
"""

from __future__ import annotations

from typing import Literal

Dialect = Literal["kubeflow", "arena"]
"""How a served API spells a job (the chart value ``operatorApi``):

- ``kubeflow``: upstream mpi-operator v2beta1 and training-operator v1: run policy under
  ``spec.runPolicy`` (with ``suspend``), current pod templates.
- ``arena``: the tf- and pytorch-operators bundled by Arena: run-policy fields directly
  under ``spec``, no ``suspend``, pod templates without ``seccompProfile``.
"""

ARENA_LACKS: tuple[tuple[str, str], ...] = (
    (
        "security.seccompProfile",
        "null with operatorApi arena (its CRDs have no seccompProfile: the API server would "
        "drop it)",
    ),
    (
        "scheduling.gang.enabled",
        "false with operatorApi arena (its CRDs have no runPolicy.schedulingPolicy)",
    ),
    ("pytorch.nprocPerNode", "null with operatorApi arena (its PyTorchJob has no nprocPerNode)"),
    (
        "pytorch.elasticPolicy",
        "null with operatorApi arena (its PyTorchJob has no elasticPolicy)",
    ),
    (
        "pytorch.master.replicas",
        "1 with operatorApi arena (its pytorch-operator refuses a PyTorchJob without Master)",
    ),
)
"""What the arena dialect cannot say, as (setting key, allowed) in the order the rules
report them: the older APIs of Arena's operators would drop the field (their CRDs lack
it), or their controller refuses it. The keys are exactly the operator-dependent settings
(``settings.SETTINGS``) that no API of the catalog speaking arena honours, in any release
(a test holds them equal); the chart's ``training-job.validate.operatorApi`` says the same."""
