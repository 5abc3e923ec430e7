"""The operator catalog: what each supported operator release installs, serves and honours."""

from trainstack.operators.registry import (
    families,
    family,
    image_version,
    known_versions,
    latest,
    release,
    serving_families,
)
from trainstack.operators.spec import (
    AckAddonInstall,
    ChartInstall,
    Controller,
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
    "Controller",
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
    "image_version",
    "known_versions",
    "latest",
    "release",
    "serving_families",
]
