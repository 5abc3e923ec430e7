"""Key paths in messages: dotted, indexed, odd keys quoted."""

from __future__ import annotations

from trainstack.core.key_paths import dotted_path


def test_a_path_is_dotted_and_indexed_after_its_prefix() -> None:
    assert dotted_path(["nodePool", "instanceTypes", 0]) == "nodePool.instanceTypes[0]"
    assert dotted_path(["nodePools", 1], "trainstack:") == "trainstack:nodePools[1]"


def test_odd_keys_are_quoted_in_paths() -> None:
    assert dotted_path(["labels", "a.b/c", 0], "job.") == 'job.labels["a.b/c"][0]'
    assert dotted_path(["env", "A\n"]) == 'env["A\\n"]'
