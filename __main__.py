"""The trainstack Pulumi program: load and check the stack, create the components.

Only wiring lives here; defaults and rules are in ``trainstack/``, resources in
``components/``. ``pulumi up -s <stack>`` and ``trainstack plan <stack>`` run this file.
A data stack (``trainstack:dataStore``) creates file systems and exports their facts; a
cluster stack creates everything else and mounts data stacks through StackReferences.
"""

from pathlib import Path

import pulumi

from components.acceleration import Acceleration, AccelerationArgs
from components.clusters.provider import kubernetes_provider
from components.clusters.registry import make_data_store, node_pool, provision
from components.dataset_volume import DatasetVolume, DatasetVolumeArgs
from components.experiment_releases import ExperimentReleases, ExperimentReleasesArgs
from components.installers import InstallContext
from components.job_queueing import JobQueueing, JobQueueingArgs
from components.team import Team, TeamArgs
from components.training_operators import TrainingOperators, TrainingOperatorsArgs
from trainstack.config.loader import LoadedDataStack, LoadedStack
from trainstack.conformance.cluster_gate import crd_gate
from trainstack.deployment import CHART_PATH, Deployment, handed_over, prepare_for_program


def data_stack(stack: LoadedDataStack) -> None:
    """The file systems of a data stack, and their facts as ``<name>.<fact>`` outputs."""
    make_data_store(stack.config.data_store)


def cluster_stack(deployment: Deployment, stack: LoadedStack) -> None:
    """Pools, teams, queues, datasets, operators, acceleration and experiments."""
    config = stack.config
    target = provision(config.cluster)  # the cluster itself, when the stack creates it
    access = kubernetes_provider("cluster", stack, target)
    cluster = access.provider
    first_gpu = config.gpu_pools[0] if config.gpu_pools else None
    made = [node_pool(pool, target, cluster, pool is first_gpu) for pool in config.node_pools]
    pool_ids = [pool_id for pool_id in made if pool_id is not None]
    teams = {
        team.name: Team(
            team.name,
            TeamArgs(
                team=team,
                ceiling=deployment.enforcement[team.name].ceiling,
                kubernetes=cluster,
                queueing=config.queueing.enabled,
            ),
        )
        for team in config.teams
    }
    queues = (
        [
            JobQueueing(
                "queueing",
                JobQueueingArgs(
                    queueing=config.queueing,
                    pools=config.node_pools,
                    teams=config.teams,
                    team_resources=list(teams.values()),
                    kubernetes=cluster,
                    operators=config.operators,
                    allocatable={pool.name: config.allocatable(pool) for pool in config.node_pools},
                ),
            )
        ]
        if config.queueing.enabled
        else []
    )
    references = {
        name: pulumi.StackReference(
            f"data-{name}",
            stack_name=f"{pulumi.get_organization()}/{pulumi.get_project()}/{name}",
        )
        for name in deployment.referenced_stacks
    }
    datasets = [
        DatasetVolume(
            dataset.name,
            DatasetVolumeArgs(
                dataset=dataset,
                resolved=resolved,
                cluster=target,
                kubernetes=cluster,
                depends_on=list(teams.values()),
                reference=(
                    references.get(resolved.reference.stack.name) if resolved.reference else None
                ),
            ),
        )
        for dataset, resolved in zip(config.datasets, deployment.datasets, strict=True)
    ]
    operators = TrainingOperators(
        "operators",
        TrainingOperatorsArgs(
            operators=config.operators,
            context=InstallContext(
                cluster=target,
                kubernetes=cluster,
                source=stack.source,
                offline=deployment.offline,
            ),
        ),
    )
    component = config.acceleration.component
    acceleration = (
        [
            Acceleration(
                "acceleration",
                AccelerationArgs(component=component, cluster=target, kubernetes=cluster),
            )
        ]
        if config.acceleration.enabled and component is not None
        else []
    )
    experiments = ExperimentReleases(
        "experiments",
        ExperimentReleasesArgs(
            experiments=deployment.experiments,
            chart_path=CHART_PATH,
            kubernetes=cluster,
            prerequisites=[operators, *datasets, *acceleration],
            teams=teams,
            queues=queues,
            gate=crd_gate(
                deployment, Path(CHART_PATH), access.kubeconfig, access.context, operators.ready
            ),
        ),
    )
    pulumi.export("gpuCapacity", sum(pool.gpu_capacity for pool in config.node_pools))
    pulumi.export("nodePoolIds", pool_ids)
    pulumi.export("datasetClaims", [volume.claim_name for volume in datasets])
    pulumi.export("operators", operators.installed)
    pulumi.export("accelerated", config.acceleration.enabled)
    pulumi.export("experiments", experiments.release_names)
    pulumi.export("teamNamespaces", [team.namespace for team in teams.values()])


# Under `trainstack plan`, the deployment the plan prepared (see trainstack/deployment.py).
deployment = prepare_for_program(handed_over())
if isinstance(deployment.stack, LoadedDataStack):
    data_stack(deployment.stack)
else:
    cluster_stack(deployment, deployment.stack)
