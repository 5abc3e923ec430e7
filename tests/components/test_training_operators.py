"""TrainingOperators: pinned remote charts, one release per enabled operator."""

from __future__ import annotations

from tests.conftest import StackWriter
from tests.stack_helpers import ACK_STACKS, example_config
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack

RELEASE = "kubernetes:helm.sh/v3:Release"


def _releases(plan: Plan) -> dict[str, dict]:
    """The operator releases (experiments are releases too, of the project's own chart)."""
    return {
        r.inputs["name"]: r.inputs
        for r in plan.of_type(RELEASE)
        if r.parent.endswith("TrainingOperators::operators")
    }


def test_arena_and_mpi_operator_are_pinned(example_plans: dict[str, Plan]) -> None:
    for plan in (example_plans[stack] for stack in ACK_STACKS):
        releases = _releases(plan)
        assert sorted(releases) == ["ack-arena", "mpi-operator"]
        arena, mpi = releases["ack-arena"], releases["mpi-operator"]
        assert (arena["chart"], arena["version"]) == ("ack-arena", "0.15.3")
        assert arena["repositoryOpts"] == {
            "repo": "https://aliacs-app-catalog.oss-cn-hangzhou.aliyuncs.com/charts-incubator/"
        }
        assert arena["values"] == {"mpi": {"enabled": False}}
        assert arena["namespace"] == "arena-system"
        # OCI charts are addressed by reference, without a repository index.
        assert (
            mpi["chart"]
            == "oci://trainstack-registry.cn-beijing.cr.aliyuncs.com/charts/mpi-operator"
        )
        assert mpi["version"] == "0.6.0"
        assert "repositoryOpts" not in mpi
        for release in (arena, mpi):
            assert release["createNamespace"] is True and release["atomic"] is True


def test_disabled_operator_is_not_installed(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["arena"]["enabled"] = False
    config["trainstack:experiments"]["select"] = ["imagenet-tensorflow"]
    assert sorted(_releases(plan_stack(write_stack(config), "test"))) == ["mpi-operator"]


def test_operator_releases_use_the_stack_cluster(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["aiacc"]
    (provider,) = plan.of_type("pulumi:providers:kubernetes")
    assert len(_releases(plan)) == 2
    assert provider.name == "cluster"
