"""``trainstack:clusterTemplate``: the cluster and pools several stacks share, by
construction; its problems named in the template file, at the key written there."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import StackWriter
from tests.stack_helpers import REPO, example_config
from trainstack.config.loader import AnyStack, LoadedStack, load_stack_config
from trainstack.config.pulumi_config import read_stack_file
from trainstack.core.errors import ConfigError, TrainstackError
from trainstack.core.yaml.io import dump_yaml, read_yaml
from trainstack.plan.runner import plan_stack

TEMPLATE = "templates/workload-1-ack.yaml"


def _stack(write_stack: StackWriter, config: dict[str, Any], template: Any = None) -> AnyStack:
    """``config`` as the stack ``test`` beside the example template (or ``template``)."""
    project = write_stack(config)
    target = project.stack_config_dir / TEMPLATE
    target.parent.mkdir(exist_ok=True)
    if template is None:
        shutil.copy(REPO / "stacks" / TEMPLATE, target)
    else:
        target.write_text(dump_yaml(template))
    stack_file = read_stack_file(project, "test")
    config, secret_keys = stack_file.config, stack_file.secret_keys
    return load_stack_config("test", config, secret_keys, stack_file.source, stack_file.path)


def _naming_template() -> dict[str, Any]:
    return dict(read_yaml(REPO / "stacks" / "Pulumi.aiacc.yaml")["config"])


def test_a_stack_naming_the_template_gets_its_cluster_and_pools(
    write_stack: StackWriter,
) -> None:
    stack = _stack(write_stack, _naming_template())
    written_out = _stack(write_stack, example_config("aiacc"))
    assert isinstance(stack, LoadedStack) and isinstance(written_out, LoadedStack)
    assert stack.config.model_dump() == written_out.config.model_dump()


def test_the_template_plans_as_the_example(write_stack: StackWriter) -> None:
    _stack(write_stack, _naming_template())  # writes the template beside the stack
    project = write_stack(_naming_template())
    plan = plan_stack(project, "test")
    (cluster,) = plan.of_type("alicloud:cs/managedKubernetes:ManagedKubernetes")
    assert cluster.inputs["name"] == "trainstack-test"  # named after its stack


def test_a_key_set_in_both_is_refused(write_stack: StackWriter) -> None:
    config = _naming_template()
    config["trainstack:nodePools"] = example_config("aiacc")["trainstack:nodePools"]
    with pytest.raises(ConfigError, match=r"trainstack:nodePools: found set here and in") as caught:
        _stack(write_stack, config)
    assert f"{TEMPLATE}" in str(caught.value)


def test_a_template_holds_only_cluster_and_pools(write_stack: StackWriter) -> None:
    template = read_yaml(REPO / "stacks" / TEMPLATE)
    template["teams"] = []
    with pytest.raises(ConfigError, match=r"workload-1-ack\.yaml.*teams: found a key a template"):
        _stack(write_stack, _naming_template(), template)


def test_a_problem_in_the_template_names_the_template_and_its_key(
    write_stack: StackWriter,
) -> None:
    template = read_yaml(REPO / "stacks" / TEMPLATE)
    template["cluster"]["create"]["version"] = "1.33.1-aliyun.1"
    with pytest.raises(ConfigError) as caught:
        _stack(write_stack, _naming_template(), template)
    error = caught.value
    assert error.source.endswith(TEMPLATE)
    assert [problem.path for problem in error.problems] == ["cluster.create.version"]


@pytest.mark.parametrize(
    ("name", "allowed"),
    [
        ("../Pulumi.other.yaml", "a `.yaml` file in the stack directory"),
        ("/etc/passwd.yaml", "a `.yaml` file in the stack directory"),
        ("templates/missing.yaml", "a file that exists"),
        (7, "a `.yaml` file in the stack directory"),
    ],
)
def test_a_bad_template_name_is_refused(write_stack: StackWriter, name: Any, allowed: str) -> None:
    config = _naming_template()
    config["trainstack:clusterTemplate"] = name
    with pytest.raises(TrainstackError, match="trainstack:clusterTemplate") as caught:
        _stack(write_stack, config)
    assert allowed in str(caught.value)
    # One problem: not the template's keys (cluster, nodePools) said to be missing too.
    assert [p.path for p in caught.value.problems] == ["trainstack:clusterTemplate"]


def test_placeholders_of_the_template_are_named_where_they_are_written(
    write_stack: StackWriter,
) -> None:
    stack = _stack(write_stack, _naming_template())
    keys = [key for key, _ in stack.placeholders()]
    assert f"{Path(stack.source).parent}/{TEMPLATE}: cluster.create.version" in keys
    assert "trainstack:acceleration.component.name" in keys  # the stack's own, as before
    assert not [key for key in keys if key.startswith("trainstack:cluster")]
