"""Tests of the training-job model, its rules and its loader."""
