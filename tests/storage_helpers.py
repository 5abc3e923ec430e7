"""A cluster kind trainstack does not have, with storage of its own, declared in a test:
what docs/extending.md's "A cluster kind with its own storage" adds (a source model with
its facts and its mount, on the kind's ``storage``). Shared code takes it from the
declaration, so it works without a line of shared code knowing it."""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Literal

import pytest
from pydantic import Field

from trainstack.config.clusters import existing
from trainstack.config.clusters.existing import ExistingCluster
from trainstack.config.datasets import Dataset
from trainstack.config.storage import AbsolutePath, Fact, Mount, SourceModel, Storage

SHARE_DRIVER = "share.csi.example.com"
SHARE = "share-1.example.com"


class ShareSource(SourceModel):
    """A file share of the example cloud, mounted by its CSI driver."""

    type: Literal["example-share"] = Field(description="`example-share`: a file share.")
    share: str = Field(description="The share's address.")
    path: AbsolutePath = Field(default="/", description="Directory of the share.")

    mount: ClassVar[Mount | None] = Mount(csi_driver=SHARE_DRIVER)

    def given_server(self) -> str | None:
        return self.share

    def facts(self, stack: str, key: str) -> dict[str, Fact]:
        return {
            "fileSystem": Fact(f"example share {self.share}", f"{key}.share"),
            "tier": Fact("fast", f"{key}.tier"),
        }


SHARE_KIND = dataclasses.replace(
    existing.KIND, provider="example", label="an example cluster", storage=Storage(ShareSource)
)


def use_share_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """The existing kind's clusters, for this test, are of the example kind."""
    monkeypatch.setattr(ExistingCluster, "kind", SHARE_KIND)


def share_dataset(name: str = "imagenet") -> Dataset:
    """A dataset on the example kind's share (the stack model, whose union of sources the
    registry writes, does not know the kind: the source is set after validation)."""
    nfs = {"type": "nfs", "server": "10.0.0.5", "path": "/"}
    dataset = Dataset.model_validate({"name": name, "capacity": "1Ti", "source": nfs})
    source = ShareSource.model_validate({"type": "example-share", "share": SHARE})
    return dataset.model_copy(update={"source": source})
