"""Experiments as code: one file per experiment, expanded, overridden per stack, validated."""
