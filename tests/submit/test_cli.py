"""``trainstack run`` end to end: offline checks, then the real client (lightkube's
transport, httpx) against the loopback API server: names checked free, a server dry run of
every object, then server-side apply; refusals as one error, nothing applied."""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import yaml

from tests.cli_helpers import Ran, run
from tests.live.apiserver import RecordedApi, Route
from tests.submit.jobs import CAMPAIGN, MPIJOBS, Jobs, applies, run_name
from trainstack.core.project import Project
from trainstack.experiments.lookup import load_stack_experiments

EXPERIMENT = "trainstack.io/experiment"
TOKEN = "test-token-not-a-secret"


def _run(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    return run(
        root, "run", "imagenet-tensorflow", "--stack", "aiacc", *args, monkeypatch=monkeypatch
    )


def test_each_run_is_checked_by_a_server_dry_run_then_applied_as_trainstacks(
    root: Path, cluster: Path, api: RecordedApi, jobs: Jobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs.accept(run_name(1))
    ran = _run(root, monkeypatch, "--kubeconfig", str(cluster))

    assert ran.code == 0, ran.stderr
    assert [(r.method, r.path.split("/")[-1]) for r in api.received] == [
        ("GET", run_name(1)),  # the name is free (404)
        ("PATCH", run_name(1)),
        ("PATCH", run_name(1)),
    ]
    dry, real = api.received[1:]
    for request in (dry, real):
        assert request.path == f"{MPIJOBS}/{run_name(1)}"
        assert request.content_type == "application/apply-patch+yaml"
        assert request.query["fieldManager"] == "trainstack"
        assert request.query["force"] == "false"
    assert dry.query["dryRun"] == "All" and "dryRun" not in real.query
    assert dry.body == real.body
    # What is applied is what --dry-run prints: the plan's rendering of the run.
    offline = _run(root, monkeypatch, "--dry-run")
    assert [json.loads(real.body)] == [d for d in yaml.safe_load_all(offline.stdout) if d]
    assert ran.stdout == (
        f"submitted {run_name(1)} to aiacc: MPIJob vision/{run_name(1)}, queued by Kueue for "
        "team vision; deleted 7 day(s) after it ends\n"
    )
    assert "server dry run passed: 1 run(s), 1 object(s) on aiacc" in ran.stderr


def test_three_runs_are_named_and_labelled_for_status_logs_and_collect(
    root: Path, cluster: Path, api: RecordedApi, jobs: Jobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [run_name(number) for number in (1, 2, 3)]
    jobs.accept(*names)
    ran = _run(root, monkeypatch, "--runs", "3", "--at-once", "--kubeconfig", str(cluster))

    assert ran.code == 0, ran.stderr
    # every dry run before the first apply
    assert applies(api) == [("dry run", n) for n in names] + [("apply", n) for n in names]
    digest = (
        load_stack_experiments(Project.load(root), "aiacc")
        .runs_of("imagenet-tensorflow")[0]
        .base_digest
    )
    for name in names:
        job = jobs.stored[name]
        metadata = job["metadata"]
        assert metadata["labels"][EXPERIMENT] == "imagenet-tensorflow"  # status, logs, collect
        assert metadata["labels"]["trainstack.io/campaign"] == CAMPAIGN
        assert metadata["labels"]["trainstack.io/stack"] == "aiacc"
        assert metadata["labels"]["trainstack.io/submitted-by"] == "trainstack-run"
        assert metadata["labels"]["kueue.x-k8s.io/queue-name"] == "vision"  # the team's quota
        assert metadata["annotations"]["trainstack.io/base-values-digest"] == digest
        assert metadata["annotations"]["trainstack.io/overrides"] == "{}"
        assert "trainstack.io/run" not in metadata["annotations"]  # numbered when collected
        assert job["spec"]["runPolicy"]["ttlSecondsAfterFinished"] == 7 * 86_400
        launcher = job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["metadata"]
        assert launcher["labels"][EXPERIMENT] == "imagenet-tensorflow"  # its pods too


@pytest.mark.parametrize(
    ("status_file", "words"),
    [
        ("status-403-patch-mpijobs.json", "403 Forbidden: mpijobs.kubeflow.org"),
        ("status-409-apply-conflict.json", "409 Conflict: Apply failed with 1 conflict: conflict"),
        ("status-422-invalid.json", "422 Invalid: MPIJob.kubeflow.org"),
        ("status-403-webhook-denied.json", 'admission webhook "validation.gatekeeper.sh" denied'),
        ("status-400-webhook-no-dry-run.json", "does not support dry run"),
        ("status-404-namespace.json", '404 NotFound: namespaces "vision" not found'),
    ],
)
def test_a_refused_dry_run_is_one_error_and_nothing_is_applied(
    root: Path,
    cluster: Path,
    api: RecordedApi,
    jobs: Jobs,
    monkeypatch: pytest.MonkeyPatch,
    status_file: str,
    words: str,
) -> None:
    jobs.accept(run_name(1), run_name(2))
    jobs.refuse(run_name(2), status_file)
    ran = _run(root, monkeypatch, "--runs", "2", "--kubeconfig", str(cluster))

    assert ran.code == 2 and ran.stdout == ""
    (line,) = ran.stderr.splitlines()
    assert line.startswith(f"error: checking (server dry run) MPIJob vision/{run_name(2)}: ")
    assert words in line
    assert "(context 'aiacc-admin' (http://127.0.0.1:" in line
    assert TOKEN not in ran.stderr
    assert applies(api) == [("dry run", run_name(1)), ("dry run", run_name(2))]  # no apply
    assert jobs.stored == {}


def test_a_conflict_names_the_other_manager_and_never_forces(
    root: Path, cluster: Path, api: RecordedApi, jobs: Jobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    jobs.accept(run_name(1))
    jobs.refuse(run_name(1), "status-409-apply-conflict.json")
    ran = _run(root, monkeypatch, "--kubeconfig", str(cluster))

    assert ran.code == 2
    assert 'conflict with "helm" using kubeflow.org/v2beta1' in ran.stderr
    assert ".spec.runPolicy.backoffLimit" in ran.stderr
    assert "never takes fields over (force=false)" in ran.stderr
    assert all(r.query.get("force") == "false" for r in api.received if r.method == "PATCH")


def test_a_taken_name_is_refused_before_any_dry_run(
    root: Path, cluster: Path, api: RecordedApi, jobs: Jobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = {
        "apiVersion": "kubeflow.org/v2beta1",
        "kind": "MPIJob",
        "metadata": {
            "name": "mine",
            "namespace": "vision",
            "managedFields": [{"manager": "helm", "operation": "Update"}],
        },
    }
    api.object(f"{MPIJOBS}/mine", taken)
    jobs.accept("mine")
    ran = _run(root, monkeypatch, "--name", "mine", "--kubeconfig", str(cluster))

    assert ran.code == 2
    assert "MPIJob vision/mine already exists on stack aiacc" in ran.stderr
    assert "managed by helm" in ran.stderr
    assert applies(api) == []


def test_a_slow_server_is_one_error_within_the_timeout(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    def slow(handler: BaseHTTPRequestHandler) -> None:
        time.sleep(2)  # never answers within --timeout

    api.routes.append(Route(f"{MPIJOBS}/{run_name(1)}", {}, method="PATCH", send=slow))
    ran = _run(root, monkeypatch, "--kubeconfig", str(cluster), "--timeout", "0.3")

    assert ran.code == 2
    (line,) = ran.stderr.splitlines()
    assert "no answer from the API server within 0.3 s" in line
    assert applies(api) == [("dry run", run_name(1))]


def test_wait_follows_each_run_to_its_end_and_fails_when_one_failed(
    root: Path, cluster: Path, api: RecordedApi, jobs: Jobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = run_name(1), run_name(2)
    jobs.accept(first, second)
    jobs.listed(f"trainstack.io/campaign={CAMPAIGN}")
    jobs.phases = {first: ["Created", "Running", "Succeeded"], second: ["Running", "Failed"]}
    ran = _run(
        root, monkeypatch, "--runs", "2", "--at-once", "--wait", "--kubeconfig", str(cluster)
    )

    assert ran.code == 1  # a run failed
    assert f"aiacc {first}: submitted -> Created" in ran.stderr
    assert f"aiacc {first}: Created -> Running" in ran.stderr
    assert f"aiacc {first}: Running -> Succeeded" in ran.stderr
    assert f"aiacc {second}: Running -> Failed" in ran.stderr
    table = ran.stdout.splitlines()[-4:]
    assert table[0].split() == ["stack", "run", "phase", "started", "completed", "duration"]
    assert table[1].split()[:3] == ["aiacc", first, "Succeeded"]
    assert table[1].split()[-2:] == ["1200", "s"]
    assert table[2].split()[:3] == ["aiacc", second, "Failed"]
    assert table[3] == "1 of 2 run(s) succeeded"


def test_one_after_another_each_run_starts_when_the_one_before_ended(
    root: Path, cluster: Path, api: RecordedApi, jobs: Jobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = run_name(1), run_name(2)
    jobs.accept(first, second)
    jobs.listed(f"trainstack.io/campaign={CAMPAIGN}")
    jobs.phases = {first: ["Running", "Succeeded"], second: ["Succeeded"]}
    ran = _run(root, monkeypatch, "--runs", "2", "--kubeconfig", str(cluster))

    assert ran.code == 0, ran.stderr
    steps = [
        f"{r.method} {r.query.get('dryRun', '')} {r.path.split('/')[-1]}"
        for r in api.received
        if r.method == "PATCH" or "labelSelector" in r.query
    ]
    assert steps == [
        f"PATCH All {first}",
        f"PATCH All {second}",
        f"PATCH  {first}",
        "GET  mpijobs",
        "GET  mpijobs",  # the first run has ended: only now the second
        f"PATCH  {second}",
        "GET  mpijobs",
    ]
    assert ran.stdout.splitlines()[-1] == "2 of 2 run(s) succeeded"


def test_dry_run_prints_the_objects_and_contacts_nothing(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _run(root, monkeypatch, "--dry-run", "--runs", "2", "--set", "worker.replicas=2")

    assert ran.code == 0, ran.stderr
    documents = [d for d in yaml.safe_load_all(ran.stdout) if d]
    assert [d["metadata"]["name"] for d in documents] == [run_name(1), run_name(2)]
    assert documents[0]["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"] == 2
    annotations = documents[0]["metadata"]["annotations"]
    assert json.loads(annotations["trainstack.io/overrides"]) == {"worker": {"replicas": 2}}
    assert "nothing was sent to a cluster" in ran.stderr


def test_stacks_interleaved_alternate_run_by_run(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(
        root,
        *("run", "imagenet-tensorflow", "--stacks", "aiacc,baseline", "--interleave"),
        *("--runs", "2", "--dry-run"),
        monkeypatch=monkeypatch,
    )

    assert ran.code == 0, ran.stderr
    titles = [line for line in ran.stdout.splitlines() if line.startswith("# run ")]
    assert [title.split()[2] + " " + title.split()[4].rstrip(":") for title in titles] == [
        f"{run_name(1)} aiacc",
        f"{run_name(1)} baseline",
        f"{run_name(2)} aiacc",
        f"{run_name(2)} baseline",
    ]


def test_two_stacks_on_one_cluster_are_refused(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(
        root,
        *("run", "imagenet-tensorflow", "--stacks", "aiacc,baseline"),
        *("--kubeconfig", str(cluster)),
        monkeypatch=monkeypatch,
    )

    assert ran.code == 2
    assert "stacks aiacc and baseline both reach http://127.0.0.1:" in ran.stderr
    assert api.received == []


def test_values_still_to_set_are_refused_before_any_request(
    root: Path, cluster: Path, api: RecordedApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(
        root,
        "run",
        "keras-lstm-1x1",
        "--stack",
        "aiacc",
        "--kubeconfig",
        str(cluster),
        monkeypatch=monkeypatch,
    )

    assert ran.code == 2
    assert "still has 1 placeholder(s)" in ran.stderr
    assert "experiments/keras-lstm-scaling.yaml: job.image.name" in ran.stderr
    assert api.received == []


def test_at_once_is_refused_for_a_job_no_queue_holds(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(
        root,
        *("run", "horovod-resnet50-onprem", "--stack", "onprem", "--runs", "2", "--at-once"),
        "--dry-run",
        monkeypatch=monkeypatch,
    )

    assert ran.code == 2
    assert "--at-once: horovod-resnet50-onprem is not queued by Kueue on stack onprem" in (
        ran.stderr
    )


def test_a_stack_that_excludes_the_experiment_is_refused(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = run(
        root,
        "run",
        "horovod-resnet50-onprem",
        "--stack",
        "aiacc",
        "--dry-run",
        monkeypatch=monkeypatch,
    )

    assert ran.code == 2
    assert "excludes experiment horovod-resnet50-onprem" in ran.stderr


def test_hostile_set_values_are_data_in_the_job_never_run_here(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    command = f"echo $(touch {marker}); `touch {marker}`; touch {marker} && reboot | sh\nexit 1"
    ran = _run(root, monkeypatch, "--dry-run", "--set", f"command={command}")

    assert ran.code == 0, ran.stderr
    (job,) = [d for d in yaml.safe_load_all(ran.stdout) if d]
    launcher = job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0]
    assert launcher["command"] == ["sh", "-c", command]  # the pod's shell gets it, intact
    assert json.loads(job["metadata"]["annotations"]["trainstack.io/overrides"]) == {
        "command": command
    }
    assert not marker.exists()


def test_a_refusal_after_some_runs_says_which_go_on(
    root: Path, cluster: Path, api: RecordedApi, jobs: Jobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = run_name(1), run_name(2)
    jobs.accept(first, second)
    jobs.refuse(second, "status-409-apply-conflict.json", dry_run=False)  # changed meanwhile
    jobs.listed(f"trainstack.io/campaign={CAMPAIGN}")
    jobs.phases = {first: ["Succeeded"]}
    ran = _run(root, monkeypatch, "--runs", "2", "--kubeconfig", str(cluster))

    assert ran.code == 2
    assert "stopped: the 1 of 2 run(s) submitted go on" in ran.stderr
    assert f"error: applying MPIJob vision/{second}: the API server answered 409" in ran.stderr
    assert list(jobs.stored) == [first]
