"""Plan-time checks: mistakes that would leave a job Pending, caught before deployment."""

from trainstack.checks.findings import Finding, Severity
from trainstack.checks.run import check_experiments, enforce

__all__ = ["Finding", "Severity", "check_experiments", "enforce"]
