"""Kinds of cluster a stack deploys to (``trainstack:cluster``): one module per kind,
listed in ``registry.py``; ``spec.py`` says what a kind declares."""
