"""The cluster after ``pulumi up``: jobs, pods and logs, read with lightkube.

Each name is imported from the module that defines it (nothing is re-exported here: the
command line imports :mod:`trainstack.live.cli`, and lightkube loads with the commands
that read a cluster).
"""
