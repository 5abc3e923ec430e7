"""The TFJob (kubeflow.org/v1) the chart renders for framework tensorflow."""

from __future__ import annotations

from tests.chart.jobs import container, job_values, pod_spec, render_job, replica_specs

MWMS = job_values("tensorflow", worker={"replicas": 2, "gpus": 1})


def test_chief_and_two_workers_with_one_gpu_each() -> None:
    job = render_job(MWMS)

    assert (job["apiVersion"], job["kind"]) == ("kubeflow.org/v1", "TFJob")
    specs = replica_specs(job)
    assert sorted(specs) == ["Chief", "Worker"]
    assert specs["Chief"]["replicas"] == 1
    assert specs["Worker"]["replicas"] == 2
    for role in ("Chief", "Worker"):
        assert container(job, role)["resources"]["limits"] == {"nvidia.com/gpu": 1}
        assert container(job, role)["name"] == "tensorflow"
        assert container(job, role)["command"] == ["sh", "-c", "python train.py"]


def test_parameter_servers_and_evaluator_appear_when_asked() -> None:
    values = job_values(
        "tensorflow",
        worker={"replicas": 4, "gpus": 2},
        tensorflow={
            "chief": {"replicas": 0},
            "ps": {"replicas": 2, "resources": {"limits": {"cpu": "4", "memory": "16Gi"}}},
            "evaluator": {"replicas": 1, "gpus": 1},
        },
    )
    job = render_job(values)

    specs = replica_specs(job)
    assert sorted(specs) == ["Evaluator", "PS", "Worker"]
    assert specs["PS"]["replicas"] == 2
    assert container(job, "PS")["resources"] == {"limits": {"cpu": "4", "memory": "16Gi"}}
    assert container(job, "Evaluator")["resources"]["limits"] == {"nvidia.com/gpu": 1}


def test_the_chief_can_have_its_own_gpus() -> None:
    values = job_values("tensorflow", worker={"gpus": 4}, tensorflow={"chief": {"gpus": 0}})
    job = render_job(values)

    assert "resources" not in container(job, "Chief")
    assert container(job, "Worker")["resources"]["limits"] == {"nvidia.com/gpu": 4}


def test_success_policy_is_written_only_for_all_workers() -> None:
    assert "successPolicy" not in render_job(MWMS)["spec"]
    values = job_values("tensorflow", tensorflow={"successPolicy": "AllWorkers"})
    assert render_job(values)["spec"]["successPolicy"] == "AllWorkers"


def test_roles_have_their_own_images_and_node_selectors_over_the_shared_one() -> None:
    values = job_values(
        "tensorflow",
        worker={"replicas": 1},
        scheduling={"nodeSelector": {"pool": "gpu", "zone": "a"}},
        tensorflow={
            "ps": {
                "replicas": 1,
                "image": "registry.example.com/team/ps:2",
                "nodeSelector": {"pool": "cpu"},
            }
        },
    )
    job = render_job(values)

    assert container(job, "PS")["image"] == "registry.example.com/team/ps:2"
    assert pod_spec(job, "PS")["nodeSelector"] == {"pool": "cpu", "zone": "a"}
    assert container(job, "Chief")["image"] == "registry.example.com/team/train:1.0"
    assert pod_spec(job, "Chief")["nodeSelector"] == {"pool": "gpu", "zone": "a"}


def test_restart_policy_applies_to_every_replica() -> None:
    values = job_values("tensorflow", runPolicy={"restartPolicy": "ExitCode"})
    specs = replica_specs(render_job(values))

    assert {spec["restartPolicy"] for spec in specs.values()} == {"ExitCode"}
