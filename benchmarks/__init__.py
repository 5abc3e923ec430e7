"""Benchmarks: each module has a main() that prints its figures."""
