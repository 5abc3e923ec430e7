"""The real workloads of workloads.md, as planned on the example stacks."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from tests.conformance import crd_dir
from tests.conftest import StackWriter
from tests.stack_helpers import on_ack_arena
from trainstack.config.populate_sources import OssSource
from trainstack.conformance.validate import pod_templates
from trainstack.plan.crd_dir import crd_dir_from
from trainstack.plan.model import Plan
from trainstack.plan.runner import plan_stack


def _job(plan: Plan, name: str) -> dict[str, Any]:
    (rendered,) = [r.object for r in plan.objects if r.key[2] == name]
    return rendered


def _container(spec: dict[str, Any], role: str) -> dict[str, Any]:
    (container,) = spec["template"]["spec"]["containers"]
    assert container["name"] == role
    return container


def test_imagenet_is_the_arena_command_as_an_mpijob(example_plans: dict[str, Plan]) -> None:
    for stack in ("aiacc", "baseline"):
        job = _job(example_plans[stack], "imagenet-tensorflow")
        assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v2beta1", "MPIJob")
        spec = job["spec"]
        assert spec["slotsPerWorker"] == 4
        replicas = spec["mpiReplicaSpecs"]
        worker, launcher = replicas["Worker"], replicas["Launcher"]
        assert worker["replicas"] == 4
        worker_container = _container(worker, "worker")
        launcher_container = _container(launcher, "launcher")
        assert worker_container["resources"]["limits"]["nvidia.com/gpu"] == 4
        assert "nvidia.com/gpu" not in launcher_container.get("resources", {}).get("limits", {})
        # Arena's image with mpi-operator's ssh setup added (images/aiacc-ssh/Dockerfile)
        image = (
            "<image built from images/aiacc-ssh/Dockerfile (FROM "
            "cuda11-registry.cn-beijing.cr.aliyuncs.com/aiacc/cuda11:v3.0)>"
        )
        for role, container in (("worker", worker), ("launcher", launcher)):
            pod = container["template"]["spec"]
            claims = {
                v["name"]: v["persistentVolumeClaim"]["claimName"]
                for v in pod["volumes"]
                if "persistentVolumeClaim" in v
            }
            mounts = {m["mountPath"]: m["name"] for m in pod["containers"][0]["volumeMounts"]}
            assert claims[mounts["/data"]] == "imagenet-data", role
            assert pod["containers"][0]["workingDir"] == "/data", role
            assert pod["containers"][0]["image"] == image, role
        assert launcher_container["command"] == [
            "sh",
            "-c",
            "sh /data/tensorflow-imagenet/launch_arena.sh",
        ]
        # each pod checks first what launch_arena.sh reads (docs/preflight.md)
        for spec in (worker, launcher):
            (preflight,) = spec["template"]["spec"]["initContainers"]
            env = {e["name"]: e.get("value") for e in preflight["env"]}
            assert env["TRAINSTACK_PREFLIGHT_ENV"] == "workers gpus"
            assert (env["workers"], env["gpus"]) == ("4", "4")


def test_imagenet_on_ack_arena_is_a_v1alpha1_mpijob_its_crd_accepts(
    write_stack: StackWriter,
) -> None:
    crd_dir()  # skips, saying why, without the reference CRDs
    for stack in ("aiacc", "baseline"):
        # the plan checks every object against ack-arena's CRDs: a refusal fails it
        plan = plan_stack(write_stack(on_ack_arena(stack)), "test", crd_dir=crd_dir_from(None))
        job = _job(plan, "imagenet-tensorflow")
        assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v1alpha1", "MPIJob")
        assert job["spec"]["replicas"] == 4
        assert job["spec"]["mountsOnLauncher"] is True
        (container,) = job["spec"]["template"]["spec"]["containers"]
        assert container["resources"]["limits"]["nvidia.com/gpu"] == 4
        # the launcher reads the workers' preflight first (docs/preflight.md), then runs it
        assert container["command"][3:] == [
            "trainstack-preflight",
            "sh",
            "-c",
            "sh /data/tensorflow-imagenet/launch_arena.sh",
        ]


def _without_run_metadata(values: dict[str, Any]) -> dict[str, Any]:
    labels = {k: v for k, v in values["labels"].items() if k != "trainstack.io/experiment"}
    return {**values, "labels": labels, "annotations": {}}


def test_both_clusters_run_the_same_job_but_for_acceleration(
    example_plans: dict[str, Plan],
) -> None:
    aiacc, baseline = example_plans["aiacc"], example_plans["baseline"]
    for experiment in aiacc.experiments:
        (twin,) = [e for e in baseline.experiments if e.release_name == experiment.release_name]
        assert experiment.base_values == twin.base_values == _without_run_metadata(twin.values)
        # Same run, same base values: the same annotations tell collect what it reads.
        assert (
            experiment.values["annotations"]
            == twin.values["annotations"]
            == {
                "trainstack.io/run": "1",
                "trainstack.io/base-values-digest": twin.base_digest,
            }
        )
        assert experiment.acceleration_overrides == {"env": {"PERSEUS_ALLREDUCE_DTYPE": "0"}}
        assert experiment.values["env"]["PERSEUS_ALLREDUCE_DTYPE"] == "0"
        assert "PERSEUS_ALLREDUCE_DTYPE" not in twin.values.get("env", {})


def test_onprem_horovod_run(example_plans: dict[str, Plan]) -> None:
    job = _job(example_plans["onprem"], "horovod-resnet50-onprem")
    worker = job["spec"]["mpiReplicaSpecs"]["Worker"]
    pod = worker["template"]["spec"]
    assert worker["replicas"] == 2
    assert pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == 8
    assert pod["hostNetwork"] is True
    assert pod["dnsPolicy"] == "ClusterFirstWithHostNet"
    assert pod["containers"][0]["securityContext"]["privileged"] is True
    claims = sorted(
        v["persistentVolumeClaim"]["claimName"]
        for v in pod["volumes"]
        if "persistentVolumeClaim" in v
    )
    assert claims == ["pb-fg-all-iface1", "pb-fg-all-iface2", "tensorflow-results"]
    mounts = {m["mountPath"] for m in pod["containers"][0]["volumeMounts"]}
    assert {"/mnt/mount_0", "/mnt/mount_1", "/tmp", "/dev/shm"} <= mounts
    shm = [v for v in pod["volumes"] if v["name"] == "dshm"]
    assert shm == [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "64Gi"}}]


def test_workload_three_roles(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["baseline"]
    tf = _job(plan, "tf-multiworker-mnist")["spec"]["tfReplicaSpecs"]
    assert {role: spec["replicas"] for role, spec in tf.items()} == {"Chief": 1, "Worker": 2}
    pt = _job(plan, "pytorch-ddp-mnist")["spec"]["pytorchReplicaSpecs"]
    assert {role: spec["replicas"] for role, spec in pt.items()} == {"Master": 1, "Worker": 2}
    for specs in (tf, pt):
        for spec in specs.values():
            limits = spec["template"]["spec"]["containers"][0]["resources"]["limits"]
            assert limits["nvidia.com/gpu"] == 1


def test_scale_out_points_put_one_worker_per_node(example_plans: dict[str, Plan]) -> None:
    plan = example_plans["baseline"]
    for name, workers, gpus in (("keras-lstm-1x4", 1, 4), ("keras-lstm-4x1", 4, 1)):
        worker = _job(plan, name)["spec"]["mpiReplicaSpecs"]["Worker"]
        assert worker["replicas"] == workers
        pod = worker["template"]["spec"]
        assert pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == gpus
        anti = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        assert anti[0]["topologyKey"] == "kubernetes.io/hostname"


SCRIPTS_DIR_ENV = "TRAINSTACK_WORKLOAD1_SCRIPTS_DIR"
"""Workload 1's published scripts (``../shared/reference/workload-1-scripts``): test data,
read in place, never copied into the project."""
MPIRUN_STUB = '#!/bin/sh\nprintf "%s\\n" "$@"\n'
"""mpirun that prints each argument it was given on a line of its own."""
OPEN_MPI_STUB = r"""#!/bin/sh
# Open MPI 4.1's mpirun, as far as the ranks' environment goes (open-mpi/ompi v4.1.6
# orte/mca/schizo/ompi/schizo_ompi.c parse_env): every OMPI_* variable, then the names of
# the "-x NAME" lines of the env file OMPI_MCA_mca_base_envar_file_prefix names, then -x
# of the command line; -x beside OMPI_MCA_mca_base_env_list is fatal.
out=$MPIRUN_RANK_ENV
: >"$out"
x=""
prev=""
for arg in "$@"; do
  [ "$prev" = -x ] && x="$x $arg"
  prev=$arg
