"""What a framework's job runs with where its values leave a key null, and what ``arena
submit`` gives it: data on each :class:`~trainstack.training_job.frameworks.spec.FrameworkSpec`
(``run_defaults``, ``arena``), with the sources beside each framework's values.

``trainstack.training_job.defaults`` and ``arena_submit`` read them in Python;
``trainstack chart generate`` writes them into each framework's ``training-job.<framework>.info``
(``runDefaults``, ``arena``), which ``_defaults.tpl`` and ``_arena.tpl`` read. Neither
side tests a framework's name: a framework without Arena support says so (``arena=None``)
rather than falling into another's branch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from trainstack.training_job.dialects import Dialect
from trainstack.training_job.run_policy import RestartPolicy


@dataclass(frozen=True)
class RoleRestart:
    """One role's restart policy, where neither the role nor ``runPolicy`` sets one."""

    role: str
    policy: RestartPolicy
    beside: str = ""
    """Only when the job also starts pods of this role (TensorFlow's workers beside a
    chief); without them the role takes the default policy. Empty: always."""


@dataclass(frozen=True)
class RestartDefaults:
    """The restart policy of each role whose own key and ``runPolicy.restartPolicy`` are null."""

    policy: RestartPolicy
    """The policy of every role ``roles`` does not name."""
    roles: tuple[RoleRestart, ...] = ()

    def of(self, role: str, replicas: Mapping[str, int]) -> RestartPolicy:
        """The policy of ``role`` in a job with ``replicas`` pods per role."""
        for entry in self.roles:
            if entry.role == role and (not entry.beside or replicas.get(entry.beside, 0) > 0):
                return entry.policy
        return self.policy


@dataclass(frozen=True)
class RunDefaults:
    """trainstack's defaults for a framework's job (Arena's, with ``arenaSubmit``:
    :class:`ArenaSettings`)."""

    restart: RestartDefaults
    """Each role's restart policy when ``runPolicy.restartPolicy`` is null too."""
    pinned: tuple[tuple[str, RestartPolicy], ...] = ()
    """Roles whose restart policy ``runPolicy.restartPolicy`` does not set, with or without
    ``arenaSubmit``: their own key, else this (MPI's workers: Never)."""


@dataclass(frozen=True)
class ArenaSettings:
    """What ``arena submit <command>`` gives a job of the framework beyond its flags
    (``arenaSubmit: true``; docs/arena-parity.md)."""

    command: str
    """The ``arena submit`` command that submits it (``mpi``, ``tf``, ``pytorch``)."""
    app: str
    """Arena's label ``app`` on the job and its pods (``mpijob``); ``createdBy`` is the kind."""
    workers: tuple[str, ...]
    """The roles whose pods ``--workers`` (env ``workers``) counts: PyTorch's master too."""
    gpu_roles: tuple[str, ...]
    """The roles whose GPUs the annotation ``requestGPUsOfJobOwner`` counts."""
    restart: RestartDefaults
    """Arena's chart's restart policy per role, when ``runPolicy.restartPolicy`` is null."""
    backoff_limit: int | None
    """The ``backoffLimit`` Arena's chart renders (``--retry``, default 0); ``None``: it
    renders none (the operator's)."""
    clean_pod_policy: tuple[tuple[Dialect, str], ...] = ()
    """Arena's ``--clean-task-policy`` default in the dialects that render it; in the
    others trainstack's ``Running`` stays (docs/arena-parity.md says why)."""
    hides_gpus: tuple[str, ...] = ()
    """Roles whose containers get ``NVIDIA_VISIBLE_DEVICES=void`` when they have no GPU of
    their own (every role gets it when the workers have none)."""
