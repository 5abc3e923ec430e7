"""Tests of the training-job chart: generator, templates, rendering and conformance."""
