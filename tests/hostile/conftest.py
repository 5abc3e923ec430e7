"""The recorded cluster's fixtures (``root``, ``api``, ``cluster``) for the live cases, and
the check that a command run in this process leaks no planted secret past its streams."""

from collections.abc import Iterator

import pytest

from tests.live.conftest import api, cluster, digests, root

__all__ = ["api", "cluster", "digests", "no_secret_in_logs_or_warnings", "root"]


@pytest.fixture()
def no_secret_in_logs_or_warnings(
    caplog: pytest.LogCaptureFixture, recwarn: pytest.WarningsRecorder
) -> Iterator[None]:
    """A warning or a log record of a command run in this process goes to pytest, where a
    process of its own prints it on stderr: none may carry ``SECRET`` (the secrets these
    tests plant all hold the word), as the process's stderr may not."""
    yield
    logged = [record.getMessage() for record in caplog.get_records("call")]  # (at teardown)
    assert not [line for line in logged if "SECRET" in line]
    assert not [warning for warning in recwarn if "SECRET" in str(warning.message)]
