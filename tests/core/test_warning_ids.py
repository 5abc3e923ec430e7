"""The warning ids: docs/warnings.md's table is WARNING_IDS, in its order, word for word.

Regenerate after a change: ``.venv/bin/python -m tests.core.test_warning_ids`` prints the
table to paste into docs/warnings.md.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.stack_helpers import REPO
from trainstack.core.warning_ids import UNACKNOWLEDGEABLE, WARNING_IDS, StackAcknowledgement

PAGE = REPO / "docs" / "warnings.md"


def table() -> str:
    """The page's table of warning ids."""
    rows = [f"| `{check}` | {about} |" for check, about in WARNING_IDS.items()]
    return "\n".join(["| id | warns about |", "|---|---|", *rows]) + "\n"


def test_the_warnings_page_lists_every_warning_id() -> None:
    page = PAGE.read_text(encoding="utf-8")
    section = page[page.index("\n## Warning ids\n") :]
    assert table() in section.split("\n## ")[1]


@pytest.mark.parametrize("check", ["staleAcknowledgement", "selectedByNoStack"])
def test_some_warnings_cannot_be_acknowledged(check: str) -> None:
    assert {"staleAcknowledgement", "selectedByNoStack"} == UNACKNOWLEDGEABLE
    with pytest.raises(ValidationError, match="a warning id: borrowing, hostNetwork, memoryLimit"):
        StackAcknowledgement.model_validate({"warning": check, "reason": "cleaning up later"})


if __name__ == "__main__":
    print(table(), end="")
