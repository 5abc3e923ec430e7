"""File names from names: valid stack names only; view names plain, inside, one per object."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainstack.core.errors import OutputError, StackNameError
from trainstack.core.file_names import (
    check_stack_name,
    child,
    encode_part,
    file_name,
    unique_file_names,
)

# Names as Kubernetes and Pulumi spell them, plus everything a hostile file could hold.
_NAME_CHARS = st.sampled_from(list("ab-._:/%~ZX9") + ["\n", " ", "é", "\\", "\0"])
NAMES = st.text(_NAME_CHARS, max_size=12) | st.text(max_size=12)
IDENTITIES = st.lists(NAMES, min_size=1, max_size=4)


@pytest.mark.parametrize("name", ["aiacc", "baseline", "dev_1", "prod.eu-1", "A" * 100, "a.."])
def test_pulumi_stack_names_are_accepted(name: str) -> None:
    assert check_stack_name(name) == name


@pytest.mark.parametrize(
    "name",
    [".", "..", ".hidden", "x/../../../victim", "a/b", "", "A" * 101, "aiacc\n", "a b", "é"],
)
def test_other_stack_names_are_refused(name: str) -> None:
    with pytest.raises(StackNameError, match="allowed: a Pulumi stack name"):
        check_stack_name(name)


def test_the_two_names_of_the_issue_get_two_files() -> None:
    first = file_name(["MPIJob", "w", "x--y"], ".yaml")
    second = file_name(["MPIJob", "w--x", "y"], ".yaml")
    assert first != second
    assert (first, second) == ("MPIJob--w--x-%2Dy.yaml", "MPIJob--w-%2Dx--y.yaml")


def test_common_names_stay_readable() -> None:
    assert file_name(["MPIJob", "vision", "imagenet-tensorflow"], ".yaml") == (
        "MPIJob--vision--imagenet-tensorflow.yaml"
    )
    assert file_name(["kubernetes:core/v1:Namespace", "vision"], ".yaml") == (
        "kubernetes_core+v1_Namespace--vision.yaml"
    )
    assert file_name(["ClusterRole", "", "edit"], ".yaml") == "ClusterRole--_--edit.yaml"


@given(IDENTITIES, IDENTITIES)
def test_distinct_identities_never_share_a_file(first: list[str], second: list[str]) -> None:
    if first != second:
        assert file_name(first, ".yaml") != file_name(second, ".yaml")


@given(IDENTITIES)
def test_every_name_is_one_plain_entry_of_bounded_length(parts: list[str]) -> None:
    name = file_name(parts, ".yaml")
    assert "/" not in name and "\\" not in name and "\0" not in name
    assert name not in (".", "..") and not name.startswith(".")
    assert len(name.encode()) <= 200


@given(NAMES)
def test_a_part_never_holds_the_separator(text: str) -> None:
    encoded = encode_part(text)
    assert "--" not in encoded and not encoded.startswith("-") and not encoded.endswith("-")


def test_long_names_end_with_a_digest_of_the_whole_identity() -> None:
    long_a = file_name(["Kind", "ns", "a" * 300], ".yaml")
    long_b = file_name(["Kind", "ns", "a" * 299 + "b"], ".yaml")
    assert long_a != long_b
    assert len(long_a) == 200 and "~" in long_a


def test_names_that_differ_only_in_case_get_digests() -> None:
    names = unique_file_names(
        [(["Kind", "Web"], 1), (["Kind", "web"], 2), (["Kind", "x"], 3)], ".yaml"
    )
    assert sorted(names.values()) == [1, 2, 3]
    assert len({name.casefold() for name in names}) == 3
    assert "Kind--x.yaml" in names


def test_the_same_identity_twice_is_an_error() -> None:
    with pytest.raises(OutputError, match="two objects are both Kind/a: one would overwrite"):
        unique_file_names([(["Kind", "a"], 1), (["Kind", "a"], 2)], ".yaml")


@pytest.mark.parametrize("name", ["..", ".", "", "a/b", "../x", "a\0b"])
def test_child_refuses_anything_but_one_entry(tmp_path: Path, name: str) -> None:
    with pytest.raises(OutputError, match="refusing to write"):
        child(tmp_path, name)


def test_child_is_inside_its_directory(tmp_path: Path) -> None:
    assert child(tmp_path, "a.yaml") == tmp_path / "a.yaml"
