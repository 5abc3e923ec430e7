"""Are two stacks' GPUs and interconnect healthy and equally fast? The gate of a comparison.

From each stack's ``facts/STACK.health.json``:

- **not healthy** (named): a node whose check failed or could not be read, DCGM's
  diagnostics failing, uncorrected ECC errors, a GPU throttling (``nvidia-smi -q``'s
  active clock event reasons), an interconnect test that failed;
- **not comparable** (named, with both values): a node's slowest GPU's GEMM TFLOPS (FP16,
  FP32) or its busbw more than the tolerance away from the median of the other stack's
  nodes of the same pool; a multi-node shape's busbw likewise; clocks, power limits or
  ECC mode set differently on the two stacks;
- **stale**: measurements more than the allowed age apart (from each other, or from the
  runs compared);
- without a health file: "health not measured" (said, not a failure: nothing to gate on).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from trainstack.health.model import Figure, GpuHealth, HealthFacts, NodeHealth

Severity = Literal["not healthy", "not comparable", "stale"]
SEVERITIES: tuple[Severity, ...] = ("not healthy", "not comparable", "stale")
DEFAULT_TOLERANCE = 0.05
"""5%: run-to-run noise of GEMM and all_reduce_perf on one healthy node is a few percent;
a degraded NVLink or a capped GPU costs far more (docs/health.md)."""
DEFAULT_MAX_AGE_HOURS = 168.0
"""A week: drivers, firmware and nodes change; older measurements say little of today."""
NOT_MEASURED = "health not measured"


@dataclass(frozen=True)
class HealthFinding:
    """One reason the two stacks' hardware cannot be trusted as equal."""

    severity: Severity
    text: str


@dataclass(frozen=True)
class HealthReport:
    """The two stacks' health compared, or why it was not."""

    findings: tuple[HealthFinding, ...] = ()
    missing: str = ""
    """``health not measured: ...`` when a stack has no health file."""
    tolerance: float = DEFAULT_TOLERANCE

    @property
    def comparable(self) -> bool:
        """Nothing found (health not measured gates nothing: it is said)."""
        return not self.findings

    def of(self, severity: Severity) -> tuple[HealthFinding, ...]:
        return tuple(f for f in self.findings if f.severity == severity)

    def summary(self) -> str:
        """One phrase for a verdict line."""
        if self.missing:
            return self.missing
        if self.comparable:
            return f"health measured on both, equal within {self.tolerance:.0%}"
        counts = ", ".join(f"{len(self.of(s))} {s}" for s in SEVERITIES if self.of(s))
        return f"health: {counts}"

    def reason(self) -> str:
        """The first findings, for a row's ``not comparable`` reason."""
        shown = "; ".join(f"{f.severity}: {f.text}" for f in self.findings[:3])
        more = f"; and {len(self.findings) - 3} more" if len(self.findings) > 3 else ""
        return f"health: {shown}{more}"


def health_json(report: HealthReport) -> dict[str, object]:
    """The report for ``--format json`` (docs/scripting.md)."""
    return {
        "comparable": report.comparable,
        "missing": report.missing,
        "tolerance": report.tolerance,
        "findings": [{"severity": f.severity, "text": f.text} for f in report.findings],
    }


def not_measured(a: str, b: str, found: dict[str, HealthFacts | None]) -> HealthReport:
    absent = [f"facts/{stack}.health.json" for stack in (a, b) if found.get(stack) is None]
    return HealthReport(
        missing=f"{NOT_MEASURED}: no {' or '.join(absent)} (`trainstack health STACK`)"
    )


