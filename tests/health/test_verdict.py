from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.health.factories import BUSBW, NODES, facts
from trainstack.health.gate import health_report
from trainstack.health.model import HealthFacts
from trainstack.health.store import write_health
from trainstack.health.verdict import compare_health


def _project(tmp_path: Path, *found: HealthFacts) -> Path:
    for item in found:
        write_health(tmp_path, item)
    return tmp_path


def test_equal_health_files_are_comparable(tmp_path: Path) -> None:
    root = _project(tmp_path, facts("aiacc"), facts("baseline"))
    report = health_report(root, "aiacc", "baseline", str)
    assert report.findings == ()
    assert report.comparable
    assert report.summary() == "health measured on both, equal within 5%"


def test_one_node_30_percent_slower_is_not_comparable_naming_it(tmp_path: Path) -> None:
    slow = NODES[2]
    root = _project(tmp_path, facts("aiacc"), facts("baseline", busbw={slow: BUSBW * 0.7}))
    report = health_report(root, "aiacc", "baseline", str)
    assert not report.comparable
    (finding,) = report.findings
    assert finding.severity == "not comparable"
    assert finding.text == (
        f"baseline node {slow}: busbw within the node 91 GB/s vs aiacc 130 GB/s (median of "
        "its 4 node(s) of pool gpu-v100): -30.0%, beyond ±5%"
    )


def test_the_tolerance_is_configurable(tmp_path: Path) -> None:
    root = _project(tmp_path, facts("aiacc"), facts("baseline", busbw={NODES[0]: BUSBW * 0.7}))
    assert health_report(root, "aiacc", "baseline", str, tolerance=0.35).comparable


def test_without_a_health_file_health_is_not_measured(tmp_path: Path) -> None:
    root = _project(tmp_path, facts("aiacc"))
    report = health_report(root, "aiacc", "baseline", str)
    assert report.comparable
    assert report.missing == (
        "health not measured: no facts/baseline.health.json (`trainstack health STACK`)"
    )


def test_a_slower_gpu_names_its_node_and_gpu() -> None:
    report = compare_health(facts("aiacc"), facts("baseline", fp16=80.0))
    texts = [f.text for f in report.of("not comparable")]
    assert texts[0].startswith(
        f"aiacc node {NODES[0]} (GPU 0): GEMM FP16 100 TFLOPS vs baseline 80"
    )


def test_power_limits_must_match() -> None:
    report = compare_health(facts("aiacc"), facts("baseline", power=250.0))
    assert [f.text for f in report.of("not comparable")] == [
        f"power limit on pool gpu-v100: 300 W (node {NODES[0]}) on aiacc, 250 W (node "
        f"{NODES[0]}) on baseline"
    ]


def test_a_failed_node_is_not_healthy() -> None:
    bad = facts("baseline")
    node = bad.nodes[1].model_copy(update={"problems": ["dcgmi diag: exited with status 226"]})
    bad = bad.model_copy(update={"nodes": [bad.nodes[0], node, *bad.nodes[2:]]})
    report = compare_health(facts("aiacc"), bad)
    assert [f.text for f in report.of("not healthy")] == [
        f"baseline node {NODES[1]}: dcgmi diag: exited with status 226"
    ]


def test_stale_apart_and_against_runs() -> None:
    old = facts("baseline", measured_at="2026-11-01T10:00:00Z")
    report = compare_health(facts("aiacc"), old)
    assert [f.severity for f in report.findings] == ["stale"]
    run = datetime(2026, 12, 20, tzinfo=UTC)
    report = compare_health(facts("aiacc"), facts("baseline"), runs=[run])
    assert len(report.of("stale")) == 2
    near = datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert compare_health(facts("aiacc"), facts("baseline"), runs=[near]).comparable
    assert compare_health(facts("aiacc"), old, max_age=timedelta(days=60)).comparable
