"""ExistingNodes: the nodes of a pool on an existing cluster, labelled (and tainted).

What the program owns on those nodes, by server-side apply (field manager ``pulumi``):

- **Labels**: ``metadata.labels`` is a map, so server-side apply owns each key
  separately: the pool's label keys are the program's, every other label (the
  kubelet's, another tool's) is left alone.
- **Taints**: ``spec.taints`` is an atomic list (``x-kubernetes-list-type: atomic`` in
  the Kubernetes OpenAPI schema of ``io.k8s.api.core.v1.NodeSpec``): one field manager
  owns the whole list, and applying it replaces every entry. ``taintPolicy`` decides:
  ``apply`` (default) applies the pool's taints without force, so a list another
  manager set (``kubectl taint``, a cloud controller) makes ``pulumi up`` fail with a
  conflict instead of being replaced; ``force`` adds the ``pulumi.com/patchForce``
  annotation and takes the list over, removing other managers' taints (the plan warns);
  ``none`` leaves taints alone. Pulumi's Patch resources fail on conflicts unless that
  annotation is set (pulumi-kubernetes, "Patch" resources and server-side apply).
"""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from trainstack.config.node_pool import NodePool

PATCH_FORCE = "pulumi.com/patchForce"


@dataclass(frozen=True)
class ExistingNodesArgs:
    """The pool, the cluster's provider, and whether it takes over the former GPU pool's
    URNs (stacks made before several pools: one GpuNodePool "gpu", patches "gpu-<node>")."""

    pool: NodePool
    kubernetes: k8s.Provider
    former_gpu_pool: bool = False


class ExistingNodes(pulumi.ComponentResource):
    """A ``NodePatch`` per node of ``pool.nodes``: the pool's labels and, per taintPolicy,
    its taints. With no nodes listed nothing on the cluster changes: the pool only
    describes capacity for plan-time checks and placement."""

    node_names: pulumi.Output[list[str]]

    def __init__(
        self, name: str, args: ExistingNodesArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        former = args.former_gpu_pool
        aliases = [pulumi.Alias(name="gpu", type_="trainstack:infra:GpuNodePool")] if former else []
        super().__init__(
            "trainstack:infra:ExistingNodes",
            name,
            None,
            pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(aliases=aliases)),
        )
        pool = args.pool
        in_cluster = pulumi.ResourceOptions(parent=self, provider=args.kubernetes)
        annotations = {PATCH_FORCE: "true"} if pool.taint_policy == "force" else None
        spec = None
        if pool.taint_policy != "none":
            spec = k8s.core.v1.NodeSpecPatchArgs(
                taints=[
                    k8s.core.v1.TaintPatchArgs(
                        key=taint.key, value=taint.value, effect=taint.effect
                    )
                    for taint in pool.taints
                ]
            )
        for node in pool.nodes:
            k8s.core.v1.NodePatch(
                f"{name}-{node}",
                metadata=k8s.meta.v1.ObjectMetaPatchArgs(
                    name=node, labels=dict(sorted(pool.labels.items())), annotations=annotations
                ),
                spec=spec,
                opts=pulumi.ResourceOptions.merge(
                    in_cluster,
                    pulumi.ResourceOptions(
                        aliases=[pulumi.Alias(name=f"gpu-{node}")] if former else []
                    ),
                ),
            )
        self.node_names = pulumi.Output.from_input(list(pool.nodes))
        self.register_outputs({"node_names": self.node_names})
