"""The training-job model: the values of the chart, validated, with cross-field rules."""

from trainstack.training_job.loader import load_values, read_values_file, validate_values
from trainstack.training_job.model import SECTIONS, Framework, Image, TrainingJob
from trainstack.training_job.naming import release_name_problems
from trainstack.training_job.rules import Violation, total_pods, violations

__all__ = [
    "SECTIONS",
    "Framework",
    "Image",
    "TrainingJob",
    "Violation",
    "load_values",
    "read_values_file",
    "release_name_problems",
    "total_pods",
    "validate_values",
    "violations",
]
