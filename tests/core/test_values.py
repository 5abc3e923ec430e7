"""Merging job values like Helm merges values files."""

from __future__ import annotations

from trainstack.core.values import merged, set_path


def test_mappings_merge_and_lists_replace() -> None:
    base = {"env": {"A": "1"}, "datasets": [{"claimName": "a"}], "worker": {"gpus": 4}}
    override = {"env": {"B": "2"}, "datasets": [{"claimName": "b"}], "worker": {"gpus": 2}}
    assert merged(base, override) == {
        "env": {"A": "1", "B": "2"},
        "datasets": [{"claimName": "b"}],
        "worker": {"gpus": 2},
    }
    assert base["env"] == {"A": "1"}  # inputs are never modified


def test_set_path_creates_intermediate_mappings() -> None:
    assert set_path({"worker": {"gpus": 1}}, "worker.replicas", 4) == {
        "worker": {"gpus": 1, "replicas": 4}
    }
    assert set_path({}, "mpi.launcher.image", "x") == {"mpi": {"launcher": {"image": "x"}}}
