"""A real Daphne on the production profile (this test's PostgreSQL database, the test run's Redis),
started as an operator starts it, for the tests whose finding lives in the server process: pools
of database connections, streams that outlive their request.

`start_daphne(env={...})` -> the site's base URL; the process is stopped at the end of the test
and its log printed (pytest shows it when the test failed). `start_daphne.stop(url)` stops one
before that, as an operator does (SIGTERM).
"""

import random
import tempfile
from pathlib import Path

import pytest

from tests.load.servers import HOST, Process, Servers, answers, spawn, tool
from tests.services import require_postgresql, require_redis
from tests.web.test_celery_worker import test_database_url
from tests.web.test_faults import own_ports, site_env, wait_until

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 90.0


def listening(daphne: Process) -> bool:
    log = daphne.log.read_text(errors="replace")
    assert "Listen failure" not in log and daphne.popen.poll() is None, log[-2000:]
    return "Listening on TCP address" in log


@pytest.fixture
def start_daphne():
    require_postgresql()
    redis_url = require_redis()
    started: dict[str, Servers] = {}

    def start(env: dict | None = None) -> str:
        workdir = Path(tempfile.mkdtemp(prefix="condottiere-botapi-"))
        servers = Servers(
            urls=[],
            database_url=test_database_url(),
            root=ROOT,
            env=site_env(redis_url, test_database_url(), env or {}),
            workdir=workdir,
            started_here=True,
        )
        # A port at random in this worker's range: two test runs starting at the same moment
        # (two checkouts, two people) rarely pick the same one.
        port = own_ports(1, start=19400 + random.randrange(0, 900))[0]
        argv = [tool(ROOT, "daphne"), "-b", HOST, "-p", str(port)]
        daphne = spawn(
            servers, "daphne", [*argv, "condottiere_site.asgi:application"], f"d{port}", port
        )
        url = f"http://{HOST}:{port}"
        started[url] = servers  # stopped at the end whatever happens next
        # Listening itself: an answer alone could come from another server that took the port
        # first (this one then fails to listen, and stops).
        wait_until(lambda: listening(daphne), READY_TIMEOUT, "Daphne did not start", every=0.5)
        wait_until(lambda: answers(url + "/"), READY_TIMEOUT, "Daphne did not answer", every=0.5)
        return url

    start.stop = lambda url: started[url].stop()
    yield start
    for servers in started.values():
        for process in servers.processes:
            print(f"--- {process.kind} ---\n{process.tail(60)}")
        servers.stop()
