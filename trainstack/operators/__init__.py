"""The operator catalog: what each supported operator release installs, serves and honours."""

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
    Pull,
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
    "Pull",
    "ServedApi",
    "families",
    "family",
    "known_versions",
    "latest",
    "release",
    "serving_families",
]
