"""A real Daphne on the production profile (this test's PostgreSQL database, the test run's Redis),
started as an operator starts it, for the tests whose finding lives in the server process: pools
of database connections, streams that outlive their request.

`start_daphne(env={...})` -> the site's base URL; the process is stopped at the end of the test
and its log printed (pytest shows it when the test failed).
"""

import tempfile
from pathlib import Path

import pytest

from tests.load.servers import HOST, Servers, answers, spawn, tool
from tests.services import require_postgresql, require_redis
from tests.web.test_celery_worker import test_database_url
from tests.web.test_faults import own_ports, site_env, wait_until

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 90.0


@pytest.fixture
def start_daphne():
    require_postgresql()
    redis_url = require_redis()
    started: list[Servers] = []

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
        started.append(servers)
        port = own_ports(1, start=19400)[0]
        argv = [tool(ROOT, "daphne"), "-b", HOST, "-p", str(port)]
        spawn(servers, "daphne", [*argv, "condottiere_site.asgi:application"], f"d{port}", port)
        url = f"http://{HOST}:{port}"
        wait_until(lambda: answers(url + "/"), READY_TIMEOUT, "Daphne did not start", every=0.5)
        return url

    yield start
    for servers in started:
        for process in servers.processes:
            print(f"--- {process.kind} ---\n{process.tail(60)}")
        servers.stop()
