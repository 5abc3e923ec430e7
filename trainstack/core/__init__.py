"""The kernel: errors, models, limits, names, values, YAML and file reading.

Imports nothing else of trainstack; everything else may import it.
"""
