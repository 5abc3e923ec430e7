"""``trainstack health STACK --render DIR``: the objects a run would create, written to
``DIR/STACK/`` (one YAML file each, replaced whole as a plan directory is:
:mod:`trainstack.plan.output_dir`) after every one passed Kubernetes' strict schemas and,
with a CRD directory (``TRAINSTACK_CRD_DIR``), the MPI operator's: a render that passes
is what the API server accepts."""

from __future__ import annotations

from pathlib import Path

from trainstack.config.stack import StackConfig
from trainstack.conformance import CrdSchemas, violations
from trainstack.core.yaml.io import canonical_yaml
from trainstack.healthrun.checks import Checks
from trainstack.plan.conformance import refuse, schema_files
from trainstack.plan.output_dir import replacing


def check_objects(checks: Checks, config: StackConfig, crd_dir: Path | None) -> str:
    """Raise :class:`PlanError` listing the objects the API server would refuse; return
    what they were checked against."""
    crds = None if crd_dir is None else CrdSchemas(crd_dir)
    refuse(violations(checks.objects(), crds, schema_files(config)), "health")
    if crds is None:
        return "checked against Kubernetes' strict schemas (MPIJob: give TRAINSTACK_CRD_DIR)"
    return "checked against Kubernetes' strict schemas and the MPI operator's CRD"


def file_name(index: int, document: dict[str, object]) -> str:
    """``0001-job-health-node-....yaml``: creation order, kind, name."""
    metadata = document["metadata"]
    assert isinstance(metadata, dict)
    return f"{index:04d}-{str(document['kind']).lower()}-{metadata['name']}.yaml"


def render(checks: Checks, output_dir: Path, stack: str) -> Path:
    """Write every object of ``checks`` into ``output_dir/stack``; the directory."""
    with replacing(output_dir, stack) as staging:
        for index, document in enumerate(checks.objects()):
            (staging / file_name(index, document)).write_text(
                canonical_yaml(document), encoding="utf-8"
            )
    return output_dir / stack
