"""How large an input trainstack accepts: every bound in one place, checked before the work.

Each bound keeps a command within seconds and within memory on any input, and each is
far above what a real stack or experiment needs (the examples stay under 1% of them).
docs/limits.md lists them; error messages name the one that was hit.
"""

from __future__ import annotations

MAX_FILE_BYTES = 1 << 20
"""A YAML file the user wrote (stack file, experiment, values file): 1 MiB."""

MAX_PLAN_FILE_BYTES = 64 << 20
"""A JSON file of a plan directory read by ``trainstack diff --plans``: 64 MiB."""

MAX_YAML_DEPTH = 64
"""Mappings and lists nested in each other. Checked on libyaml's event stream, before
any recursive reader (ruamel.yaml's composer, Helm's Go decoder) sees the document: deep
nesting crashed those with a stack overflow (SIGSEGV)."""

MAX_YAML_NODES = 100_000
"""Keys, values and list items of one document, counted after alias expansion: a 1 KB
"billion laughs" document is refused in milliseconds instead of expanding to 10^9."""

MAX_YAML_EXPANDED_CHARS = 8 << 20
"""Characters of all scalars of one document after alias expansion (8 Mi)."""

MAX_SCALAR_CHARS = 64 << 10
"""One string value (a command, a description): 64 Ki characters."""

MAX_MATRIX_POINTS = 256
"""Points of one experiment matrix; a ``product`` is counted arithmetically first."""

MAX_EXPERIMENT_FILES = 10_000
"""Files in the experiments directory, counted before any is read. Measured (issue 40):
reading and validating 10,000 experiment files takes about 9 s of CPU and 110 MiB, and
checking their jobs 3 s more (benchmarks/plan_many_experiments.py's files)."""

MAX_EXPERIMENTS = 10_000
"""Experiments in the experiments directory (after matrix expansion), counted before any
matrix is expanded: every one is checked at every plan, selected or not, at about 0.3 ms
of CPU each (the files' budget above). Only the selected ones are rendered: their bound
is :data:`MAX_RELEASES`."""

MAX_RUNS = 100
"""Runs of one experiment a stack deploys (``trainstack:experiments.runs``), and that one
``trainstack run`` submits per stack and matrix point (``--runs``)."""

MAX_RELEASES = 2048
"""Releases one stack deploys: its selected experiments times their runs (each run is a
Helm release, rendered and checked at every plan). Measured (issue 40,
benchmarks/plan_many_experiments.py): a plan costs about 70 ms of CPU and 0.4 MiB per
release beyond a fixed 230 MiB, so 2,048 releases plan within about 150 s of CPU and
1.1 GiB, the budget of a CI runner with 2 cores and 7 GiB."""

MAX_REPLICAS = 10_000
"""Pods of one role of a training job (Kubernetes allows int32; plan-time checks place
every pod on the pool, so an unbounded count would make them run for minutes)."""

INT32_MAX = 2**31 - 1
"""Kubernetes int32 fields: ports, replicas, ttlSecondsAfterFinished, backoffLimit..."""

INT64_MAX = 2**63 - 1
"""Kubernetes int64 fields: activeDeadlineSeconds, tolerationSeconds..."""

MAX_QUANTITY_CHARS = 64
"""A Kubernetes quantity as text (``32Gi``, ``500m``)."""

MAX_QUANTITY_VALUE = INT64_MAX
"""A quantity's value: Kubernetes caps anything larger (resource.Quantity: "no quantity
may represent a number greater than 2^63-1 in magnitude"), so it is refused instead."""

MAX_JSON_DEPTH = 64
"""Objects and arrays nested in each other in a JSON file trainstack reads (results files,
plan and cache files) or an API response: the same bound as YAML's. JSON readers recurse,
so a deeper document would otherwise fail (or not) wherever the reader's own limit is."""

MAX_API_RESPONSE_BYTES = 64 << 20
"""One answer of the Kubernetes API server (a page of a list, an object): 64 MiB. A page of
500 nodes is about 10 MiB; a server that sends more is refused while reading, before the
answer is decoded."""

MAX_API_PAGES = 200
"""Pages of one list (``limit``/``continue``): 200 pages of 500 items, 100,000 objects. A
server that keeps answering with a ``continue`` token (a loop, or a hostile server) is
refused once this many pages were read."""

API_PAGE_SIZE = 500
"""Items asked for per page of a list (``limit``; client-go's pager asks for 500 too)."""

MAX_FACT_CHARS = 256
"""One string read from the cluster into a facts file (a version, an image, a label value):
Kubernetes caps label values at 63 characters; a longer one is refused, not truncated."""

MAX_CRD_FILE_BYTES = 16 << 20
"""A file of the CRD schema directory (``--crd-dir``): 16 MiB, a regular file (the largest
reference schema, Kubeflow Trainer's ClusterTrainingRuntime, is 555 KiB)."""

MAX_FACTS_FILE_BYTES = 16 << 20
"""A facts file (``facts/STACK.json``) read by ``plan``, ``diff --fairness`` and ``results``:
16 MiB (a cluster of 20,000 nodes writes about 1 MiB)."""

MAX_DURATION_SECONDS = 30 * 24 * 3600
"""An experiment's expected duration (``expectedDuration``): 30 days, longer than any
training run the platform is for; a run recorded longer is counted at its own length."""

MAX_MONEY = 10**12
"""A price per node-hour or a budget, in the stack's currency (``trainstack:cost``): far
above any instance's price or any campaign in any currency, so that every figure derived
from them (times GPUs, seconds and runs, all bounded) stays exact in the cost figures'
60-digit decimal arithmetic (``trainstack/cost/money.py``)."""

MONEY_DECIMALS = 6
"""Decimals a price or budget may have (price lists give 2 to 4)."""
