"""The recorded cluster's fixtures (``root``, ``api``, ``cluster``) for the live cases."""

from tests.live.conftest import api, cluster, digests, root

__all__ = ["api", "cluster", "digests", "root"]
