"""Reviewable changes: diffs between stacks or git revisions, and the fairness report.

The command is :mod:`trainstack.diff.cli`; each name is imported from the module that
defines it (nothing is re-exported here: the command line imports the command, and the
plan engine, Pulumi and the schema checker load only when a diff runs).
"""
