"""The training-job Helm chart: generated from the experiment model, rendered with Helm."""
