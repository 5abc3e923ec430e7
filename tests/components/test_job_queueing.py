"""JobQueueing: from minimal arguments and in the example program, Kueue as a pinned chart, one
flavor per pool, a queue pair per team."""

from __future__ import annotations

import copy
from typing import Any

import pulumi
import pytest

from components.job_queueing import JobQueueing, JobQueueingArgs
from tests.components.mock_engine import Registered, build, provider, value
from tests.conformance import ConformanceError, crd_dir, validate_object
from tests.conftest import StackWriter
from tests.stack_helpers import A100_POOL, ACK_STACKS, example_config
from tests.team_helpers import team, without_queueing
from trainstack.config.node_pool import NodePool
from trainstack.config.operators import Operators
from trainstack.config.queueing import QUEUE_LABEL, Queueing
from trainstack.config.teams import Team
from trainstack.core.errors import ConfigError
from trainstack.core.yaml.io import parse_yaml
from trainstack.plan.model import Plan, PlannedResource
from trainstack.plan.runner import plan_stack

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
KUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:"


def _build(
    queueing: dict[str, Any], operators: Operators | None = None
) -> tuple[JobQueueing, Registered]:
    settings = Queueing.model_validate({"enabled": True, **queueing})

    def make() -> JobQueueing:
        team_objects = [pulumi.CustomResource("test:index:Namespace", team.name) for team in TEAMS]
        args = JobQueueingArgs(settings, POOLS, TEAMS, team_objects, provider(), operators)
        return JobQueueing("queueing", args)

    return build(make)


def test_the_requeue_limit_is_kueues_backoff_limit_count() -> None:
    _, registered = _build({"requeueLimit": 0, "podsReadyTimeout": "15m"})
    yaml = registered.one(RELEASE).inputs["values"]["managerConfig"]["controllerManagerConfigYaml"]
    waiting = parse_yaml(yaml, "values")["waitForPodsReady"]
    # 0: the first timeout deactivates the job
    assert (waiting["timeout"], waiting["requeuingStrategy"]) == ("15m", {"backoffLimitCount": 0})


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
    assert configuration["waitForPodsReady"]["requeuingStrategy"] == {"backoffLimitCount": 3}
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


def _queueing(plan: Plan) -> list[PlannedResource]:
    return [r for r in plan.resources if "trainstack:queueing:JobQueueing" in r.parent]


def _objects(plan: Plan, kind: str) -> dict[str, dict[str, Any]]:
    return {r.inputs["metadata"]["name"]: r.inputs for r in plan.of_type(KUEUE + kind)}


def test_kueue_is_a_pinned_chart_with_the_training_integrations(
    example_plans: dict[str, Plan],
) -> None:
    (release,) = [r.inputs for r in _queueing(example_plans["aiacc"]) if r.type == RELEASE]
    assert (release["chart"], release["version"]) == (
        "oci://registry.k8s.io/kueue/charts/kueue",
        "0.19.2",
    )
    assert (release["name"], release["namespace"]) == ("kueue", "kueue-system")
    configuration = parse_yaml(
        release["values"]["managerConfig"]["controllerManagerConfigYaml"], "values"
    )
    assert configuration["apiVersion"] == "config.kueue.x-k8s.io/v1beta2"
    # the kinds the stack's operators serve (mpi-operator, training-operator), not TrainJob
    assert configuration["integrations"] == {
        "frameworks": ["kubeflow.org/mpijob", "kubeflow.org/pytorchjob", "kubeflow.org/tfjob"]
    }
    # a job whose pods never all start is requeued 3 times, then deactivated, not forever
    assert configuration["waitForPodsReady"] == {
        "timeout": "10m",
        "blockAdmission": True,
        "requeuingStrategy": {"backoffLimitCount": 3},
    }
    assert configuration["manageJobsWithoutQueueName"] is False


