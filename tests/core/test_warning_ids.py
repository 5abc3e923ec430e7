"""The warning ids: the README's table is WARNING_IDS, in its order, word for word.

Regenerate after a change: ``.venv/bin/python -m tests.core.test_warning_ids`` prints the
table to paste into README.md.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.stack_helpers import REPO
from trainstack.core.warning_ids import UNACKNOWLEDGEABLE, WARNING_IDS, StackAcknowledgement

SECTION = "## Reviewing changes: warnings and acknowledgements"


def table() -> str:
    """The README's table of warning ids."""
    rows = [f"| `{check}` | {about} |" for check, about in WARNING_IDS.items()]
    return "\n".join(["| id | warns about |", "|---|---|", *rows]) + "\n"


def test_the_readme_lists_every_warning_id() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index(SECTION) :]
    assert table() in section.split("\n## ")[0]


def test_a_stale_acknowledgement_cannot_be_acknowledged() -> None:
    assert UNACKNOWLEDGEABLE == {"staleAcknowledgement"}
    with pytest.raises(ValidationError, match="a warning id: borrowing, hostNetwork, memoryLimit"):
        StackAcknowledgement.model_validate(
            {"warning": "staleAcknowledgement", "reason": "cleaning up later"}
        )


if __name__ == "__main__":
    print(table(), end="")
