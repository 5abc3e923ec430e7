"""Fixed facts about the training-job chart: its identity (described from the framework
registry) and which files are whose."""

from __future__ import annotations

from itertools import groupby

from trainstack.training_job.frameworks import FRAMEWORKS

CHART_NAME = "training-job"
# Bump CHART_VERSION with any change to the templates or the values. The chart deploys
# no application of its own (the image is a value), so appVersion follows the chart.
CHART_VERSION = "0.1.0"
APP_VERSION = CHART_VERSION


def _objects() -> str:
    """The objects the chart renders, one API version each: ``an MPIJob (...), a TFJob or a
    PyTorchJob (kubeflow.org/v1), or ...``, in the registry's order."""
    groups = [
        " or ".join(f"{spec.docs.article} {spec.docs.known_as}{spec.kind}" for spec in specs)
        + f" ({api_version})"
        for api_version, specs in groupby(FRAMEWORKS, key=lambda spec: spec.api_version)
    ]
    return groups[0] if len(groups) == 1 else f"{', '.join(groups[:-1])}, or {groups[-1]}"


CHART_DESCRIPTION = (
    f"One distributed GPU training run on Kubernetes: {_objects()}, from values validated by "
    "trainstack."
)
CHART_KEYWORDS = tuple(
    dict.fromkeys(
        ("training", "gpu", *(word for spec in FRAMEWORKS for word in spec.docs.keywords))
    )
)
"""Chart.yaml's keywords: the chart's own, then each framework's (each once)."""


FRAMEWORKS_TEMPLATE = "templates/_frameworks.tpl"
"""The generated template: each framework's ``training-job.<framework>.info``."""

CONSTANTS_TEMPLATE = "templates/_constants.tpl"
"""The generated template of the constants the templates share with Python
(``training-job.preflight.resolveSeconds``)."""

GENERATED_FILES = (
    "Chart.yaml",
    "README.md",
    "values.schema.json",
    "values.yaml",
    FRAMEWORKS_TEMPLATE,
    CONSTANTS_TEMPLATE,
)
"""Files the generator writes; everything else in the chart is written by hand."""

HAND_WRITTEN_PATTERNS = (
    ".helmignore",
    "files/*",
    "templates/*",
    "tests/*_test.yaml",
    "ci/*-values.yaml",
)
"""Hand-written chart files (fnmatch patterns over paths relative to the chart), the
generated ones excepted."""
