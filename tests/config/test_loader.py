"""Loading a stack file: secrets, unknown keys, syntax errors, and how errors read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.config.conftest import Loader
from tests.conftest import StackWriter
from tests.stack_helpers import example_config, existing_ack_config
from trainstack.config.loader import load_stack_config
from trainstack.config.pulumi_config import SECRET_PLACEHOLDER, read_stack_file
from trainstack.core.errors import ConfigError


def test_example_stack_loads(load: Loader) -> None:
    stack = load(example_config("aiacc"))
    assert [pool.desired_size for pool in stack.config.node_pools] == [4, 2]
    assert stack.kubeconfig is None


def test_error_names_file_key_value_and_allowed(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["desiredSize"] = -1
    with pytest.raises(ConfigError, match=r"Pulumi\.test\.yaml") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:nodePools[0].desiredSize"
    assert problem.found == "-1"
    assert problem.allowed == "a number >= 0"
    assert "trainstack:nodePools[0].desiredSize: found -1; allowed: a number >= 0" in str(
        caught.value
    )


def test_all_field_problems_are_reported_at_once(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["desiredSize"] = "four"
    config["trainstack:nodePools"][1]["gpusPerNode"] = -1
    with pytest.raises(ConfigError, match="2 problems") as caught:
        load(config)
    assert [p.path for p in caught.value.problems] == [
        "trainstack:nodePools[0].desiredSize",
        "trainstack:nodePools[1].gpusPerNode",
    ]


def test_unknown_key_lists_known_keys(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["desiredsize"] = 4
    with pytest.raises(ConfigError, match="desiredsize") as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:nodePools[0].desiredsize"
    assert problem.found == 'unknown key "desiredsize" (did you mean "desiredSize"?)'
    assert "desiredSize" in problem.allowed and "gpusPerNode" in problem.allowed


def test_unknown_top_level_section(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:nodepool"] = {}
    with pytest.raises(ConfigError) as caught:
        load(config)
    assert [p.path for p in caught.value.problems] == ["trainstack:nodepool"]
    assert "nodePools" in caught.value.problems[0].allowed


def test_missing_section(load: Loader) -> None:
    config = example_config("aiacc")
    del config["trainstack:nodePools"]
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:nodePools"
    assert problem.found == "nothing (the key is missing)"


def test_plain_text_kubeconfig_is_refused_without_echoing_it(load: Loader) -> None:
    config = existing_ack_config()  # a stack creating its cluster: the next case
    config["trainstack:kubeconfig"] = "apiVersion: v1\nusers: [{token: hunter2}]"
    with pytest.raises(ConfigError, match="--secret") as caught:
        load(config)
    assert "hunter2" not in str(caught.value)
    assert caught.value.problems[0].path == "trainstack:kubeconfig"


def test_secret_kubeconfig_is_masked_never_decrypted(load: Loader) -> None:
    config = existing_ack_config()
    config["trainstack:kubeconfig"] = {"secure": "v1:cipher-text-not-decrypted"}
    stack = load(config)
    assert stack.kubeconfig == SECRET_PLACEHOLDER


def test_secret_outside_kubeconfig_is_refused(load: Loader) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["trainingOperator"]["config"] = {"token": {"secure": "v1:a"}}
    with pytest.raises(
        ConfigError, match="only trainstack:kubeconfig and the node passwords"
    ) as caught:
        load(config)
    # One problem, at the key that holds the secure: value (not the whole setting).
    assert [problem.path for problem in caught.value.problems] == [
        "trainstack:operators.trainingOperator.config.token"
    ]


def test_a_secure_value_on_a_required_key_is_one_problem_at_that_key(load: Loader) -> None:
    """The whole key is secret to Pulumi: it is not also said to be missing."""
    config = example_config("aiacc")
    config["trainstack:nodePools"][0]["desiredSize"] = {"secure": "v1:a"}
    with pytest.raises(ConfigError, match="found a secret value") as caught:
        load(config)
    assert [(problem.path, problem.found) for problem in caught.value.problems] == [
        ("trainstack:nodePools[0].desiredSize", "a secret value (not shown)")
    ]


def test_provider_settings_are_left_to_their_providers(load: Loader) -> None:
    config = example_config("aiacc")
    config["alicloud:skipRegionValidation"] = True
    assert load(config).config.cluster.provider == "alicloud"


@pytest.mark.parametrize("key", ["alicloud:secretKey", "alicloud:accessKey", "aws:token"])
def test_a_plain_provider_credential_is_refused_without_echoing_it(load: Loader, key: str) -> None:
    config = example_config("aiacc")
    config[key] = "LTAI5tVerySecret"
    with pytest.raises(ConfigError) as caught:
        load(config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found, problem.allowed) == (
        key,
        "a plain-text value (not shown)",
        f"a secret: set it with `pulumi config set --secret {key} <value>`",
    )
    assert "LTAI5tVerySecret" not in str(caught.value)


def test_a_plain_credential_nested_in_a_provider_setting_is_refused(load: Loader) -> None:
    config = example_config("aiacc")
    config["alicloud:assumeRole"] = {"roleArn": "acs:ram::1:role/x", "sessionToken": "Tok1"}
    with pytest.raises(ConfigError, match=r"alicloud:assumeRole\.sessionToken: found a plain"):
        load(config)


def test_secure_provider_credentials_are_accepted(load: Loader) -> None:
    config = example_config("aiacc")
    config["alicloud:secretKey"] = {"secure": "v1:cipher"}
    config["alicloud:assumeRole"] = {"roleArn": "x", "sessionToken": {"secure": "v1:c2"}}
    assert load(config).config.cluster.provider == "alicloud"


def test_an_empty_stack_file_is_one_problem(write_stack: StackWriter, tmp_path: Path) -> None:
    project = write_stack({})
    (tmp_path / "Pulumi.test.yaml").write_text("")
    stack_file = read_stack_file(project, "test")
    with pytest.raises(ConfigError) as caught:
        load_stack_config(
            "test", stack_file.config, stack_file.secret_keys, stack_file.source, stack_file.path
        )
    assert [(p.path, p.found) for p in caught.value.problems] == [
        ("config", "no trainstack: settings")
    ]


def test_a_plain_kubeconfig_in_a_stack_creating_its_cluster_is_one_problem(load: Loader) -> None:
    """Its fix is to unset it (the kubeconfig is fetched from the cluster), not to make it
    a secret: one line saying so, not two for one key."""
    config = example_config("aiacc")
    config["trainstack:kubeconfig"] = "apiVersion: v1 # SECRET"
    with pytest.raises(ConfigError) as caught:
        load(config)
    assert [(p.path, p.found) for p in caught.value.problems] == [
        (
            "trainstack:kubeconfig",
            "a kubeconfig (not shown, in plain text), with trainstack:cluster.create",
        )
    ]
    assert "SECRET" not in str(caught.value)
