"""The training-job Helm chart: generated from the experiment model, rendered with Helm.

Each name is imported from the module that defines it (nothing is re-exported here: the
command line imports :mod:`trainstack.chart.cli`, and Helm loads when a chart renders).
"""
