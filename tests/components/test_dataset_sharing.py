"""DatasetVolume shared with more namespaces: one PV and claim per namespace, same data."""

from __future__ import annotations

from tests.conformance import validate_objects
from tests.conftest import StackWriter
from tests.stack_helpers import example_config
from trainstack.plan.runner import plan_stack

PV = "kubernetes:core/v1:PersistentVolume"
PVC = "kubernetes:core/v1:PersistentVolumeClaim"


def test_each_namespace_gets_its_own_pv_and_claim(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:datasets"][0]["sharedWith"] = ["nlp"]
    config["trainstack:experiments"] = {"select": []}
    plan = plan_stack(write_stack(config), "test")
    volumes = {r.name: r.inputs for r in plan.of_type(PV)}
    claims = {r.name: r.inputs for r in plan.of_type(PVC)}
    # The dataset's own pair keeps its resource and object names: sharing replaces nothing.
    assert sorted(volumes) == ["imagenet-data-nlp-pv", "imagenet-data-pv", "training-results-pv"]
    assert sorted(claims) == ["imagenet-data-nlp-pvc", "imagenet-data-pvc", "training-results-pvc"]
    own, shared = volumes["imagenet-data-pv"], volumes["imagenet-data-nlp-pv"]
    assert own["metadata"]["name"] == "imagenet-data"
    assert shared["metadata"]["name"] == "imagenet-data-nlp"
    assert shared["spec"]["csi"]["volumeHandle"] == "imagenet-data-nlp"
    assert shared["spec"]["claimRef"] == {"name": "imagenet-data", "namespace": "nlp"}
    assert shared["spec"]["csi"]["volumeAttributes"] == own["spec"]["csi"]["volumeAttributes"]
    claim = claims["imagenet-data-nlp-pvc"]
    assert (claim["metadata"]["name"], claim["metadata"]["namespace"]) == ("imagenet-data", "nlp")
    assert claim["spec"]["volumeName"] == "imagenet-data-nlp"
    # The same data for both: the data stack's file system, read through one reference.
    assert plan.of_type("alicloud:nas/fileSystem:FileSystem") == []
    assert len(plan.of_type("pulumi:pulumi:StackReference")) == 1
    assert validate_objects([*volumes.values(), *claims.values()]) == 6
