"""Metrics of training runs: recognised log formats, declared patterns, job durations."""

from trainstack.metrics.extract import Extracted, extract, job_duration, log_lines
from trainstack.metrics.formats import FORMATS, LogFormat
from trainstack.metrics.measurement import Intervals, Measurement, Scope
from trainstack.metrics.spec import MetricSpec

__all__ = [
    "FORMATS",
    "Extracted",
    "Intervals",
    "LogFormat",
    "Measurement",
    "MetricSpec",
    "Scope",
    "extract",
    "job_duration",
    "log_lines",
]
