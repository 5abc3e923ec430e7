"""A check's result: an error (the plan stops) or a warning (the plan goes on)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from trainstack.core.mentions import Files
from trainstack.core.warning_ids import WARNING_IDS

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Finding:
    """One problem of one experiment: the file, the experiment, the key and the numbers."""

    source: str
    experiment: str
    key: str
    message: str
    severity: Severity = "error"
    check: str = ""
    """A warning's id (:data:`trainstack.core.warning_ids.WARNING_IDS`): what an
    acknowledgement names."""

    def __post_init__(self) -> None:
        if self.severity == "warning" and self.check not in WARNING_IDS:
            raise ValueError(f"warning without a registered id: {self.check!r} ({self.key})")

    def __str__(self) -> str:
        return self._text(self.source)

    def located(self, files: Files) -> str:
        """What is printed: ``str()`` with the key's line in the file (``file:LINE``), and
        the line of each key its message mentions (``FILE: KEY``) where that is written,
        found in ``files`` (those read, by the name messages give them).

        Not ``str()`` itself: a plan compares findings across revisions, and a line that
        moves is no new finding.
        """
        from trainstack.core.yaml.positions import at, locate_mentions

        return self._text(at(self.source, self.key, files), locate_mentions(self.message, files))

    def _text(self, where: str, message: str | None = None) -> str:
        message = self.message if message is None else message
        text = f"{where}: experiment {self.experiment}: {self.key}: {message}"
        return f"{text} [{self.check}]" if self.severity == "warning" else text


def warning(source: str, experiment: str, key: str, message: str, check: str) -> Finding:
    """A warning of kind ``check``."""
    return Finding(source, experiment, key, message, "warning", check)
