"""Reviewable changes: diffs between stacks or git revisions, and the fairness report."""
