"""The explicit Kubernetes provider: its kubeconfig is always a masked secret."""

from __future__ import annotations

from tests.conftest import StackWriter
from tests.stack_helpers import example_config, only
from trainstack.plan.masking import SECRET
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack
from trainstack.plan.writer import canonical_json

PROVIDER = "pulumi:providers:kubernetes"
CIPHERTEXT = "v1:Zm9vYmFyLWNpcGhlcnRleHQtbm90LWRlY3J5cHRlZA=="


def test_ack_kubeconfig_fetched_from_ack_is_secret(example_plans: dict[str, Plan]) -> None:
    provider = only(example_plans["aiacc"], PROVIDER).inputs
    assert provider["kubeconfig"] == SECRET
    assert "context" not in provider


def test_stack_secret_is_masked_and_never_decrypted(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
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
