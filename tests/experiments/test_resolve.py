"""From files to deployed jobs: selection, overrides, the pool's scheduling, acceleration."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.experiment_helpers import IMAGENET, Deployer, job, stack_config
from trainstack.core.errors import ConfigError, ExperimentError, InvalidExperimentsError
from trainstack.core.limits import MAX_EXPERIMENTS, MAX_RELEASES
from trainstack.core.yaml.positions import at

AIACC_ENV = {"env": {"PERSEUS_ALLREDUCE_DTYPE": "0"}}


def _matrix() -> dict:
    experiment = job()
    experiment["name"] = "keras-lstm"
    experiment["matrix"] = {
        "axes": {"nodes": "worker.replicas", "gpusPerNode": "worker.gpus"},
        "points": [{"nodes": 1, "gpusPerNode": 4}, {"nodes": 4, "gpusPerNode": 1}],
        "nameTemplate": "{name}-{nodes}x{gpusPerNode}",
    }
    return experiment


def test_matrix_points_become_experiments(deploy: Deployer) -> None:
    experiments = deploy(_matrix()).experiments
    assert [(e.release_name, e.job.worker.replicas, e.job.worker.gpus) for e in experiments] == [
        ("keras-lstm-1x4", 1, 4),
        ("keras-lstm-4x1", 4, 1),
    ]
    assert {e.file_experiment for e in experiments} == {"keras-lstm"}


def test_select_by_matrix_name_or_point_name(deploy: Deployer) -> None:
    config = stack_config(experiments={"select": ["keras-lstm-4x1", "imagenet-tensorflow"]})
    names = [e.release_name for e in deploy(job(), _matrix(), config=config).experiments]
    assert names == ["imagenet-tensorflow", "keras-lstm-4x1"]
    config = stack_config(experiments={"select": ["keras-lstm"]})
    assert len(deploy(job(), _matrix(), config=config).experiments) == 2


def test_selecting_an_unknown_experiment(deploy: Deployer) -> None:
    config = stack_config(experiments={"select": ["imagenet"]})
    with pytest.raises(ConfigError) as caught:
        deploy(job(), config=config)
    (problem,) = caught.value.problems
    assert problem.path == "trainstack:experiments.select[0]"
    assert problem.found == "'imagenet'"
    assert problem.allowed == (
        "the name of an experiment or matrix: imagenet-tensorflow (or a glob pattern, e.g. '*')"
    )


def test_overrides_apply_on_this_stack_only(deploy: Deployer) -> None:
    config = stack_config(
        experiments={"overrides": {"imagenet-tensorflow": {"worker": {"replicas": 2}}}}
    )
    (experiment,) = deploy(job(), config=config).experiments
    assert (experiment.job.worker.replicas, experiment.job.worker.gpus) == (2, 4)
    (untouched,) = deploy(job()).experiments
    assert untouched.job.worker.replicas == 4


def test_invalid_override_names_the_stack_file_and_key(deploy: Deployer) -> None:
    config = stack_config(
        experiments={"overrides": {"imagenet-tensorflow": {"worker": {"gpus": -1}}}}
    )
    with pytest.raises(ConfigError) as caught:
        deploy(job(), config=config)
    assert str(caught.value) == (
        "invalid stack configuration in stacks/Pulumi.test.yaml: "
        "trainstack:experiments.overrides.imagenet-tensorflow.worker.gpus: found -1; "
        "allowed: a number >= 0"
    )


def test_override_of_an_unknown_experiment(deploy: Deployer) -> None:
    config = stack_config(experiments={"overrides": {"imagenet": {"worker": {"replicas": 2}}}})
    with pytest.raises(
        ConfigError,
        match=r"trainstack:experiments\.overrides\.imagenet: found "
        "overrides of an unknown experiment",
    ):
        deploy(job(), config=config)


def test_invalid_job_names_the_experiment_file_and_key(deploy: Deployer) -> None:
    with pytest.raises(ExperimentError) as caught:
        deploy(job(worker={"replicas": "four", "gpus": 4}))
    assert str(caught.value) == (
        "invalid experiment in experiments/00-imagenet-tensorflow.yaml: job.worker.replicas: "
        'found "four"; allowed: an integer'
    )


def test_every_invalid_file_is_reported(deploy: Deployer) -> None:
    second = job(worker={"replicas": 1, "gpus": "x"})
    second["name"] = "other"
    with pytest.raises(InvalidExperimentsError) as caught:
        deploy(job(image={}), second)
    assert [e.source for e in caught.value.errors] == [
        "experiments/00-imagenet-tensorflow.yaml",
        "experiments/01-other.yaml",
    ]


def test_a_job_keeps_its_own_scheduling(deploy: Deployer) -> None:
    own = {"nodeSelector": {"gpu": "a100"}, "tolerations": [{"operator": "Exists"}]}
    (experiment,) = deploy(job(scheduling=own)).experiments
    assert experiment.values["scheduling"]["nodeSelector"] == {"gpu": "a100"}
    assert experiment.values["scheduling"]["tolerations"] == [{"operator": "Exists"}]


def test_acceleration_overrides_are_kept_apart(deploy: Deployer) -> None:
    accelerated = stack_config("aiacc")
    accelerated["trainstack:acceleration"]["experimentOverrides"] = AIACC_ENV
    (experiment,) = deploy(job(), config=accelerated).experiments
    assert experiment.values["env"] == {"PERSEUS_ALLREDUCE_DTYPE": "0"}
    assert "PERSEUS_ALLREDUCE_DTYPE" not in experiment.base_values.get("env", {})
    assert experiment.acceleration_overrides == AIACC_ENV
    (baseline,) = deploy(job(), config=stack_config("baseline")).experiments
    # The baseline deploys the accelerated stack's base values plus the run's metadata.
    deployed = dict(baseline.values)
    assert deployed.pop("labels") == {"trainstack.io/experiment": "imagenet-tensorflow"}
    assert deployed.pop("annotations").keys() == {
        "trainstack.io/run",
        "trainstack.io/base-values-digest",
    }
    assert deployed == {
        key: value
        for key, value in experiment.base_values.items()
        if key not in ("labels", "annotations")
    }


def test_acceleration_overrides_only_when_enabled(deploy: Deployer) -> None:
    config = stack_config("aiacc")
    config["trainstack:acceleration"] = {"enabled": False, "experimentOverrides": AIACC_ENV}
    (experiment,) = deploy(job(), config=config).experiments
    assert experiment.acceleration_overrides == {}
    assert "env" not in experiment.values or experiment.values["env"] == {}


def test_a_missing_experiments_directory_is_an_error_naming_it(
    deploy: Deployer, tmp_path: Path
) -> None:
    config = stack_config(experiments={"directory": "experimentz"})
    with pytest.raises(ConfigError) as caught:
        deploy(config=config)
    assert caught.value.lines(at) == [
        "invalid stack configuration in stacks/Pulumi.test.yaml: "
        "trainstack:experiments.directory: found 'experimentz', which does not exist in "
        f"{tmp_path}; allowed: a directory of experiment files, relative to the project root "
        "(create it, empty, for a stack that runs no experiment)"
    ]


def test_an_empty_experiments_directory_runs_no_experiment(
    deploy: Deployer, tmp_path: Path
) -> None:
    (tmp_path / "none").mkdir()
    assert deploy(config=stack_config(experiments={"directory": "none"})).experiments == ()


def test_a_dangling_directory_link_is_named(deploy: Deployer, tmp_path: Path) -> None:
    (tmp_path / "linked").symlink_to(tmp_path / "gone")
    with pytest.raises(ConfigError, match=r"found 'linked', a symbolic link to '.*gone', which"):
        deploy(config=stack_config(experiments={"directory": "linked"}))


def test_experiments_the_stack_does_not_select_are_named_by_file(deploy: Deployer) -> None:
    other, third = job(), job()
    other["name"], third["name"] = "other", "third"
    config = stack_config(experiments={"select": ["keras-lstm-4x1", "other"]})
    deployment = deploy(_matrix(), other, third, config=config)
    assert [e.release_name for e in deployment.experiments] == ["keras-lstm-4x1", "other"]
    assert [(n.file, n.experiments) for n in deployment.not_selected] == [
        ("experiments/00-keras-lstm.yaml", ("keras-lstm-1x4",)),
        ("experiments/02-third.yaml", ("third",)),
    ]
    # unset `select`: every experiment runs, nothing is left out
    assert deploy(_matrix(), other, third).not_selected == ()


def test_experiments_are_counted_before_any_matrix_is_expanded(deploy: Deployer) -> None:
    matrices = [
        {
            "name": f"scan-{index}",
            "matrix": {
                "axes": {"a": "worker.replicas", "b": "worker.gpus"},
                "product": {"a": list(range(128)), "b": [0, 1]},
            },
            "job": IMAGENET["job"],
        }
        for index in range(40)
    ]
    # 40 files of 256 points: 10,240 experiments; each point with replicas 0 or gpus 0 would
    # be refused if it were expanded and checked first
    with pytest.raises(ConfigError) as caught:
        deploy(*matrices)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (
        "trainstack:experiments.directory",
        "10240 experiments in experiments/ (40 files, matrices expanded)",
    )
    assert problem.allowed.startswith(f"at most {MAX_EXPERIMENTS:,} ")


def test_the_experiments_directory_stays_in_the_project(deploy: Deployer) -> None:
    config = stack_config(experiments={"directory": "../elsewhere"})
    with pytest.raises(ConfigError, match=r"experiments\.directory: found \"\.\./elsewhere\""):
        deploy(job(), config=config)


def test_a_problem_at_every_matrix_point_is_reported_once(deploy: Deployer, tmp_path: Path) -> None:
    scan = {
        "name": "scan",
        "matrix": {"axes": {"n": "worker.replicas"}, "points": [{"n": 1}, {"n": 2}]},
        "job": {**IMAGENET["job"], "shell": "a b", "labels": {"x": "-"}},
    }
    with pytest.raises(InvalidExperimentsError) as caught:
        deploy(scan, job(shell="c d"))

    # Each problem once, at the line of its key in the matrix file.
    def line(file: str, key: str) -> int:
        text = (tmp_path / "experiments" / file).read_text().splitlines()
        return next(n for n, written in enumerate(text, 1) if written.strip().startswith(key))

    labels, shell = line("00-scan.yaml", "x:"), line("00-scan.yaml", "shell:")
    assert caught.value.lines(at) == [
        f"invalid experiment in experiments/00-scan.yaml:{labels} (matrix points scan-1, "
        'scan-2): job.labels.x: found "-"; allowed: a label value: at most 63 letters, digits, '
        "'-', '_', '.'",
        f"invalid experiment in experiments/00-scan.yaml:{shell} (matrix points scan-1, "
        'scan-2): job.shell: found "a b"; allowed: text without spaces',
        f"invalid experiment in experiments/01-imagenet-tensorflow.yaml:"
        f"{line('01-imagenet-tensorflow.yaml', 'shell:')}: job.shell: found "
        '"c d"; allowed: text without spaces',
    ]


def test_metric_declarations_are_checked_with_the_file_and_key(deploy: Deployer) -> None:
    experiment = job()
    experiment["metrics"] = [{"name": "images_per_sec", "pattern": r"(\d+)+ img/s"}]
    with pytest.raises(
        ExperimentError,
        match=r"experiments/00-imagenet-tensorflow\.yaml: metrics\[0\]\.pattern: found "
        r".*allowed: a pattern without a repetition inside a repetition",
    ):
        deploy(experiment)
    experiment["metrics"] = [{"name": "top1"}, {"name": "top1"}]
    with pytest.raises(ExperimentError, match=r"metrics\[1\]\.name: found \"top1\""):
        deploy(experiment)


def test_releases_are_counted_with_their_runs_before_any_work(deploy: Deployer) -> None:
    experiments = [{**IMAGENET, "name": f"run-me-{index}"} for index in range(21)]
    runs = {f"run-me-{index}": {"count": 100} for index in range(21)}
    config = stack_config(experiments={"runs": runs})
    with pytest.raises(ConfigError) as caught:
        deploy(*experiments, config=config)
    (problem,) = caught.value.problems
    assert (problem.path, problem.found) == (
        "trainstack:experiments.runs",
        "2100 releases (21 experiments and their runs)",
    )
    assert problem.allowed.startswith(f"at most {MAX_RELEASES:,} per stack")
