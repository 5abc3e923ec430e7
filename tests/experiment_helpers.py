"""Build a throw-away project with experiment files and resolve them for a stack."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.stack_helpers import REPO, example_config
from trainstack.config.loader import LoadedStack, load_stack_config
from trainstack.config.pulumi_config import pulumi_config_map
from trainstack.core.yaml.io import dump_yaml
from trainstack.deployment import Deployment, prepare

IMAGENET: dict[str, Any] = {
    "name": "imagenet-tensorflow",
    "job": {
        "framework": "mpi",
        "image": {"name": "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0"},
        "command": "sh /data/tensorflow-imagenet/launch_arena.sh",
        "workingDir": "/data",
        "worker": {"replicas": 4, "gpus": 4, "resources": {"limits": {"memory": "300Gi"}}},
        "datasets": [{"claimName": "imagenet-data", "mountPath": "/data"}],
    },
}

Deployer = Callable[..., Deployment]


def job(**changes: Any) -> dict[str, Any]:
    """The workload-1 experiment with ``job`` keys replaced (shallow, per top-level key)."""
    experiment = copy.deepcopy(IMAGENET)
    experiment["job"].update(changes)
    return experiment


def stack_config(stack: str = "aiacc", **sections: Any) -> dict[str, Any]:
    """An example stack's config, every experiment selected, sections replaced."""
    config = example_config(stack)
    config.pop("trainstack:experiments", None)
    # The example stack's acknowledgements are of its own experiments' warnings.
    config.pop("trainstack:acknowledge", None)
    # IMAGENET has no team and runs in `default`: its claim must be there (the example
    # stacks give ImageNet to team vision's namespace).
    config["trainstack:datasets"][0]["namespace"] = "default"
    # The example stacks' other datasets belong to their own experiments' teams.
    config["trainstack:datasets"] = config["trainstack:datasets"][:1]
    for key, value in sections.items():
        config[f"trainstack:{key}"] = value
    return config


def load(config: dict[str, Any], source: str = "stacks/Pulumi.test.yaml") -> LoadedStack:
    """Validate ``config`` as the program would."""
    raw, secret_keys = pulumi_config_map({"config": config}, source)
    return load_stack_config("test", raw, secret_keys, source)


def make_deployer(root: Path) -> Deployer:
    """``deploy(*experiments, config=...)``: write the files under ``root`` and prepare."""

    def deploy(*experiments: dict[str, Any], config: dict[str, Any] | None = None) -> Deployment:
        directory = root / "experiments"
        directory.mkdir(exist_ok=True)
        for old in directory.glob("*.yaml"):
            old.unlink()
        for index, experiment in enumerate(experiments):
            (directory / f"{index:02d}-{experiment['name']}.yaml").write_text(dump_yaml(experiment))
        stack = load(config if config is not None else stack_config())
        # Data stacks named by stack-reference datasets are the repository's own.
        return prepare(root, stack, REPO / "stacks")

    return deploy
