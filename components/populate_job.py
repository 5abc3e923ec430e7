"""PopulateJob: the Job that fills a dataset once, or the Job that waits for it.

On the cluster stack the data stack names (``populate.stack``) the Job mounts the
dataset's claim read-write and runs the populate script of
:mod:`components.populate_marker` (fetch, convert, the optional command, verify,
manifest, marker), its inputs as environment variables and a ConfigMap of files; on
every other cluster stack mounting the same file system a Job mounts it read-only and
waits for the marker to hold the spec's digest.

Bounded, with the reason. Each Job has an explicit ``activeDeadlineSeconds`` (the spec's
``deadlineHours``) and ``backoffLimit: 0``: a 403, a 404 or a wrong sha256 fails the same
way twice, and the script resumes from what it kept when the Job is created again.
Pulumi's create/update timeout is the deadline plus a margin, so the Job's own deadline
(whose reason Kubernetes records) comes first; pulumi-kubernetes' await for
``batch/v1`` Jobs fails ``pulumi up`` when the Job fails. The script's last line is the
reason: written to the termination log (``terminationMessagePolicy:
FallbackToLogsOnError`` takes the log's tail when nothing was written), and to
``.trainstack-populate-failed`` at the file system's root with the spec's digest, which
the waiting Jobs of the other stacks read to end with the same reason at once instead
of waiting out their deadline. Experiments wait for either through Pulumi's ordering:
the Job is a child of the dataset's :class:`DatasetVolume`, and the experiments'
releases depend on the datasets.

Write permission, least privilege. A NAS (NFS) file system's root belongs to root, and
Kubernetes does not help: ``fsGroup`` is not applied to these volumes (the Kubernetes
API's ``CSIDriverSpec.fsGroupPolicy``, storage.k8s.io/v1: the default
``ReadWriteOnceWithFSType`` changes ownership only for a volume with an fsType whose
access modes contain ReadWriteOnce; the datasets are ReadWriteMany NFS mounts without
fsType, so kubelet leaves them alone; the in-tree ``nfs`` volume supports no ownership
management at all). So a one-shot init container, root with every capability dropped
but ``CHOWN`` (no DAC override, no privilege escalation), gives the mount's root
directory (not recursively) to the Job's user and group, which then writes as a
non-root user. This needs the NAS permission group to let root's requests through
unsquashed (a ``no_root_squash``/"no squash" rule, NAS's default for its VPC group)
and a namespace whose Pod Security level admits ``CHOWN`` (``baseline``; ``restricted``
admits only ``NET_BIND_SERVICE``). The waiting Jobs only read.

Secure by default otherwise: the main container non-root (``runAsNonRoot``, the
spec's user), no privilege escalation, every capability dropped, the runtime's seccomp
profile, no service account token (RRSA's own token is projected by ACK's webhook into
pods of the service account it names); credentials only from Secrets referenced by name.
"""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_kubernetes as k8s

from components.populate_marker import CONFIG_MOUNT, POPULATE_SCRIPT, WAIT_SCRIPT, script_inputs
from trainstack.config.data_sources import populate_job_name
from trainstack.config.populate import POPULATE_DIGEST, Populate
from trainstack.config.populate_sources import (
    ConvertSource,
    OssRrsaCredentials,
    OssSecretCredentials,
    OssSource,
)
from trainstack.core.names import MANAGED_BY

MOUNT = "/data"
TERMINATION_LOG = "/dev/termination-log"
# Pulumi waits this much past the Job's own deadline, so that the Job's reason comes first.
AWAIT_MARGIN_SECONDS = 600


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


def _value(name: str, value: str) -> k8s.core.v1.EnvVarArgs:
    return k8s.core.v1.EnvVarArgs(name=name, value=value)


def _secret(name: str, secret: str, key: str) -> k8s.core.v1.EnvVarArgs:
    return k8s.core.v1.EnvVarArgs(
        name=name,
        value_from=k8s.core.v1.EnvVarSourceArgs(
            secret_key_ref=k8s.core.v1.SecretKeySelectorArgs(name=secret, key=key)
        ),
    )


def _oss(spec: Populate) -> OssSource | None:
    source = spec.source
    fetch = source.from_ if isinstance(source, ConvertSource) else source
    return fetch if isinstance(fetch, OssSource) else None


def _populate_env(spec: Populate) -> list[k8s.core.v1.EnvVarArgs]:
    """The script's inputs, then the OSS credentials from their Secret, then the
    command's own variables."""
    env = [_value("TRAINSTACK_POPULATE_OVERWRITE", "true" if spec.overwrite else "false")]
    env += [_value(k, v) for k, v in sorted(script_inputs(spec).env.items())]
    oss = _oss(spec)
    if oss is not None and isinstance(oss.credentials, OssSecretCredentials):
        credentials = oss.credentials
        env += [
            _secret("OSS_ACCESS_KEY_ID", credentials.secret, credentials.access_key_id_key),
            _secret("OSS_ACCESS_KEY_SECRET", credentials.secret, credentials.access_key_secret_key),
        ]
    env += [_value(k, v) for k, v in sorted(spec.env.items())]
    env += [_secret(ref.name, ref.secret, ref.key) for ref in spec.secret_env]
    return env


def _hardened() -> k8s.core.v1.SecurityContextArgs:
    return k8s.core.v1.SecurityContextArgs(
        allow_privilege_escalation=False,
        privileged=False,
        capabilities=k8s.core.v1.CapabilitiesArgs(drop=["ALL"]),
    )


