"""The operator catalog: what each supported operator release installs, serves and honours.

Its public names; each is imported from its module on first use
(:mod:`trainstack.core.facades`): ``trainstack operators`` is a command of the command
line, whose other commands should not load the catalog at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.core.facades import lazy_names

if TYPE_CHECKING:
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

if not TYPE_CHECKING:
    __getattr__ = lazy_names(
        __name__,
        registry=[
            "families",
            "family",
            "image_version",
            "known_versions",
            "latest",
            "release",
            "serving_families",
        ],
        spec=[
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
        ],
    )
