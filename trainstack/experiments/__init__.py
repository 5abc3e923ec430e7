"""Experiments as code: one file per experiment, expanded, overridden per stack, validated.

Each name is imported from the module that defines it (nothing is re-exported here: the
command line's completion imports one module of this package and should not load them all).
"""