class PopulateJob(pulumi.ComponentResource):
    """A ``batch/v1`` Job that populates the dataset (or waits until it is)."""

    def __init__(
        self, name: str, args: PopulateJobArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        super().__init__("trainstack:storage:PopulateJob", name, None, opts)
        spec = args.spec
        deadline = spec.deadline_hours * 3600
        role = "populate" if args.runs else "wait-populated"
        job_name = populate_job_name(args.dataset, args.runs)
        labels = {**MANAGED_BY, "trainstack.io/dataset": args.dataset}
        in_cluster = pulumi.ResourceOptions(parent=self, provider=args.kubernetes)
        env = [
            _value("TRAINSTACK_DATA_DIR", MOUNT),
            _value("TRAINSTACK_POPULATE_DIGEST", spec.digest),
            _value("TRAINSTACK_TERMINATION_LOG", TERMINATION_LOG),
        ]
        mounts = [
            k8s.core.v1.VolumeMountArgs(name="data", mount_path=MOUNT, read_only=not args.runs)
        ]
        volumes = [
            k8s.core.v1.VolumeArgs(
                name="data",
                persistent_volume_claim=k8s.core.v1.PersistentVolumeClaimVolumeSourceArgs(
                    claim_name=args.claim, read_only=not args.runs
                ),
            )
        ]
        init_containers = None
        service_account = None
        depends_on = list(args.depends_on)
        if args.runs:
            env += _populate_env(spec)
            command = ["/bin/sh", "-c", POPULATE_SCRIPT, "populate", *(spec.command or [])]
            config = k8s.core.v1.ConfigMap(
                f"{name}-inputs",
                metadata=k8s.meta.v1.ObjectMetaArgs(
                    name=job_name,
                    namespace=args.namespace,
                    labels=labels,
                    annotations={POPULATE_DIGEST: spec.digest},
                ),
                data=script_inputs(spec).files,
                opts=in_cluster,
            )
            depends_on.append(config)
            mounts.append(
                k8s.core.v1.VolumeMountArgs(name="inputs", mount_path=CONFIG_MOUNT, read_only=True)
            )
            volumes.append(
                k8s.core.v1.VolumeArgs(
                    name="inputs",
                    config_map=k8s.core.v1.ConfigMapVolumeSourceArgs(name=job_name),
                )
            )
            init_containers = [self._chown(spec, mounts[0])]
            oss = _oss(spec)
            if oss is not None and isinstance(oss.credentials, OssRrsaCredentials):
                service_account = oss.credentials.service_account
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
            volume_mounts=mounts,
            termination_message_path=TERMINATION_LOG,
            termination_message_policy="FallbackToLogsOnError",
            security_context=_hardened(),
        )
        k8s.batch.v1.Job(
            f"{name}-job",
            metadata=k8s.meta.v1.ObjectMetaArgs(
                name=job_name,
                namespace=args.namespace,
                labels=labels,
                annotations={POPULATE_DIGEST: spec.digest},
            ),
            spec=k8s.batch.v1.JobSpecArgs(
                backoff_limit=0,
                active_deadline_seconds=deadline,
                template=k8s.core.v1.PodTemplateSpecArgs(
                    metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels),
                    spec=k8s.core.v1.PodSpecArgs(
                        restart_policy="Never",
                        service_account_name=service_account,
                        automount_service_account_token=False,
                        security_context=k8s.core.v1.PodSecurityContextArgs(
                            run_as_non_root=True,
                            run_as_user=spec.run_as_user,
                            run_as_group=spec.run_as_user,
                            seccomp_profile=k8s.core.v1.SeccompProfileArgs(type="RuntimeDefault"),
                        ),
                        init_containers=init_containers,
                        containers=[container],
                        volumes=volumes,
                    ),
                ),
            ),
            opts=pulumi.ResourceOptions(
                parent=self,
                provider=args.kubernetes,
                depends_on=depends_on,
                custom_timeouts=pulumi.CustomTimeouts(
                    create=f"{deadline + AWAIT_MARGIN_SECONDS}s",
                    update=f"{deadline + AWAIT_MARGIN_SECONDS}s",
                ),
            ),
        )
        self.register_outputs({})

    @staticmethod
    def _chown(spec: Populate, data: k8s.core.v1.VolumeMountArgs) -> k8s.core.v1.ContainerArgs:
        """The one-shot step giving the mount's root to the Job's user (see above)."""
        owner = f"{spec.run_as_user}:{spec.run_as_user}"
        return k8s.core.v1.ContainerArgs(
            name="own-data-root",
            image=spec.image,
            command=["chown", owner, MOUNT],
            volume_mounts=[data],
            termination_message_policy="FallbackToLogsOnError",
            resources=k8s.core.v1.ResourceRequirementsArgs(
                requests={"cpu": "100m", "memory": "64Mi"},
                limits={"cpu": "100m", "memory": "64Mi"},
            ),
            security_context=k8s.core.v1.SecurityContextArgs(
                run_as_user=0,
                run_as_group=0,
                run_as_non_root=False,
                allow_privilege_escalation=False,
                privileged=False,
                capabilities=k8s.core.v1.CapabilitiesArgs(drop=["ALL"], add=["CHOWN"]),
            ),
        )
