"""Where commands print and how they end: the terminal, tables, signals and the process's lifetime.

Imports only the kernel (:mod:`trainstack.core`).
"""
