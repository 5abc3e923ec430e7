"""Where ``trainstack plan`` finds CRD schemas: ``--crd-dir``, else ``$TRAINSTACK_CRD_DIR``.

Apart from :mod:`trainstack.plan.conformance` (which loads the schema checker): the
command line reads it at start-up for the option's help.
"""

from __future__ import annotations

import os
from pathlib import Path

CRD_DIR_ENV = "TRAINSTACK_CRD_DIR"
"""Where ``trainstack plan`` finds CRD schemas when ``--crd-dir`` is not given."""


def crd_dir_from(option: Path | None) -> Path | None:
    """``--crd-dir``, else ``$TRAINSTACK_CRD_DIR``, else none (catalog facts only)."""
    if option is not None:
        return option
    value = os.environ.get(CRD_DIR_ENV)
    return Path(value) if value else None
