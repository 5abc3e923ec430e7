"""Rules on the release name, which names the job and, with a suffix, each of its pods.

The name is not a chart value (it is ``.Release.Name``), so the model cannot check it;
the chart's ``validateValues`` checks the same rules with the same words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from trainstack.core.describe import describe_value
from trainstack.core.errors import Problem
from trainstack.training_job.frameworks import framework

if TYPE_CHECKING:
    from trainstack.training_job.model import TrainingJob

RELEASE_KEY = "release name"
# The operators' own rule for job names (TFJob/PyTorchJob); also safe for MPIJob.
DNS_1035_PATTERN = r"^[a-z]([-a-z0-9]*[a-z0-9])?$"
HOSTNAME_MAX = 63  # pod hostnames and per-replica Services are DNS labels


def release_name_problems(release: str, job: TrainingJob) -> list[Problem]:
    """What is wrong with ``release`` as the name of ``job`` (nothing: an empty list)."""
    if re.fullmatch(DNS_1035_PATTERN, release) is None:
        return [
            Problem(
                RELEASE_KEY,
                describe_value(release),
                "lowercase letters, digits and '-', starting with a letter and ending with a "
                "letter or digit",
            )
        ]
    longest = max(framework(job.framework).pod_suffixes(job), key=len)
    if len(release) + len(longest) > HOSTNAME_MAX:
        return [
            Problem(
                RELEASE_KEY,
                describe_value(release),
                f"at most {HOSTNAME_MAX - len(longest)} characters: the pod name "
                f"{release}{longest} must fit in {HOSTNAME_MAX}",
            )
        ]
    return []
