"""Changes ``pulumi up`` accepts and never applies: inputs read at creation only.

Some inputs of a cloud resource are read by the cloud when it creates the resource, and
never after (each kind of cluster declares them: ``create_only_inputs`` in
``config/clusters/``, from its provider's update function). A later change of one is
accepted, ``pulumi up`` reports success, and the running resource never gets it: a
reviewer who sees an ordinary change in the diff would believe it deployed.

``trainstack diff`` names every such change of a resource that exists on the before side:
its inputs (before -> after) and what to do instead, in a section of its own after the
data at risk. It is no data loss and has no exit status of its own (a change: 1). Not
flagged: a resource that is new (it is created with the inputs) and one that the same
change replaces (the new resource is created with them: the replacement is data at risk,
:mod:`trainstack.diff.data_loss`).
"""

from __future__ import annotations

from trainstack.config.clusters.registry import create_only_inputs
from trainstack.diff.data_loss import replacing
from trainstack.diff.model import NotApplied, ObjectDiff
from trainstack.diff.paths import leaf_changes

CREATE_ONLY = create_only_inputs()


def not_applied(item: ObjectDiff) -> NotApplied | None:
    """The object's changes of inputs read at creation only, if it keeps running."""
    before = item.before
    if item.status != "changed" or before is None or item.after is None:
        return None
    declared = CREATE_ONLY.get(before.pulumi_type)
    if declared is None:
        return None
    every = list(leaf_changes(item.before_document, item.after_document))
    if replacing(before.pulumi_type, every):
        return None
    changes = tuple(
        change
        for change in every
        if len(change.location) > 1
        and change.location[0] == "inputs"
        and change.location[1] in declared.remedies
    )
    if not changes:
        return None
    remedies = dict.fromkeys(declared.remedies[str(c.location[1])] for c in changes)
    return NotApplied(item.key.label, changes, "; ".join((declared.reason, *remedies)))
