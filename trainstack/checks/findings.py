"""A check's result: an error (the plan stops) or a warning (the plan goes on)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Finding:
    """One problem of one experiment: the file, the experiment, the key and the numbers."""

    source: str
    experiment: str
    key: str
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        return f"{self.source}: experiment {self.experiment}: {self.key}: {self.message}"

    def located(self) -> str:
        """What is printed: ``str()`` with the key's line in the file (``file:LINE``).

        Not ``str()`` itself: a plan compares findings across revisions, and a line that
        moves is no new finding.
        """
        from trainstack.yaml_positions import at

        return f"{at(self.source, self.key)}: experiment {self.experiment}: {self.key}: " + (
            self.message
        )
