"""Hand-made plan directories, in the format ``trainstack plan`` writes, for diff tests."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.stack_helpers import REPO

HELM_RELEASE = "kubernetes:helm.sh/v3:Release"
PROJECT_FILES = ("Pulumi.yaml", "__main__.py", "components", "experiments", "charts", "trainstack")


def urn(stack: str, type_token: str, name: str, parent_type: str = "pulumi:pulumi:Stack") -> str:
    """A URN the way Pulumi spells it: the stack's name is part of it."""
    return f"urn:pulumi:{stack}::trainstack::{parent_type}${type_token}::{name}"


def stack_urn(stack: str) -> str:
    """The root stack resource's URN (parent of top-level resources)."""
    return f"urn:pulumi:{stack}::trainstack::pulumi:pulumi:Stack::trainstack-{stack}"


def mpijob(name: str, workers: int, env: dict[str, str] | None = None) -> dict[str, Any]:
    """A small MPIJob as the training-job chart renders one."""
    container: dict[str, Any] = {"name": "worker", "image": "horovod:0.28", "command": ["sshd"]}
    if env:
        container["env"] = [{"name": key, "value": value} for key, value in sorted(env.items())]
    return {
        "apiVersion": "kubeflow.org/v2beta1",
        "kind": "MPIJob",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "mpiReplicaSpecs": {
                "Launcher": {"replicas": 1},
                "Worker": {
                    "replicas": workers,
                    "template": {"spec": {"containers": [container]}},
                },
            }
        },
    }


def experiment_values(workers: int) -> dict[str, Any]:
    """Chart values of one experiment (only what the tests look at)."""
    return {"framework": "mpi", "worker": {"replicas": workers, "gpus": 4}, "env": {}}


def write_plan_dir(
    root: Path,
    stack: str,
    workers: dict[str, int],
    overrides: dict[str, dict[str, str]] | None = None,
    resources: list[dict[str, Any]] | None = None,
    digests: dict[str, Any] | None = None,
    extra_objects: list[dict[str, Any]] | None = None,
) -> Path:
    """``root/stack`` holding one release + one MPIJob per experiment in ``workers``.

    ``overrides`` maps an experiment to the env its acceleration overrides add.
    """
    overrides = overrides or {}
    directory = root / stack
    directory.mkdir(parents=True)
    items = list(resources or [])
    objects, experiments = [], []
    for name, count in sorted(workers.items()):
        release = urn(stack, HELM_RELEASE, f"{name}-release")
        base = experiment_values(count)
        values = copy.deepcopy(base)
        values["env"].update(overrides.get(name, {}))
        items.append(
            {
                "urn": release,
                "type": HELM_RELEASE,
                "name": f"{name}-release",
                "parent": stack_urn(stack),
                "inputs": {"chart": "./charts/training-job", "name": name, "values": values},
            }
        )
        job = mpijob(name, count, overrides.get(name))
        objects.append(_object_item(release, job))
        experiments.append(
            {
                "name": name,
                "namespace": "default",
                "release": release,
                "values": values,
                "baseValues": base,
                "accelerationOverrides": {"env": overrides[name]} if name in overrides else {},
            }
        )
    objects += [_object_item(item.pop("release"), item) for item in extra_objects or []]
    _dump(directory / "resources.json", sorted(items, key=lambda item: item["urn"]))
    _dump(directory / "objects.json", objects)
    _dump(directory / "experiments.json", experiments)
    if digests is not None:
        _dump(directory / "secret-digests.json", digests)
    return directory


def _object_item(release: str, obj: dict[str, Any]) -> dict[str, Any]:
    metadata = obj["metadata"]
    return {
        "release": release,
        "apiVersion": obj["apiVersion"],
        "kind": obj["kind"],
        "namespace": metadata.get("namespace", ""),
        "name": metadata["name"],
        "object": obj,
    }


def secret_resource(stack: str, password: str) -> dict[str, Any]:
    """A Kubernetes Secret resource as the plan records it: data masked by key."""
    return {
        "urn": urn(stack, "kubernetes:core/v1:Secret", "db-credentials"),
        "type": "kubernetes:core/v1:Secret",
        "name": "db-credentials",
        "parent": stack_urn(stack),
        "inputs": {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "db", "namespace": "default"},
            "data": {"password": password},
        },
    }


def _dump(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def copy_project(target: Path, stacks: tuple[str, ...] = ("imagenet", "aiacc", "baseline")) -> Path:
    """A copy of the project (code, chart, experiments) with only ``stacks``."""
    target.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in PROJECT_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)
    (target / "stacks").mkdir()
    for stack in stacks:
        shutil.copy2(REPO / "stacks" / f"Pulumi.{stack}.yaml", target / "stacks")
    # the cluster template the ACK stacks share (trainstack:clusterTemplate)
    shutil.copytree(REPO / "stacks" / "templates", target / "stacks" / "templates")
    return target


def git(root: Path, *args: str) -> str:
    """Run git in ``root``; returns its output."""
    command = ["git", "-c", "user.name=test", "-c", "user.email=test@example.com", *args]
    return subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout


def commit_all(root: Path, message: str) -> None:
    """Commit everything in the working tree of ``root``."""
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def init_repo(root: Path) -> Path:
    """Make ``root`` a git repository whose branch ``main`` holds what it has now."""
    git(root, "init", "-q", "-b", "main")
    commit_all(root, "base")
    return root
