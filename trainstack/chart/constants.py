"""Fixed facts about the training-job chart: its identity and which files are whose."""

from __future__ import annotations

CHART_NAME = "training-job"
# Bump CHART_VERSION with any change to the templates or the values. The chart deploys
# no application of its own (the image is a value), so appVersion follows the chart.
CHART_VERSION = "0.1.0"
APP_VERSION = CHART_VERSION
CHART_DESCRIPTION = (
    "One distributed GPU training run on Kubernetes: an MPIJob (kubeflow.org/v2beta1), "
    "a TFJob or a PyTorchJob (kubeflow.org/v1), or a Kubeflow Trainer TrainJob "
    "(trainer.kubeflow.org/v1alpha1), from values validated by trainstack."
)
CHART_KEYWORDS = (
    "training",
    "gpu",
    "mpi",
    "horovod",
    "tensorflow",
    "pytorch",
    "kubeflow",
    "trainer",
)

CHART_DIR = "charts/training-job"
"""The committed chart, relative to the project root."""

GENERATED_FILES = ("Chart.yaml", "README.md", "values.schema.json", "values.yaml")
"""Files the generator writes; everything else in the chart is written by hand."""

HAND_WRITTEN_PATTERNS = (
    ".helmignore",
    "templates/*",
    "tests/*_test.yaml",
    "ci/*-values.yaml",
)
"""Hand-written chart files (fnmatch patterns over paths relative to the chart)."""
