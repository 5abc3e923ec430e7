"""One fetch of a deployment from outside the cluster's region (:mod:`trainstack.plan.outside`)."""

from __future__ import annotations

from dataclasses import dataclass

DEPLOYER = "pulumi up (the deploying machine)"
NODES = "the cluster's nodes"
POPULATE_JOB = "the populate Job"


@dataclass(frozen=True, order=True)
class OutsidePull:
    """One fetch from outside the cluster's region: by whom, what, and the mirror key."""

    by: str
    reference: str
    what: str
    mirror: str
    unverified: bool = False
    host: str = ""
    """The host it is fetched from, when ``reference`` does not say it (an ``oss://`` URL
    is fetched from the bucket's endpoint); empty: ``reference``'s."""

    def line(self) -> str:
        """``REF: WHAT; by WHO; mirror: KEY``."""
        note = " (not verified offline)" if self.unverified else ""
        return f"{self.reference}: {self.what}{note}; by {self.by}; mirror: {self.mirror}"
