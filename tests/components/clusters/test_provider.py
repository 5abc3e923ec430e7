"""The explicit Kubernetes provider: its kubeconfig is always a masked secret."""

from __future__ import annotations

from components.clusters.provider import kubernetes_provider
from tests.components.mock_engine import build, secret
from tests.conftest import StackWriter
from tests.experiment_helpers import load
from tests.stack_helpers import (
    example_config,
    existing_ack_config,
    existing_cluster_config,
    only,
)
from trainstack.plan.masking import SECRET
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import canonical_json

PROVIDER = "pulumi:providers:kubernetes"
CIPHERTEXT = "v1:Zm9vYmFyLWNpcGhlcnRleHQtbm90LWRlY3J5cHRlZA=="


CREDENTIAL = "alicloud:cs/getClusterCredential:getClusterCredential"


def test_without_the_secret_acks_kubeconfig_is_fetched_for_the_cluster() -> None:
    stack = load(existing_ack_config())
    made, registered = build(
        lambda: kubernetes_provider("cluster", stack), invokes={CREDENTIAL: {"kubeConfig": "kc"}}
    )
    assert registered.calls == [CREDENTIAL]
    provider = registered.one(PROVIDER)
    assert provider.name == "cluster"
    assert provider.inputs["kubeconfig"] == secret("kc")
    assert made.kubeconfig is not None and made.context is None


def test_an_existing_cluster_fetches_nothing() -> None:
    stack = load(existing_cluster_config())
    made, registered = build(lambda: kubernetes_provider("cluster", stack))  # no invoke answered
    assert registered.calls == []
    provider = registered.one(PROVIDER)
    assert provider.inputs["context"] == "onprem"
    assert "kubeconfig" not in provider.inputs
    assert made.kubeconfig is None


def test_ack_kubeconfig_fetched_from_ack_is_secret(example_plans: dict[str, Plan]) -> None:
    provider = only(example_plans["aiacc"], PROVIDER).inputs
    assert provider["kubeconfig"] == SECRET
    assert "context" not in provider


def test_stack_secret_is_masked_and_never_decrypted(write_stack: StackWriter) -> None:
    config = existing_ack_config()
    config["trainstack:kubeconfig"] = {"secure": CIPHERTEXT}
    plan = plan_stack(write_stack(config), "test")
    assert only(plan, PROVIDER).inputs["kubeconfig"] == SECRET
    text = canonical_json([r.as_json() for r in plan.resources])
    assert CIPHERTEXT not in text


def test_existing_cluster_uses_the_named_context(write_stack: StackWriter) -> None:
    config = example_config("baseline")
    config["trainstack:cluster"] = {"provider": "existing", "context": "onprem-gpu"}
    config["trainstack:nodePools"] = example_config("onprem")["trainstack:nodePools"]
    config["trainstack:datasets"] = []
    config["trainstack:experiments"] = {"select": []}
    provider = only(plan_stack(write_stack(config), "test"), PROVIDER).inputs
    assert provider["context"] == "onprem-gpu"
    assert "kubeconfig" not in provider
