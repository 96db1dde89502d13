"""Redis servers of a test's own, on 127.0.0.1, nothing saved to disk, killed at the end.

Under CI=true a missing redis-server binary fails the test (tests.services.missing); elsewhere
the test skips and says why.
"""

import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import redis

from tests.load.servers import HOST, free_ports
from tests.services import missing

START_TIMEOUT = 10.0
ATTEMPTS = 5


def answers(port: int) -> bool:
    try:
        return bool(redis.Redis(host=HOST, port=port, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def worker_offset() -> int:
    """A range of ports per xdist worker, so that two test files running at once do not both
    find the same ports free."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    return 1000 * int(worker or 0)


@contextlib.contextmanager
def redis_servers(count: int, first_port: int, workdir: Path):
    """Yields the ports of `count` redis-servers started here: `first_port` and the next ones
    when free (past them otherwise). A server that could not bind its port (another process took
    it in between) is given up with its companions, and the next free ports are tried."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing("redis-server is not installed: this test starts Redis servers of its own")
    start = first_port + worker_offset()
    for _ in range(ATTEMPTS):
        ports = free_ports(count, start=start)
        processes = [launch(binary, port, workdir) for port in ports]
        try:
            if all_up(processes, ports):
                yield ports
                return
        finally:
            for process in processes:
                process.kill()
                process.wait(timeout=10)
        start = ports[-1] + 1
    raise AssertionError(f"no {count} redis-servers started from port {first_port}")


def launch(binary: str, port: int, workdir: Path) -> subprocess.Popen:
    argv = [binary, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
    argv += ["--dir", str(workdir)]
    with open(workdir / f"redis-{port}.log", "ab") as log:
        return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)


def all_up(processes: list[subprocess.Popen], ports: list[int]) -> bool:
    """Every server answers on its port, and it is ours: an exited one lost the port."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in processes):
            return False
        if all(answers(port) for port in ports):
            return all(process.poll() is None for process in processes)
        time.sleep(0.1)
    return False
