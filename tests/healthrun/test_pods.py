from __future__ import annotations

from trainstack.healthrun.pods import ended_state, owner_of, reporting_pod, unschedulable_reason


def test_a_job_ends_complete_or_failed_with_its_reason() -> None:
    done = {"status": {"conditions": [{"type": "Complete", "status": "True"}]}}
    failed = {
        "status": {
            "conditions": [
                {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded\x1b[2J"}
            ]
        }
    }
    running = {"status": {"conditions": [{"type": "Failed", "status": "False"}]}}
    assert ended_state(done) == "Complete"
    assert ended_state(failed) == "Failed (BackoffLimitExceeded\\x1b[2J)"
    assert ended_state(running) is None
    assert ended_state({"status": {"conditions": "garbage"}}) is None


def test_owners_by_the_controllers_labels() -> None:
    assert owner_of({"metadata": {"labels": {"batch.kubernetes.io/job-name": "a"}}}) == "a"
    assert owner_of({"metadata": {"labels": {"job-name": "b"}}}) == "b"
    assert owner_of({"metadata": {"labels": {"training.kubeflow.org/job-name": "c"}}}) == "c"
    assert owner_of({"metadata": {}}) is None


def test_the_launcher_reports_an_mpijob_and_a_jobs_only_pod_reports_it() -> None:
    worker = {
        "metadata": {"name": "a-worker-0", "labels": {"training.kubeflow.org/job-role": "worker"}}
    }
    launcher = {
        "metadata": {"name": "a-launcher", "labels": {"training.kubeflow.org/job-role": "launcher"}}
    }
    assert reporting_pod([worker, launcher]) is launcher
    only = {"metadata": {"name": "b-x", "labels": {}}}
    assert reporting_pod([only]) is only
    assert reporting_pod([worker]) is None


def test_why_a_pod_is_pending() -> None:
    pod = {
        "status": {
            "conditions": [
                {"type": "PodScheduled", "status": "False", "message": "0/6 nodes are available"}
            ]
        }
    }
    assert unschedulable_reason(pod) == "0/6 nodes are available"
    assert unschedulable_reason({"status": {}}) is None
