"""JobQueueing, built from minimal arguments: Kueue, a flavor per pool, queues per team."""

from __future__ import annotations

from typing import Any

import pulumi

from components.job_queueing import JobQueueing, JobQueueingArgs
from tests.components.mock_engine import Registered, build, provider, value
from trainstack.config.node_pool import NodePool
from trainstack.config.operators import Operators
from trainstack.config.queueing import Queueing
from trainstack.config.teams import Team
from trainstack.core.yaml.io import parse_yaml

RELEASE = "kubernetes:helm.sh/v3:Release"
RESOURCE = "kubernetes:kueue.x-k8s.io/v1beta2:"
POOLS = [
    NodePool.model_validate(
        {
            "name": "gpu-v100",
            "gpusPerNode": 4,
            "gpuModel": "V100",
            "desiredSize": 2,
            "labels": {"pool": "gpu-v100"},
        }
    ),
    NodePool.model_validate({"name": "cpu", "gpusPerNode": 0, "desiredSize": 1}),
]
TEAMS = [
    Team.model_validate({"name": "vision", "quota": {"gpu": 8, "cpu": "64", "memory": "512Gi"}}),
    Team.model_validate(
        {"name": "nlp", "namespace": "team-nlp", "quota": {"gpu": 4, "cpu": "32", "memory": "1Ti"}}
    ),
]


def _build(
    queueing: dict[str, Any], operators: Operators | None = None
) -> tuple[JobQueueing, Registered]:
    settings = Queueing.model_validate({"enabled": True, **queueing})

    def make() -> JobQueueing:
        team_objects = [pulumi.CustomResource("test:index:Namespace", team.name) for team in TEAMS]
        args = JobQueueingArgs(settings, POOLS, TEAMS, team_objects, provider(), operators)
        return JobQueueing("queueing", args)

    return build(make)


def _kind(registered: Registered, kind: str) -> list[Any]:
    return registered.of_type(f"{RESOURCE}{kind}")


def test_kueue_is_installed_with_the_configuration_trainstack_writes() -> None:
    made, registered = _build({})
    release = registered.one(RELEASE)
    assert (release.name, release.inputs["name"], release.inputs["namespace"]) == (
        "queueing-release",
        "kueue",
        "kueue-system",
    )
    yaml = release.inputs["values"]["managerConfig"]["controllerManagerConfigYaml"]
    configuration = parse_yaml(yaml, "values")
    assert configuration["manageJobsWithoutQueueName"] is False
    assert configuration["waitForPodsReady"]["blockAdmission"] is True
    assert sorted(configuration["integrations"]["frameworks"]) == [
        "kubeflow.org/mpijob",
        "kubeflow.org/pytorchjob",
        "kubeflow.org/tfjob",
        "trainer.kubeflow.org/trainjob",
    ]
    assert value(made.release_name) == "kueue"


def test_kueue_integrates_only_the_kinds_the_operators_serve_and_suspend() -> None:
    operators = Operators.model_validate({"trainingOperator": {"version": "1.9.4"}})
    _, registered = _build({}, operators)
    yaml = registered.one(RELEASE).inputs["values"]["managerConfig"]["controllerManagerConfigYaml"]
    assert sorted(parse_yaml(yaml, "values")["integrations"]["frameworks"]) == [
        "kubeflow.org/pytorchjob",
        "kubeflow.org/tfjob",
    ]


def test_each_pool_is_a_flavor_after_the_release() -> None:
    _, registered = _build({})
    gpu = registered.named("queueing-gpu-v100-flavor")
    cpu = registered.named("queueing-cpu-flavor")
    assert (gpu.inputs["metadata"]["name"], cpu.inputs["metadata"]["name"]) == ("gpu-v100", "cpu")
    assert gpu.inputs["spec"] == {
        "nodeLabels": {"pool": "gpu-v100"},
        "tolerations": [
            {"key": "nvidia.com/gpu", "operator": "Equal", "value": "true", "effect": "NoSchedule"}
        ],
    }
    assert cpu.inputs["spec"] == {"nodeLabels": {}}
    # The one flavor of stacks made before several pools keeps its resource.
    assert (gpu.aliases, cpu.aliases) == (("queueing-flavor",), ())
    assert registered.one(RELEASE).urn in gpu.depends_on


def test_each_team_gets_a_cluster_queue_and_a_local_queue_in_its_namespace() -> None:
    _, registered = _build({"cohort": "shared-gpus"})
    vision = registered.named("queueing-vision-cluster-queue")
    nlp = registered.named("queueing-nlp-cluster-queue")
    assert vision.inputs["spec"]["namespaceSelector"] == {
        "matchLabels": {"kubernetes.io/metadata.name": "vision"}
    }
    assert vision.inputs["spec"]["cohortName"] == "shared-gpus"
    gpu_flavor, cpu_flavor = vision.inputs["spec"]["resourceGroups"][0]["flavors"]
    assert gpu_flavor["resources"] == [
        {"name": "cpu", "nominalQuota": "64"},
        {"name": "memory", "nominalQuota": "512Gi"},
        {"name": "nvidia.com/gpu", "nominalQuota": "8"},
    ]
    assert cpu_flavor["resources"][2] == {"name": "nvidia.com/gpu", "nominalQuota": "0"}
    flavors = {flavor.urn for flavor in _kind(registered, "ResourceFlavor")}
    assert flavors <= set(nlp.depends_on)
    local = _kind(registered, "LocalQueue")
    assert sorted((q.inputs["metadata"]["namespace"], q.inputs["spec"]) for q in local) == [
        ("team-nlp", {"clusterQueue": "nlp"}),
        ("vision", {"clusterQueue": "vision"}),
    ]
    namespaces = {r.urn for r in registered.of_type("test:index:Namespace")}
    assert namespaces <= set(local[0].depends_on)