def test_user_values_are_kept_beside_the_configuration(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    image = {"repository": "trainstack-registry.cn-beijing.cr.aliyuncs.com/kueue/kueue"}
    config["trainstack:queueing"]["values"] = {"controllerManager": {"manager": {"image": image}}}
    config["trainstack:experiments"] = {"select": []}
    (release,) = [
        r.inputs for r in _queueing(plan_stack(write_stack(config), "test")) if r.type == RELEASE
    ]
    assert release["values"]["controllerManager"] == {"manager": {"image": image}}
    assert "controllerManagerConfigYaml" in release["values"]["managerConfig"]


def test_one_flavor_per_pool(example_plans: dict[str, Plan]) -> None:
    flavors = _objects(example_plans["aiacc"], "ResourceFlavor")
    assert flavors["gpu-v100"]["spec"] == {
        "nodeLabels": {"trainstack.io/pool": "gpu-v100"},
        "tolerations": [
            {"key": "nvidia.com/gpu", "operator": "Equal", "value": "true", "effect": "NoSchedule"}
        ],
    }
    # The CPU pool has no taint: no tolerations.
    assert flavors["cpu"]["spec"] == {"nodeLabels": {"trainstack.io/pool": "cpu"}}
    assert sorted(flavors) == ["cpu", "gpu-v100"]


def test_a_cluster_queue_per_team_with_its_quota_in_the_cohort(
    example_plans: dict[str, Plan],
) -> None:
    queues = _objects(example_plans["aiacc"], "ClusterQueue")
    assert sorted(queues) == ["nlp", "vision"]
    nlp = queues["nlp"]["spec"]
    assert nlp["namespaceSelector"] == {"matchLabels": {"kubernetes.io/metadata.name": "nlp"}}
    assert nlp["cohortName"] == "shared-gpus"
    assert nlp["preemption"] == {"reclaimWithinCohort": "Any", "withinClusterQueue": "Never"}
    (group,) = nlp["resourceGroups"]
    assert group["coveredResources"] == ["cpu", "memory", "nvidia.com/gpu"]
    assert group["flavors"] == [
        {
            "name": "gpu-v100",
            "resources": [
                {"name": "cpu", "nominalQuota": "72"},
                {"name": "memory", "nominalQuota": "552Gi"},
                {"name": "nvidia.com/gpu", "nominalQuota": "6"},
            ],
        },
        {
            # No GPUs on the CPU pool; CPU and memory at most what its 2 nodes let pods
            # request: 2 x (8 - 90m reserved by ACK on 1.35) = 15820m, and 2 x (32768 MiB -
            # 3071 MiB reserved for 256 pods - 300 MiB eviction threshold) = 58794Mi.
            "name": "cpu",
            "resources": [
                {"name": "cpu", "nominalQuota": "15820m"},
                {"name": "memory", "nominalQuota": "58794Mi"},
                {"name": "nvidia.com/gpu", "nominalQuota": "0"},
            ],
        },
    ]


def test_a_local_queue_in_each_team_namespace(example_plans: dict[str, Plan]) -> None:
    for stack in ACK_STACKS:
        queues = {
            (q["metadata"]["namespace"], q["metadata"]["name"]): q["spec"]
            for q in _objects(example_plans[stack], "LocalQueue").values()
        }
        assert queues == {
            ("vision", "vision"): {"clusterQueue": "vision"},
            ("nlp", "nlp"): {"clusterQueue": "nlp"},
        }


def test_kueue_objects_match_the_v1beta2_crds(example_plans: dict[str, Plan]) -> None:
    objects = [r.inputs for r in example_plans["aiacc"].resources if r.type.startswith(KUEUE)]
    assert len(objects) == 6  # 2 flavors, 2 ClusterQueues, 2 LocalQueues
    for obj in objects:
        validate_object(obj, crd_dir())


def test_the_crd_check_can_fail(example_plans: dict[str, Plan]) -> None:
    queue = dict(_objects(example_plans["aiacc"], "ClusterQueue")["vision"])
    queue["spec"] = {**queue["spec"], "cohort": "shared-gpus"}  # v1beta1's spelling
    with pytest.raises(ConformanceError, match="'cohort' was unexpected"):
        validate_object(queue, crd_dir())


def test_borrowing_limit_and_gpu_model_cap(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    vision = team("vision", borrowingLimit={"gpu": 4})
    vision["quota"]["gpuModels"] = {"V100": 8}
    config["trainstack:teams"] = [vision, team("nlp")]
    config["trainstack:experiments"] = {"select": []}
    plan = plan_stack(write_stack(config), "test")
    resources = _objects(plan, "ClusterQueue")["vision"]["spec"]["resourceGroups"][0]["flavors"]
    assert resources[0]["resources"][2] == {
        "name": "nvidia.com/gpu",
        "nominalQuota": "8",
        "borrowingLimit": "4",
    }
    validate_object(_objects(plan, "ClusterQueue")["vision"], crd_dir())


def test_without_a_cohort_no_borrowing(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    del config["trainstack:queueing"]["cohort"]
    config["trainstack:experiments"] = {"select": []}
    spec = _objects(plan_stack(write_stack(config), "test"), "ClusterQueue")["vision"]["spec"]
    assert "cohortName" not in spec and "preemption" not in spec


def test_queued_experiments_carry_their_team_queue(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["baseline"]
    labels = {
        o.key[2]: o.object["metadata"].get("labels", {}).get(QUEUE_LABEL) for o in plan.objects
    }
    assert labels == {
        "imagenet-tensorflow": "vision",
        "keras-lstm-1x1": "vision",
        "keras-lstm-1x2": "vision",
        "keras-lstm-1x4": "vision",
        "keras-lstm-2x1": "vision",
        "keras-lstm-4x1": "vision",
        # training-operator's TFJob and PyTorchJob have runPolicy.suspend: queued too.
        "tf-multiworker-mnist": "nlp",
        "pytorch-ddp-mnist": "nlp",
    }


def test_arena_jobs_are_not_queued(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    # ack-arena's TFJob has no runPolicy.suspend: Kueue could not hold it.
    config["trainstack:operators"] = {"arena": {"version": "0.14.2"}}
    config["trainstack:experiments"] = {
        "select": ["tf-multiworker-mnist"],
        "overrides": {"tf-multiworker-mnist": {"security": {"seccompProfile": None}}},
    }
    plan = plan_stack(write_stack(config), "test")
    (job,) = plan.objects
    assert QUEUE_LABEL not in job.object["metadata"]["labels"]


def test_trainjobs_are_queued_and_kueue_integrates_them_when_the_trainer_serves_them(
    write_stack: StackWriter,
) -> None:
    config = example_config("aiacc")
    config["trainstack:operators"]["trainer"] = {"version": "2.3.0"}
    config["trainstack:experiments"] = {
        "select": ["pytorch-ddp-mnist"],
        # the image's ENTRYPOINT as the command: a TrainJob's preflight runs before it
        "overrides": {
            "pytorch-ddp-mnist": {
                "framework": "trainjob",
                "command": ["python", "/opt/mnist/src/mnist.py"],
            }
        },
    }
    plan = plan_stack(write_stack(config), "test")
    (job,) = plan.objects
    assert job.object["kind"] == "TrainJob"
    assert job.object["metadata"]["labels"][QUEUE_LABEL] == "nlp"
    (release,) = [r.inputs for r in _queueing(plan) if r.type == RELEASE]
    configuration = parse_yaml(
        release["values"]["managerConfig"]["controllerManagerConfigYaml"], "values"
    )
    assert configuration["integrations"]["frameworks"] == [
        "kubeflow.org/mpijob",
        "kubeflow.org/pytorchjob",
        "kubeflow.org/tfjob",
        "trainer.kubeflow.org/trainjob",
    ]


def test_off_by_default(example_plans: dict[str, Plan], write_stack: StackWriter) -> None:
    assert _queueing(example_plans["onprem"]) == []
    config = without_queueing(example_config("aiacc"))
    config["trainstack:experiments"] = {"select": ["keras-lstm-1x1"]}
    plan = plan_stack(write_stack(config), "test")
    assert _queueing(plan) == []
    (job,) = plan.objects
    assert QUEUE_LABEL not in job.object["metadata"]["labels"]


def test_per_model_gpu_quotas_through_one_flavor_per_gpu_pool(write_stack: StackWriter) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"].append(copy.deepcopy(A100_POOL))
    vision, nlp = team("vision"), team("nlp")
    vision["quota"]["gpuModels"] = {"V100": 8, "A100": 2}
    nlp["quota"]["gpuModels"] = {"V100": 6, "A100": 0}
    config["trainstack:teams"] = [vision, nlp]
    config["trainstack:experiments"] = {"select": []}
    plan = plan_stack(write_stack(config), "test")
    assert sorted(_objects(plan, "ResourceFlavor")) == ["cpu", "gpu-a100", "gpu-v100"]
    flavors = _objects(plan, "ClusterQueue")["vision"]["spec"]["resourceGroups"][0]["flavors"]
    gpus = {f["name"]: f["resources"][2]["nominalQuota"] for f in flavors}
    assert gpus == {"gpu-v100": "8", "cpu": "0", "gpu-a100": "2"}
    for queue in _objects(plan, "ClusterQueue").values():
        validate_object(queue, crd_dir())


def test_per_model_quotas_adding_up_beyond_the_team_quota_are_refused(
    write_stack: StackWriter,
) -> None:
    config = example_config("aiacc")
    config["trainstack:nodePools"][1] = {
        **config["trainstack:nodePools"][0],
        "name": "gpu-a100",
        "gpuModel": "A100",
        "labels": {"trainstack.io/pool": "gpu-a100"},
    }
    config["trainstack:experiments"] = {"select": []}
    with pytest.raises(ConfigError) as caught:
        plan_stack(write_stack(config), "test")
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:teams[0].quota.gpuModels"
    assert problem.found == '{"A100": 10, "V100": 10}'
