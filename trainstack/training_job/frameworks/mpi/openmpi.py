"""What Open MPI needs from the pods of an MPIJob: the ranks' environment over ssh, and the
shared-memory warning both MPI frameworks give.

**The ranks' environment over ssh** (MPIJob v2beta1). A rank started through ssh gets
what mpirun exports, not its worker pod's env: sshd starts a session of its own. Open
MPI 4 forwards every ``OMPI_*``/``PMIX_*`` variable of mpirun's environment, then the
``-x`` lines of its env files, then ``-x`` of the command line (open-mpi/ompi v4.1.6
orte/mca/schizo/ompi/schizo_ompi.c:695-731). Workload 1's ``launch_arena.sh`` calls
``mpirun -x ...`` itself, and ``-x`` beside ``OMPI_MCA_mca_base_env_list`` is fatal
(schizo_ompi.c:733-737, help-orterun.txt:669-676 ``orterun:conflict-env-set``); an env
file is not (mpirun(1) v4.1.6 orterun.1in:1719-1730, "Setting MCA parameters and
environment variables from file": ``-mca mca_base_envar_file_prefix FILE``, lines ``-x
var``; parsed by opal/util/keyval/keyval_lex.l:89-90). So the chart gives every pod such
a file, made by the kubelet from a pod annotation, and points mpirun at it with
``OMPI_MCA_mca_base_envar_file_prefix`` (``training-job.mpi.rankEnv``): its names are
:func:`rank_env`'s. Each name's value is read from mpirun's (the launcher's) environment.

Open MPI's shared-memory transport (the ``vader``/``sm`` BTL) copies between the ranks of
one node with cross-memory attach, ``process_vm_readv``/``process_vm_writev``: the kernel
allows them like ``ptrace``, and in containers, under the runtime's default seccomp profile
and Yama's ptrace scope, that usually takes ``CAP_SYS_PTRACE`` (open-mpi/ompi#4948; the
Open MPI FAQ on running in containers). Without it every intra-node transfer fails or
falls back to a slower copy. ``OMPI_MCA_btl_vader_single_copy_mechanism=none`` turns cross-
memory attach off instead (no capability, an extra copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainstack.training_job.frameworks.spec import JobWarning, Violation

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

RANK_ENV_ANNOTATION = "trainstack.io/mpi-rank-env"
"""The pod annotation holding the env file (one ``-x NAME`` line a variable)."""
RANK_ENV_DIR = "/etc/trainstack/mpi"
RANK_ENV_FILE = f"{RANK_ENV_DIR}/rank-env.conf"
ENV_FILE_SETTING = "OMPI_MCA_mca_base_envar_file_prefix"
ENV_LIST_SETTING = "OMPI_MCA_mca_base_env_list"
ARENA_ENV = ("workers", "gpus")
"""What arenaSubmit sets on every container that a rank reads too (launch_arena.sh's)."""
CAPABILITY = "SYS_PTRACE"
OFF_SWITCH = "OMPI_MCA_btl_vader_single_copy_mechanism"


def shared_memory_warnings(job: TrainingJob, ranks: int) -> list[JobWarning]:
    """A warning when ``ranks`` Open MPI ranks share a worker pod that cannot attach
    to each other's memory."""
    security = job.security
    if ranks <= 1 or security.privileged or security.seccomp_profile != "RuntimeDefault":
        return []
    added = job.worker.security.capabilities.add
    if added is None:
        added = security.capabilities.add
    if CAPABILITY in added or OFF_SWITCH in {**job.env, **job.worker.env}:
        return []
    return [
        JobWarning(
            "openMpiPtrace",
            "job.security.capabilities.add",
            f"no {CAPABILITY} for {ranks} Open MPI ranks per pod under the RuntimeDefault "
            "seccomp profile: Open MPI's shared-memory transfers use process_vm_readv, which "
            f"the runtime refuses without it; add {CAPABILITY} (Pod Security baseline "
            f"refuses it: the team needs podSecurity privileged), or set {OFF_SWITCH}: none "
            "in env",
        )
    ]


def rank_env(job: TrainingJob) -> list[str]:
    """The variables the v2beta1 launcher's Open MPI exports to every rank through the env
    file, sorted: the job's env but OMPI_* (Open MPI forwards them) and what differs from
    pod to pod (fieldRef, resourceFieldRef) or may be unset (optional references: Open
    MPI stops at the first unset name, mca_base_var.c:308-314), and Arena's workers and
    gpus with arenaSubmit. As the chart's ``training-job.mpi.rankEnv``."""
    if job.mpi.implementation != "OpenMPI":
        return []
    names = set(ARENA_ENV) if job.arena_submit else set()
    for name, value in job.env.items():
        if name.startswith("OMPI_"):
            continue
        if isinstance(value, str):
            names.add(name)
            continue
        source = value.value_from
        reference = source.secret_key_ref or source.config_map_key_ref
        if reference is not None and not reference.optional:
            names.add(name)
    return sorted(names)


def env_file_rules(job: TrainingJob) -> list[Violation]:
    """What would undo the env file: the chart sets ENV_FILE_SETTING itself, and Open MPI
    refuses ENV_LIST_SETTING beside an env file (schizo_ompi.c:764-787)."""
    if job.mpi.implementation != "OpenMPI":
        return []
    found = []
    for where, env in (("env", job.env), ("mpi.launcher.env", job.mpi.launcher.env)):
        for name, why in (
            (ENV_FILE_SETTING, "the chart sets it to export the job's env to the ranks"),
            (
                ENV_LIST_SETTING,
                "Open MPI refuses it beside the env file the chart exports the job's env "
                "with (and beside any mpirun -x); list the variables in env instead",
            ),
        ):
            if name in env:
                found.append(Violation(f"{where}.{name}", env[name], f"unset ({why})"))
    return found
