"""Time how fast hostile inputs are refused (in this process, the commands' own readers).

Run: ``.venv/bin/python -m benchmarks.hostile_inputs`` (target: each refused in under
0.5 s; they ran for minutes, exhausted memory or crashed the interpreter before).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from trainstack.core.errors import TrainstackError
from trainstack.core.quantity import quantity_problem
from trainstack.core.yaml.io import parse_helm_yaml, parse_yaml
from trainstack.experiments.model import ExperimentFile

TARGET_SECONDS = 0.5


def _laughs(levels: int) -> str:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def _billion_points() -> None:
    values = list(range(1000))
    ExperimentFile.model_validate(
        {
            "name": "scan",
            "matrix": {
                "axes": {"a": "worker.replicas", "b": "worker.gpus", "c": "env.SEED"},
                "product": {"a": values, "b": values, "c": [str(v) for v in values]},
            },
            "job": {},
        }
    )


def _quantity() -> None:
    if quantity_problem("1e999999999") is None:
        raise AssertionError("accepted")


CASES: dict[str, Callable[[], object]] = {
    "1 KB alias bomb (10^9 nodes), stack reader": lambda: parse_yaml(_laughs(9), "s.yaml"),
    "1 KB alias bomb (10^9 nodes), Helm reader": lambda: parse_helm_yaml(_laughs(9), "v.yaml"),
    "200,000 nested lists": lambda: parse_helm_yaml("a: " + "[" * 200_000 + "]" * 200_000, "v"),
    "a billion-point matrix product": _billion_points,
    "quantity 1e999999999": _quantity,
}


def main() -> None:
    """Print the time each hostile input takes to be refused."""
    for name, case in CASES.items():
        started = time.perf_counter()
        try:
            case()
        except (TrainstackError, ValueError):
            pass
        seconds = time.perf_counter() - started
        verdict = "ok" if seconds < TARGET_SECONDS else "OVER TARGET"
        print(f"hostile_inputs: {name}: refused in {seconds:.3f} s ({verdict})")


if __name__ == "__main__":
    main()
