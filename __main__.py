"""The trainstack Pulumi program: load and check the stack, create the components.

Only wiring lives here; defaults and rules are in ``trainstack/``, resources in
``components/``. ``pulumi up -s <stack>`` and ``trainstack plan <stack>`` run this file.
"""

import pulumi

from components.acceleration import Acceleration, AccelerationArgs
from components.cluster_provider import kubernetes_provider
from components.dataset_volume import DatasetVolume, DatasetVolumeArgs
from components.experiment_releases import ExperimentReleases, ExperimentReleasesArgs
from components.gpu_node_pool import GpuNodePool, GpuNodePoolArgs
from components.installers import InstallContext
from components.job_queueing import JobQueueing, JobQueueingArgs
from components.team import Team, TeamArgs
from components.training_operators import TrainingOperators, TrainingOperatorsArgs
from trainstack.deployment import CHART_PATH, prepare_for_program

deployment = prepare_for_program()
config = deployment.stack.config
cluster = kubernetes_provider("cluster", deployment.stack)

pool = GpuNodePool("gpu", GpuNodePoolArgs(config.node_pool, config.cluster, cluster))
teams = {
    team.name: Team(
        team.name, TeamArgs(team, config.ceiling(team), cluster, config.queueing.enabled)
    )
    for team in config.teams
}
queues = (
    [
        JobQueueing(
            "queueing",
            JobQueueingArgs(
                config.queueing,
                config.node_pool,
                config.teams,
                list(teams.values()),
                cluster,
                config.operators,
            ),
        )
    ]
    if config.queueing.enabled
    else []
)
datasets = [
    DatasetVolume(
        dataset.name, DatasetVolumeArgs(dataset, config.cluster, cluster, list(teams.values()))
    )
    for dataset in config.datasets
]
operators = TrainingOperators(
    "operators",
    TrainingOperatorsArgs(
        config.operators,
        InstallContext(config.cluster, cluster, deployment.stack.source, deployment.offline),
    ),
)
component = config.acceleration.component
acceleration = (
    [Acceleration("acceleration", AccelerationArgs(component, config.cluster, cluster))]
    if config.acceleration.enabled and component is not None
    else []
)
experiments = ExperimentReleases(
    "experiments",
    ExperimentReleasesArgs(
        deployment.experiments,
        CHART_PATH,
        cluster,
        [operators, *datasets, *acceleration],
        teams,
        queues,
    ),
)

pulumi.export("gpuCapacity", config.node_pool.gpu_capacity)
pulumi.export("nodePoolId", pool.node_pool_id)
pulumi.export("datasetClaims", [volume.claim_name for volume in datasets])
pulumi.export("operators", operators.installed)
pulumi.export("accelerated", config.acceleration.enabled)
pulumi.export("experiments", experiments.release_names)
pulumi.export("teamNamespaces", [team.namespace for team in teams.values()])
