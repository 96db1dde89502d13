"""The load harness's smoke scenario, end to end, as CI runs it.

The harness starts the production profile itself (a fresh PostgreSQL database, a Redis database
number of its own, one Daphne, a Celery worker and beat), signs two people up through the forms,
has them play bots over the game socket for 10 s, and checks the log. It reaches PostgreSQL and
Redis at 127.0.0.1 directly, whatever this test process's own profile is, so the guards check
those addresses rather than Django's settings.
"""

import os

import pytest

from tests.load import loadtest
from tests.load.servers import drop_database, lock_redis_db
from tests.services import missing, port_open

pytestmark = [pytest.mark.production, pytest.mark.slow, pytest.mark.timeout(120)]


def require_local_postgresql() -> None:
    if not port_open("127.0.0.1", 5432):
        missing("PostgreSQL does not answer at 127.0.0.1:5432: the load harness needs it")


def require_local_redis() -> None:
    if not port_open("127.0.0.1", 6379):
        missing("Redis does not answer at 127.0.0.1:6379: the load harness needs it")


def free_redis_db() -> int:
    """A Redis database number no other load run holds (7 is the harness's default)."""
    for number in range(8, 16):
        lock = lock_redis_db(number)
        if lock is not None:
            lock.close()
            return number
    pytest.fail("every Redis database 8-15 is held by another load run")


def test_the_smoke_scenario_plays_without_errors_or_lost_actions():
    require_local_postgresql()
    require_local_redis()
    database = f"condottiere_load_smoke_{os.getpid()}"
    argv = ["smoke", "--db-name", database, "--redis-db", str(free_redis_db())]
    try:
        [result] = loadtest.run(argv)
    finally:
        drop_database(database)

    figures = result.figures
    assert figures["games_started"] >= 2
    assert figures["person_actions_total"] > 0
    assert figures["bot_actions_total"] > 0
    assert figures["latency_samples"] > 0
    assert figures["errors"] == 0, dict(result.errors)
    assert figures["lost"] == 0
    assert figures["doubled"] == 0
    assert figures["log_gaps"] == 0
    assert result.verdict is not None and result.verdict.ok, result.verdict
    assert "0 differ" in result.verdict.summary