done
if [ -n "$x" ] && [ -n "${OMPI_MCA_mca_base_env_list+set}" ]; then
  echo "orterun:conflict-env-set" >&2
  exit 1
fi
env | grep '^OMPI_' >>"$out"
if [ -n "$OMPI_MCA_mca_base_envar_file_prefix" ]; then
  while read -r flag name; do
    [ "$flag" = -x ] || continue
    printf '%s=%s
' "$name" "$(printenv "$name")" >>"$out"
  done <"$OMPI_MCA_mca_base_envar_file_prefix"
fi
for name in $x; do
  case "$name" in *=*) echo "$name" >>"$out" ;; *) printf '%s=%s
' "$name" "$(printenv "$name")" >>"$out" ;; esac
done
printf '%s\n' "$@"
"""
ENV_FILE_ANNOTATION = "trainstack.io/mpi-rank-env"


def _scripts_dir() -> Path:
    value = os.environ.get(SCRIPTS_DIR_ENV)
    if not value:
        pytest.skip(
            f"{SCRIPTS_DIR_ENV} is not set: point it at ../shared/reference/workload-1-scripts "
            "to run workload 1's launch_arena.sh against the rendered launcher"
        )
    directory = Path(value)
    assert (directory / "launch_arena.sh").is_file(), f"{SCRIPTS_DIR_ENV}={value}"
    return directory


def _launcher(plan: Plan) -> dict[str, Any]:
    job = _job(plan, "imagenet-tensorflow")
    (container,) = job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"]
    assert isinstance(container, dict)
    return container


def _launcher_pod(plan: Plan) -> dict[str, Any]:
    template = _job(plan, "imagenet-tensorflow")["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]
    assert isinstance(template, dict)
    return template


def _files_of(template: dict[str, Any], root: Path) -> dict[str, str]:
    """What the kubelet writes for the pod's downwardAPI volumes of annotations, under
    ``root``: mount path -> the file it wrote there."""
    annotations = template["metadata"].get("annotations", {})
    mounts = {m["name"]: m["mountPath"] for m in template["spec"]["containers"][0]["volumeMounts"]}
    written = {}
    for volume in template["spec"]["volumes"]:
        for item in volume.get("downwardAPI", {}).get("items", []):
            field = item["fieldRef"]["fieldPath"]
            key = re.fullmatch(r"metadata\.annotations\['([^']+)'\]", field)
            assert key, field
            path = root / mounts[volume["name"]].lstrip("/") / item["path"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(annotations[key.group(1)])
            written[mounts[volume["name"]]] = str(root / mounts[volume["name"]].lstrip("/"))
    return written


def _run_launcher(
    container: dict[str, Any],
    scripts: Path,
    tmp_path: Path,
    mpirun: str = MPIRUN_STUB,
    files: dict[str, str] | None = None,
) -> list[str]:
    """Run the rendered launcher's command in a real shell, with its env and working dir:
    the dataset at /data is a directory holding the published scripts, ``sh`` is bash (the
    scripts' own interpreter: launch_arena.sh uses bash's ``let``), ``mpirun`` a stub;
    ``files``: the pod's files (mount path -> where they are here), named so in the env."""
    data = tmp_path / "data"
    data.mkdir(parents=True)
    (data / "tensorflow-imagenet").symlink_to(scripts)
    stubs = tmp_path / "bin"
    stubs.mkdir()
    (stubs / "mpirun").write_text(mpirun)
    (stubs / "mpirun").chmod(0o755)
    (stubs / "sh").symlink_to("/bin/bash")
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "MPIRUN_RANK_ENV": str(tmp_path / "rank-env")}
    for item in container.get("env", []):
        assert "value" in item, item  # every variable the script reads has a literal value
        value = item["value"]
        for mount, here in (files or {}).items():
            if value.startswith(f"{mount}/"):
                value = here + value[len(mount) :]
        env[item["name"]] = value
    command = [part.replace("/data/", f"{data}/") for part in container["command"]]
    cwd = str(container.get("workingDir", "/")).replace("/data", str(data), 1)
    ran = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout.splitlines()


