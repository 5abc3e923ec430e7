"""Sending a campaign's runs: each stack's cluster opened, every name checked free, every
object through a server dry run, and only then applied.

Nothing is applied unless every object of every run of every stack passed the server's
dry run (admission webhooks, quotas, validation: everything but storing it), so a
refusal leaves the clusters as they were. A name already taken on the cluster (a run of
another command, a job of ``pulumi up``) is refused before any dry run: server-side
apply would otherwise change that object instead of creating one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError
from trainstack.live.cluster import Cluster
from trainstack.live.connect import connect_reader
from trainstack.live.options import ClusterOptions
from trainstack.live.writes import FIELD_MANAGER, ObjectWriter
from trainstack.submit.campaign import Campaign
from trainstack.submit.objects import object_ref
from trainstack.submit.runset import Run


@dataclass(frozen=True)
class Connection:
    """One stack's cluster: read (``--wait``) and write through one bounded client."""

    stack: str
    cluster: Cluster
    writer: ObjectWriter


def connect_all(campaigns: Sequence[Campaign], options: ClusterOptions) -> dict[str, Connection]:
    """A connection per stack (no request yet); two stacks reaching the same cluster are
    refused: the comparison would run on one cluster."""
    connections: dict[str, Connection] = {}
    reached: dict[str, str] = {}
    for campaign in campaigns:
        reader = connect_reader(campaign.prepared.stack, options)
        server = reader.target.server()
        if server in reached:
            raise ClusterError(
                f"stacks {reached[server]} and {campaign.stack} both reach {server}: each "
                "stack's runs must go to its own cluster; give each stack its kubeconfig "
                "context (trainstack:cluster.kubeconfigContext) or run the stacks one by one"
            )
        reached[server] = campaign.stack
        connections[campaign.stack] = Connection(
            campaign.stack, Cluster(reader), ObjectWriter(reader)
        )
    return connections


def check_names_free(connection: Connection, campaign: Campaign) -> None:
    """Each run's job name is free on the cluster."""
    for run in campaign.runs:
        job = object_ref(campaign.objects[run.name][0])
        found = connection.writer.get(job)
        if found is not None:
            managers = sorted(
                {
                    printable(str(entry.get("manager")), 60)
                    for entry in (found.get("metadata") or {}).get("managedFields") or []
                    if isinstance(entry, dict)
                }
            )
            raise ClusterError(
                f"{job.shown()} already exists on stack {campaign.stack} "
                f"({connection.writer.where()}; managed by {', '.join(managers) or 'unknown'}): "
                "server-side apply would change it; choose another --name"
                + (
                    f", or delete it with `trainstack runs {campaign.stack} --delete {job.name}`"
                    if FIELD_MANAGER in managers
                    else ""
                )
            )


def dry_run(connection: Connection, campaign: Campaign) -> int:
    """Every object of every run through the server's dry run; the number of objects."""
    count = 0
    for run in campaign.runs:
        for document in campaign.objects[run.name]:
            connection.writer.apply(object_ref(document), document, dry_run=True)
            count += 1
    return count


def apply_run(connection: Connection, campaign: Campaign, run: Run) -> None:
    """Apply ``run``'s objects (the job first); a refusal names what was applied before."""
    applied: list[str] = []
    for document in campaign.objects[run.name]:
        ref = object_ref(document)
        try:
            connection.writer.apply(ref, document, dry_run=False)
        except ClusterError as error:
            if applied:
                raise ClusterError(
                    f"{error}; already applied: {', '.join(applied)} (`trainstack runs "
                    f"{campaign.stack} --delete {run.name}` removes them)"
                ) from None
            raise
        applied.append(ref.shown())
