"""One node's (or shape's) logs read into its health: each tool's section through its
parser, and every reason a figure is missing kept as a problem of the node."""

from __future__ import annotations

from trainstack.health.model import DiagResult, Figure, GpuHealth, NodeHealth, SpanHealth
from trainstack.health.parse_diag import parse_diag
from trainstack.health.parse_nccl import parse_all_reduce
from trainstack.health.parse_proftester import parse_proftester
from trainstack.health.parse_smi import SmiGpu, parse_smi
from trainstack.health.sections import Section, sections

SMI, FP16, FP32, DIAG = (
    "nvidia-smi -q",
    "dcgmproftester12 -t 1004",
    "dcgmproftester12 --cublas -t 1007",
    "dcgmi diag",
)


def _problem(name: str, section: Section | None) -> str | None:
    if section is None:
        return f"{name}: no output (the check ended before it ran)"
    if section.status is None:
        return f"{name}: its output ends before its exit status (cut short)"
    if section.status != 0:
        return f"{name}: exited with status {section.status}"
    return None


def _gpu(index: int, smi: SmiGpu | None, fp16: Figure | None, fp32: Figure | None) -> GpuHealth:
    smi = smi or SmiGpu()
    return GpuHealth(
        index=index,
        product=smi.product,
        uuid=smi.uuid,
        sm_clock_max_mhz=smi.sm_clock_max_mhz,
        sm_clock_applications_mhz=smi.sm_clock_applications_mhz,
        power_limit_w=smi.power_limit_w,
        ecc_mode=smi.ecc_mode,
        ecc_uncorrected=smi.ecc_uncorrected,
        throttling=smi.throttling,
        gemm_fp16_tflops=fp16,
        gemm_fp32_tflops=fp32,
    )


def node_health(
    node: str,
    pool: str,
    gpus: int,
    level: int,
    check_log: str | None,
    nccl_log: str | None,
    failures: list[str],
) -> NodeHealth:
    """The health of one node from its two logs (``None``: not read) and what failed."""
    problems = list(failures)
    parts = sections(check_log or "")
    for name in (SMI, FP16, FP32, DIAG):
        problem = _problem(name, parts.get(name)) if check_log is not None else None
        if problem:
            problems.append(problem)
    smi = parse_smi(parts[SMI].text) if SMI in parts else []
    fp16 = parse_proftester(parts[FP16].text, 1004) if FP16 in parts else None
    fp32 = parse_proftester(parts[FP32].text, 1007) if FP32 in parts else None
    for result in (fp16, fp32):
        if result is not None:
            problems += result.problems
    if check_log is not None and len(smi) != gpus:
        problems.append(f"nvidia-smi -q: {len(smi)} GPU block(s), the pool has {gpus} per node")
    diag = None
    if DIAG in parts:
        table = parse_diag(parts[DIAG].text)
        problems += table.problems
        diag = DiagResult(
            level=level, passed=table.passed, failures=list(table.failures), excerpt=table.excerpt
        )
    busbw = None
    if nccl_log is not None:
        nccl = parse_all_reduce(nccl_log)
        busbw = nccl.busbw_gbps
        problems += nccl.problems
    count = max(gpus, len(smi))
    return NodeHealth(
        name=node,
        pool=pool,
        gpus=[
            _gpu(
                index,
                smi[index] if index < len(smi) else None,
                fp16.tflops.get(index) if fp16 else None,
                fp32.tflops.get(index) if fp32 else None,
            )
            for index in range(count)
        ],
        diag=diag,
        busbw_gbps=busbw,
        problems=sorted(set(problems)),
    )


def span_health(
    name: str, experiments: list[str], nodes: list[str], log: str | None, failures: list[str]
) -> SpanHealth:
    """The interconnect of one shape from its launcher's log."""
    problems = list(failures)
    busbw = None
    if log is not None:
        nccl = parse_all_reduce(log)
        busbw = nccl.busbw_gbps
        problems += nccl.problems
    return SpanHealth(
        name=name,
        experiments=sorted(experiments),
        nodes=sorted(nodes),
        busbw_gbps=busbw,
        problems=sorted(set(problems)),
    )
