"""The cluster after ``pulumi up``: jobs, pods and logs, read with lightkube."""
