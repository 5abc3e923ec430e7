"""PopulateJob: the Job that fills a dataset once, or the Job that waits for it.

On the cluster stack the data stack names (``populate.stack``) the Job mounts the
dataset's claim read-write and runs the spec's command inside the marker logic of
:mod:`components.populate_marker`; on every other cluster stack mounting the same file
system a Job mounts it read-only and waits for the marker to hold the spec's digest.

Experiments wait for either through Pulumi's ordering: ``pulumi up`` awaits a Job until
it succeeds (pulumi-kubernetes' await logic for ``batch/v1`` Jobs), the Job is a child of
the dataset's :class:`DatasetVolume`, and the experiments' releases depend on the
datasets; so no experiment is created on a half-filled dataset, on any stack. Each Job's
``activeDeadlineSeconds`` bounds it, and Pulumi's create timeout is the same deadline.

Secure by default: non-root (``runAsNonRoot``, the spec's user), no privilege
escalation, every capability dropped, the runtime's seccomp profile, no service account
token; credentials only from Secrets referenced by name.
"""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from components.populate_marker import POPULATE_SCRIPT, WAIT_SCRIPT
from trainstack.config.data_sources import populate_job_name
from trainstack.config.populate import POPULATE_DIGEST, Populate

MOUNT = "/data"


@dataclass(frozen=True)
class PopulateJobArgs:
    """The spec, the claim and namespace of the dataset, whether this stack runs it (or
    waits), the Kubernetes provider and what must exist first (the claim)."""

    spec: Populate
    dataset: str
    claim: str
    namespace: str
    runs: bool
    kubernetes: k8s.Provider
    depends_on: tuple[pulumi.Resource, ...] = ()


class PopulateJob(pulumi.ComponentResource):
    """A ``batch/v1`` Job that populates the dataset (or waits until it is)."""

    def __init__(
        self, name: str, args: PopulateJobArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:storage:PopulateJob", name, None, opts)
        spec = args.spec
        deadline = spec.deadline_hours * 3600
        role = "populate" if args.runs else "wait-populated"
        env = [
            k8s.core.v1.EnvVarArgs(name="TRAINSTACK_DATA_DIR", value=MOUNT),
            k8s.core.v1.EnvVarArgs(name="TRAINSTACK_POPULATE_DIGEST", value=spec.digest),
        ]
        if args.runs:
            env.append(
                k8s.core.v1.EnvVarArgs(
                    name="TRAINSTACK_POPULATE_OVERWRITE",
                    value="true" if spec.overwrite else "false",
                )
            )
            env += [k8s.core.v1.EnvVarArgs(name=k, value=v) for k, v in sorted(spec.env.items())]
            env += [
                k8s.core.v1.EnvVarArgs(
                    name=ref.name,
                    value_from=k8s.core.v1.EnvVarSourceArgs(
                        secret_key_ref=k8s.core.v1.SecretKeySelectorArgs(
                            name=ref.secret, key=ref.key
                        )
                    ),
                )
                for ref in spec.secret_env
            ]
            command = ["/bin/sh", "-c", POPULATE_SCRIPT, "populate", *(spec.command or [])]
        else:
            command = ["/bin/sh", "-c", WAIT_SCRIPT]
        amounts = {"cpu": spec.resources.cpu, "memory": spec.resources.memory}
        container = k8s.core.v1.ContainerArgs(
            name=role,
            image=spec.image,
            command=command,
            env=env,
            resources=k8s.core.v1.ResourceRequirementsArgs(requests=amounts, limits=amounts)
            if args.runs
            else None,
            volume_mounts=[
                k8s.core.v1.VolumeMountArgs(name="data", mount_path=MOUNT, read_only=not args.runs)
            ],
            security_context=k8s.core.v1.SecurityContextArgs(
                allow_privilege_escalation=False,
                privileged=False,
                capabilities=k8s.core.v1.CapabilitiesArgs(drop=["ALL"]),
            ),
        )
        labels = {
            "app.kubernetes.io/managed-by": "trainstack",
            "trainstack.io/dataset": args.dataset,
        }
        k8s.batch.v1.Job(
            f"{name}-job",
            metadata=k8s.meta.v1.ObjectMetaArgs(
                name=populate_job_name(args.dataset, args.runs),
                namespace=args.namespace,
                labels=labels,
                annotations={POPULATE_DIGEST: spec.digest},
            ),
            spec=k8s.batch.v1.JobSpecArgs(
                backoff_limit=0 if args.runs else 2,
                active_deadline_seconds=deadline,
                template=k8s.core.v1.PodTemplateSpecArgs(
                    metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels),
                    spec=k8s.core.v1.PodSpecArgs(
                        restart_policy="Never",
                        automount_service_account_token=False,
                        security_context=k8s.core.v1.PodSecurityContextArgs(
                            run_as_non_root=True,
                            run_as_user=spec.run_as_user,
                            seccomp_profile=k8s.core.v1.SeccompProfileArgs(type="RuntimeDefault"),
                        ),
                        containers=[container],
                        volumes=[
                            k8s.core.v1.VolumeArgs(
                                name="data",
                                persistent_volume_claim=k8s.core.v1.PersistentVolumeClaimVolumeSourceArgs(
                                    claim_name=args.claim, read_only=not args.runs
                                ),
                            )
                        ],
                    ),
                ),
            ),
            opts=pulumi.ResourceOptions(
                parent=self,
                provider=args.kubernetes,
                depends_on=list(args.depends_on),
                custom_timeouts=pulumi.CustomTimeouts(create=f"{deadline}s", update=f"{deadline}s"),
            ),
        )
        self.register_outputs({})