def test_launch_arena_sh_computes_16_ranks_4_per_node_on_both_clusters(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    scripts = _scripts_dir()
    for stack in ("aiacc", "baseline"):
        container = _launcher(example_plans[stack])
        assert container["command"][:2] == ["sh", "-c"]
        args = _run_launcher(container, scripts, tmp_path / stack)
        assert args[:5] == ["--allow-run-as-root", "-np", "16", "-npernode", "4"], stack
        assert args[-1] == "/data/tensorflow-imagenet/config_arena.sh"


def test_launch_arena_sh_exports_every_job_setting_to_every_rank(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    """Issue 32: over ssh a rank gets only what mpirun exports. The rendered launcher, its
    env file written from its annotation as the kubelet does, and workload 1's script
    unchanged: Open MPI's mpirun (a stand-in following its source) exports the
    acceleration setting, Arena's counts and the job's env, next to the script's own -x."""
    scripts = _scripts_dir()
    aiacc = example_plans["aiacc"]
    (experiment,) = [e for e in aiacc.experiments if e.release_name == "imagenet-tensorflow"]
    accelerated = experiment.acceleration_overrides["env"]
    assert accelerated, "the aiacc stack sets AIACC's job settings"
    for stack in ("aiacc", "baseline"):
        template = _launcher_pod(example_plans[stack])
        files = _files_of(template, tmp_path / stack / "pod")
        (container,) = template["spec"]["containers"]
        args = _run_launcher(container, scripts, tmp_path / stack, OPEN_MPI_STUB, files)
        assert args[:5] == ["--allow-run-as-root", "-np", "16", "-npernode", "4"], stack
        lines = (tmp_path / stack / "rank-env").read_text().splitlines()
        ranks = dict(line.split("=", 1) for line in lines)
        assert (ranks["workers"], ranks["gpus"]) == ("4", "4"), stack
        assert ranks["OMPI_MCA_btl_vader_single_copy_mechanism"] == "none", stack
        for name, value in accelerated.items():
            if stack == "aiacc":
                assert ranks[name] == value, (stack, name)
            else:
                assert name not in ranks, (stack, name)


def test_without_arenas_env_the_script_gives_mpirun_no_count(
    example_plans: dict[str, Plan], tmp_path: Path
) -> None:
    """What the issue found: the job as it was rendered before arenaSubmit."""
    scripts = _scripts_dir()
    container = dict(_launcher(example_plans["aiacc"]))
    container["env"] = [e for e in container["env"] if e["name"] not in ("workers", "gpus")]
    args = _run_launcher(container, scripts, tmp_path)
    assert args[:4] == ["--allow-run-as-root", "-np", "-npernode", "--bind-to"]


def test_every_planned_training_pod_starts_with_its_preflight(
    example_plans: dict[str, Plan],
) -> None:
    """Every example stack's every job: each pod template's first init container is the
    preflight, with its training container's image and security context
    (docs/preflight.md)."""
    checked = 0
    for stack, plan in sorted(example_plans.items()):
        for rendered in plan.objects:
            obj = rendered.object
            if obj.get("kind") == "TrainJob":
                assert obj["spec"]["trainer"]["command"][3] == "trainstack-preflight", stack
                checked += 1
                continue
            if obj.get("kind") not in ("MPIJob", "TFJob", "PyTorchJob"):
                continue
            for path, template in pod_templates(obj):
                spec = template["spec"]
                preflight, main = spec["initContainers"][0], spec["containers"][0]
                where = f"{stack} {obj['metadata']['name']} {path}"
                assert preflight["name"] == "preflight", where
                assert preflight["command"][:2] == ["sh", "-c"], where
                assert preflight["image"] == main["image"], where
                assert preflight["securityContext"] == main["securityContext"], where
                checked += 1
    assert checked > 0


def test_the_populate_job_fills_what_workload_ones_scripts_read(
    example_plans: dict[str, Plan],
) -> None:
    scripts = _scripts_dir()
    config = (scripts / "config_arena.sh").read_text()
    submit = (scripts / "tensorflow_h_perseus.sh").read_text()
    data_dir = re.search(r'^DATA_DIR="(/data/[^"]+)"$', config, re.MULTILINE)
    launch = re.search(r'"sh (/data/[^" ]+)"', submit)
    assert data_dir and launch, "workload 1's scripts changed shape"
    plan = example_plans["aiacc"]
    # the experiment mounts the dataset where the scripts expect it, and runs the same script
    job = _job(plan, "imagenet-tensorflow")
    pod = job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]
    (mount,) = [m for m in pod["containers"][0]["volumeMounts"] if m["mountPath"] == "/data"]
    claims = {
        v["name"]: v.get("persistentVolumeClaim", {}).get("claimName") for v in pod["volumes"]
    }
    assert claims[mount["name"]] == "imagenet-data"
    assert pod["containers"][0]["command"][-1].endswith(launch.group(1))
    # the populate Job copies the TFRecords where config_arena.sh reads them (its layout
    # checks their shards there), and checks out the working copy holding launch_arena.sh,
    # both under the same mount
    (populate,) = [r for r in plan.resources if r.type == "kubernetes:batch/v1:Job"]
    command = populate.inputs["spec"]["template"]["spec"]["containers"][0]["command"][-1]
    records = PurePosixPath(data_dir.group(1)).relative_to("/data")
    working_copy = PurePosixPath(launch.group(1)).relative_to("/data").parts[0]
    (spec,) = [item.populate for item in plan.datasets if item.populate is not None]
    assert [item.glob for item in spec.layout.files][0] == f"{records}/train-*"
    assert isinstance(spec.source, OssSource)
    assert f"{records}".startswith(f"{spec.source.target}/")
    assert f'"$TRAINSTACK_DATA_DIR/{working_copy}";' in command
