from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.stats.pg_cluster import Cluster, missing_reason

_names = itertools.count()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    reason = missing_reason()
    if reason:
        pytest.skip(reason)
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A fresh, empty database in the session's cluster."""
    return pg_cluster.create_db(f"t{next(_names)}")
