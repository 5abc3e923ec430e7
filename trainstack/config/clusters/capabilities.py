"""What a cluster kind's cloud may offer besides Kubernetes, by name.

Apart from ``spec.py`` (which re-exports it) so that the storage models
(``trainstack.config.storage``), which the kinds' spec imports, can say what they need.
"""

from __future__ import annotations

from typing import Literal, get_args

Capability = Literal["node-api", "addons", "nas", "data-stacks", "kubeconfig-api"]
"""What a kind's cloud offers besides Kubernetes:

- ``node-api``: node pools are created through the cloud's API (the pool's ID is an output);
- ``addons``: the cloud installs cluster add-ons (operators and components of kind
  ``ack-addon``);
- ``nas``: the program may create NAS file systems in the cluster's network
  (``datasets[].source.create``);
- ``data-stacks``: datasets may mount a data stack's file systems (``stack-reference``);
- ``kubeconfig-api``: without ``trainstack:kubeconfig`` the program fetches the cluster's
  kubeconfig from the cloud's API.
"""
CAPABILITIES: tuple[Capability, ...] = get_args(Capability)