def measured_time(facts: HealthFacts) -> datetime:
    return datetime.strptime(facts.measured_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def compare_health(
    a: HealthFacts,
    b: HealthFacts,
    tolerance: float = DEFAULT_TOLERANCE,
    max_age: timedelta = timedelta(hours=DEFAULT_MAX_AGE_HOURS),
    runs: Sequence[datetime] = (),
) -> HealthReport:
    """Every finding of ``a`` against ``b`` (module documentation); ``runs``: when the
    compared runs started (stale relative to them), else the two measurements' times."""
    found = [*_unhealthy(a), *_unhealthy(b)]
    found += _speeds(a, b, tolerance) + _speeds(b, a, tolerance)
    found += _settings(a, b)
    found += _spans(a, b, tolerance)
    found += _stale(a, b, max_age, runs)
    return HealthReport(tuple(dict.fromkeys(found)), tolerance=tolerance)


def _unhealthy(facts: HealthFacts) -> Iterable[HealthFinding]:
    stack = facts.stack
    for node in facts.nodes:
        where = f"{stack} node {node.name}"
        for problem in node.problems:
            yield HealthFinding("not healthy", f"{where}: {problem}")
        if node.diag is not None and not node.diag.passed:
            failed = "; ".join(node.diag.failures) or "did not complete"
            yield HealthFinding(
                "not healthy", f"{where}: dcgmi diag -r {node.diag.level}: {failed}"
            )
        for gpu in node.gpus:
            if gpu.ecc_uncorrected is not None and gpu.ecc_uncorrected.value > 0:
                count = f"{gpu.ecc_uncorrected.value:g}"
                yield HealthFinding(
                    "not healthy", f"{where} GPU {gpu.index}: {count} uncorrected ECC errors"
                )
            if gpu.throttling:
                reasons = ", ".join(gpu.throttling)
                yield HealthFinding(
                    "not healthy", f"{where} GPU {gpu.index}: throttled ({reasons})"
                )
    for span in facts.spans:
        for problem in span.problems:
            yield HealthFinding("not healthy", f"{stack} {span.name}: {problem}")


Reading = Callable[[NodeHealth], tuple[float, str] | None]


def _slowest(pick: Callable[[GpuHealth], Figure | None]) -> Reading:
    def read(node: NodeHealth) -> tuple[float, str] | None:
        values = [(figure.value, gpu.index) for gpu in node.gpus if (figure := pick(gpu))]
        if not values:
            return None
        value, index = min(values)
        return value, f"GPU {index}"

    return read


def _busbw(node: NodeHealth) -> tuple[float, str] | None:
    return (node.busbw_gbps.value, "") if node.busbw_gbps else None


FIGURES: tuple[tuple[str, str, Reading], ...] = (
    ("GEMM FP16", "TFLOPS", _slowest(lambda gpu: gpu.gemm_fp16_tflops)),
    ("GEMM FP32", "TFLOPS", _slowest(lambda gpu: gpu.gemm_fp32_tflops)),
    ("busbw within the node", "GB/s", _busbw),
)


def _speeds(facts: HealthFacts, other: HealthFacts, tolerance: float) -> list[HealthFinding]:
    """Each node of ``facts`` against the median of ``other``'s nodes of its pool."""
    found = []
    for name, unit, read in FIGURES:
        reference: dict[str, list[float]] = {}
        for node in other.nodes:
            reading = read(node)
            if reading is not None:
                reference.setdefault(node.pool, []).append(reading[0])
        for node in facts.nodes:
            reading = read(node)
            values = reference.get(node.pool)
            if reading is None or not values:
                continue
            median = statistics.median(values)
            if median > 0 and abs(reading[0] - median) / median > tolerance:
                gpu = f" ({reading[1]})" if reading[1] else ""
                found.append(
                    HealthFinding(
                        "not comparable",
                        f"{facts.stack} node {node.name}{gpu}: {name} {reading[0]:g} {unit} vs "
                        f"{other.stack} {median:g} {unit} (median of its {len(values)} "
                        f"node(s) of pool {node.pool}): {_percent(reading[0], median)}, beyond "
                        f"±{tolerance:.0%}",
                    )
                )
    return found


def _percent(value: float, reference: float) -> str:
    return f"{(value / reference - 1) * 100:+.1f}%"


SETTINGS: tuple[tuple[str, Callable[[GpuHealth], str | None]], ...] = (
    ("max SM clock", lambda g: _shown(g.sm_clock_max_mhz, "MHz")),
    ("applications clock", lambda g: _shown(g.sm_clock_applications_mhz, "MHz")),
    ("power limit", lambda g: _shown(g.power_limit_w, "W")),
    ("ECC mode", lambda g: g.ecc_mode),
)


def _shown(figure: Figure | None, unit: str) -> str | None:
    return None if figure is None else f"{figure.value:g} {unit}"


def _settings(a: HealthFacts, b: HealthFacts) -> list[HealthFinding]:
    """Settings that must match: each pool's values on each side, compared."""
    found = []
    pools = sorted({node.pool for node in (*a.nodes, *b.nodes)})
    for pool in pools:
        for name, read in SETTINGS:
            sides = [_values(facts, pool, read) for facts in (a, b)]
            if sides[0] and sides[1] and set(sides[0]) != set(sides[1]):
                shown = [
                    ", ".join(f"{value} ({node})" for value, node in sorted(side.items()))
                    for side in sides
                ]
                found.append(
                    HealthFinding(
                        "not comparable",
                        f"{name} on pool {pool}: {shown[0]} on {a.stack}, {shown[1]} on {b.stack}",
                    )
                )
    return found


def _values(
    facts: HealthFacts, pool: str, read: Callable[[GpuHealth], str | None]
) -> dict[str, str]:
    """Each distinct value of a setting in a pool, with the first node showing it."""
    seen: dict[str, str] = {}
    for node in sorted(facts.nodes, key=lambda n: n.name):
        if node.pool != pool:
            continue
        for gpu in node.gpus:
            value = read(gpu)
            if value is not None:
                seen.setdefault(value, f"node {node.name}")
    return seen


def _spans(a: HealthFacts, b: HealthFacts, tolerance: float) -> list[HealthFinding]:
    found = []
    theirs = {span.name: span for span in b.spans}
    for span in a.spans:
        other = theirs.get(span.name)
        if other is None or span.busbw_gbps is None or other.busbw_gbps is None:
            continue
        mine, their = span.busbw_gbps.value, other.busbw_gbps.value
        if their > 0 and abs(mine - their) / their > tolerance:
            found.append(
                HealthFinding(
                    "not comparable",
                    f"{span.name}: busbw across nodes {mine:g} GB/s on {a.stack} "
                    f"({', '.join(span.nodes)}) vs {their:g} GB/s on {b.stack} "
                    f"({', '.join(other.nodes)}): {_percent(mine, their)}, beyond ±{tolerance:.0%}",
                )
            )
    return found


def _stale(
    a: HealthFacts, b: HealthFacts, max_age: timedelta, runs: Sequence[datetime]
) -> list[HealthFinding]:
    found = []
    hours = max_age.total_seconds() / 3600
    if not runs:
        apart = abs(measured_time(a) - measured_time(b))
        if apart > max_age:
            found.append(
                HealthFinding(
                    "stale",
                    f"{a.stack} measured {a.measured_at}, {b.stack} {b.measured_at}: "
                    f"{apart.total_seconds() / 3600:.0f} h apart, more than {hours:g} h",
                )
            )
        return found
    for facts in (a, b):
        when = measured_time(facts)
        far = max(runs, key=lambda run: abs(run - when))
        if abs(far - when) > max_age:
            found.append(
                HealthFinding(
                    "stale",
                    f"{facts.stack} measured {facts.measured_at}, a run compared started "
                    f"{far.strftime('%Y-%m-%dT%H:%M:%SZ')}: more than {hours:g} h apart",
                )
            )
    return found
