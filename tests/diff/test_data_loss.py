"""Deleting or replacing data-bearing resources: its own section, first, and exit status 3."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.stack_helpers import REPO, example_config
from trainstack.cli import main
from trainstack.core.project import Project
from trainstack.core.yaml.io import dump_yaml
from trainstack.diff.cli import colour_wanted
from trainstack.diff.render_markdown import markdown
from trainstack.diff.render_text import text_lines, write_lines
from trainstack.diff.sources import Compared, two_stacks

PROTECTED = "protected: `pulumi up` fails until `pulumi state unprotect`"


def _compare(tmp_path: Path, before: dict[str, Any], after: dict[str, Any]) -> Compared:
    for name, config in (("before", before), ("after", after)):
        (tmp_path / f"Pulumi.{name}.yaml").write_text(dump_yaml({"config": config}))
    (tmp_path / "Pulumi.imagenet.yaml").write_text(
        (REPO / "stacks" / "Pulumi.imagenet.yaml").read_text()
    )
    project = Project(root=REPO, name="trainstack", stack_config_dir=tmp_path)
    return two_stacks(project, "before", "after", context=3)


def _cluster(**dataset: Any) -> dict[str, Any]:
    config = example_config("aiacc")
    config["trainstack:experiments"] = {"select": []}
    config["trainstack:datasets"] = config["trainstack:datasets"][:1]  # ImageNet only
    config["trainstack:datasets"][0].update(dataset)
    return config


def test_removing_a_dataset_is_data_loss(tmp_path: Path) -> None:
    after = _cluster()
    after["trainstack:datasets"] = []
    compared = _compare(tmp_path, _cluster(), after)
    assert [str(risk) for risk in compared.diff.data_risks] == [
        f"deleted: PersistentVolume imagenet-data (not in the new plan; {PROTECTED})"
    ]
    lines = text_lines([compared.diff])
    assert lines[0] == (
        "DATA AT RISK: 1 data-bearing resource(s) deleted or replaced; approve deliberately "
        "(exit status 3)",
        "bold red",
    )
    assert lines[1] == (
        "  before -> after: deleted: PersistentVolume imagenet-data (not in the new plan; "
        f"{PROTECTED})",
        "red",
    )
    comment = markdown([compared.diff])
    assert comment.startswith("> [!CAUTION]\n> **Data at risk:** 1 data-bearing resource(s)")
    assert comment.index("[!CAUTION]") < comment.index("### trainstack diff")


def test_renaming_a_dataset_is_data_loss(tmp_path: Path) -> None:
    compared = _compare(tmp_path, _cluster(), _cluster(name="imagenet-train"))
    assert [(risk.kind, risk.label) for risk in compared.diff.data_risks] == [
        ("deleted", "PersistentVolume imagenet-data")
    ]


def test_moving_a_pv_to_another_path_replaces_it(tmp_path: Path) -> None:
    source = {"type": "stack-reference", "stack": "imagenet", "dataset": "imagenet-data"}
    moved = _cluster(source={**source, "path": "/imagenet"})
    compared = _compare(tmp_path, _cluster(), moved)
    (risk,) = compared.diff.data_risks
    assert (risk.kind, risk.label) == ("replaced", "PersistentVolume imagenet-data")
    assert risk.reason == (
        'spec.csi.volumeAttributes.path: "/" -> "/imagenet" forces a new resource; ' + PROTECTED
    )


def test_changing_the_zone_of_a_nas_replaces_it(tmp_path: Path) -> None:
    create = {"type": "alicloud-nas", "create": {"zoneId": "cn-beijing-h"}}
    moved = {"type": "alicloud-nas", "create": {"zoneId": "cn-beijing-g"}}
    compared = _compare(tmp_path, _cluster(source=create), _cluster(source=moved))
    (risk,) = compared.diff.data_risks
    assert (risk.kind, risk.label) == (
        "replaced",
        "alicloud:nas/fileSystem:FileSystem imagenet-data-nas",
    )
    assert risk.reason.startswith('inputs.zoneId: "cn-beijing-h" -> "cn-beijing-g" forces a new')


def test_an_unprotected_dataset_still_counts_and_says_so(tmp_path: Path) -> None:
    before = _cluster(protection={"enabled": False})
    after = _cluster(protection={"enabled": False})
    after["trainstack:datasets"] = []
    (risk,) = _compare(tmp_path, before, after).diff.data_risks
    assert risk.reason == "not in the new plan; NOT protected: the data goes with it"


def test_other_changes_are_not_data_loss(tmp_path: Path) -> None:
    after = _cluster()
    after["trainstack:nodePools"][1]["desiredSize"] = 3
    compared = _compare(tmp_path, _cluster(), after)
    assert compared.diff.has_changes and compared.diff.data_risks == ()
    assert not markdown([compared.diff]).startswith("> [!CAUTION]")


def test_the_command_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    after = _cluster()
    after["trainstack:datasets"] = []
    compared = _compare(tmp_path, _cluster(), after)
    assert compared.diff.data_risks
    project = tmp_path / "project"
    (project / "stacks").mkdir(parents=True)
    (project / "Pulumi.yaml").write_text((REPO / "Pulumi.yaml").read_text())
    for name in ("before", "after", "imagenet"):
        source = tmp_path / f"Pulumi.{name}.yaml"
        (project / "stacks" / source.name).write_text(source.read_text())
    for name in ("__main__.py", "components", "trainstack", "charts"):
        (project / name).symlink_to(REPO / name)
    # A copy: experiments/ linked out of the project is refused (never followed).
    shutil.copytree(REPO / "experiments", project / "experiments")
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "argv", ["trainstack", "diff", "before", "after"])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 3
    assert capsys.readouterr().out.startswith("DATA AT RISK: 1 data-bearing resource(s)")


def test_red_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_wanted()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted()
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert not colour_wanted()


def test_the_section_is_red_in_a_terminal(tmp_path: Path) -> None:
    import io

    after = _cluster()
    after["trainstack:datasets"] = []
    lines = text_lines([_compare(tmp_path, _cluster(), after).diff])
    stream = io.StringIO()
    write_lines(lines[:2], stream, colour=True)
    # SGR 31 is red (bold red: 1;31).
    assert stream.getvalue().startswith("\x1b[1;31mDATA AT RISK")
    assert "\x1b[31m  before -> after: deleted" in stream.getvalue()


def test_a_change_that_replaces_the_created_cluster_is_data_loss(tmp_path: Path) -> None:
    after = _cluster()
    after["trainstack:cluster"]["create"]["network"]["serviceCidr"] = "172.22.0.0/20"
    compared = _compare(tmp_path, _cluster(), after)
    assert [str(risk) for risk in compared.diff.data_risks] == [
        "replaced: alicloud:cs/managedKubernetes:ManagedKubernetes cluster-cluster "
        '(inputs.serviceCidr: "172.21.0.0/20" -> "172.22.0.0/20" forces a new resource; '
        f"{PROTECTED})"
    ]


def test_an_upgrade_of_the_created_cluster_is_not_data_loss(tmp_path: Path) -> None:
    before, after = _cluster(), _cluster()
    before["trainstack:cluster"]["create"]["version"] = "1.35.1-aliyun.1"
    after["trainstack:cluster"]["create"]["version"] = "1.35.2-aliyun.1"
    assert _compare(tmp_path, before, after).diff.data_risks == ()


def test_a_changed_populate_spec_is_data_at_risk(tmp_path: Path) -> None:
    imagenet = (REPO / "stacks" / "Pulumi.imagenet.yaml").read_text()
    changed = imagenet.replace("count: 128", "count: 256")
    assert changed != imagenet
    (tmp_path / "Pulumi.imagenet2.yaml").write_text(changed)
    after = _cluster()
    after["trainstack:datasets"][0]["source"]["stack"] = "imagenet2"
    compared = _compare(tmp_path, _cluster(), after)
    [risk] = [r for r in compared.diff.data_risks if r.kind == "repopulated"]
    assert risk.label == "Job vision/wait-populated-imagenet-data"
    assert risk.reason.startswith("populate spec changed (sha256:")
    assert "without overwrite it refuses to run over the data already there" in risk.reason
