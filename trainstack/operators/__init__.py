"""The operator catalog: what each supported operator release installs, serves and honours."""

from trainstack.operators import (  # noqa: F401  (they register)
    ack_arena,
    kueue,
    mpi_operator,
    trainer,
    training_operator,
)
from trainstack.operators.registry import (
    families,
    family,
    known_versions,
    latest,
    release,
    serving_families,
)
from trainstack.operators.spec import (
    AckAddonInstall,
    ChartInstall,
    Install,
    KustomizeInstall,
    ManifestInstall,
    OperatorFamily,
    OperatorRelease,
    PodLabels,
    ServedApi,
)

__all__ = [
    "AckAddonInstall",
    "ChartInstall",
    "Install",
    "KustomizeInstall",
    "ManifestInstall",
    "OperatorFamily",
    "OperatorRelease",
    "PodLabels",
    "ServedApi",
    "families",
    "family",
    "known_versions",
    "latest",
    "release",
    "serving_families",
]
