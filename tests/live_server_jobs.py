"""The in-process jobs of the live servers that browser tests start.

Each such server is a Daphne process of its own, with its own in-process job pool: a bot turn or
an analysis it runs when a test ends would race the test database's flush (PostgreSQL then
reports a deadlock, and the next test finds the database unflushed). Pytest's own pool is waited
for in tests/conftest.py; a server's is reached through a pipe: the test process asks, and a
thread in the server cancels its delayed jobs and waits until no job is queued or running.
"""

import threading
from multiprocessing.connection import Connection

# Seconds a server may take to become idle (a job may chain a few bot turns).
IDLE_TIMEOUT = 60

_servers: set[Connection] = set()  # the test process's end of each live server's pipe
_lock = threading.Lock()


def register(connection: Connection) -> None:
    with _lock:
        _servers.add(connection)


def unregister(connection: Connection) -> None:
    with _lock:
        _servers.discard(connection)


def wait_until_servers_idle() -> None:
    """In the test process: every live server's jobs are finished (or it stopped answering)."""
    with _lock:
        connections = list(_servers)
    for connection in connections:
        try:
            connection.send(IDLE_TIMEOUT)
            if connection.poll(IDLE_TIMEOUT + 5):
                connection.recv()
        except (EOFError, OSError):  # the server has stopped: nothing of it can still run
            continue


def answer_idle_requests(connection: Connection) -> None:
    """In a server process: a daemon thread that answers `wait_until_servers_idle`."""
    from games.jobs import cancel_delayed, wait_until_idle

    def serve():
        while True:
            try:
                timeout = connection.recv()
            except (EOFError, OSError):
                return
            try:
                cancel_delayed()
                idle = wait_until_idle(timeout=timeout)
            except Exception:  # an answer all the same: the test process must not wait in vain
                idle = False
            connection.send(idle)

    threading.Thread(target=serve, name="idle-requests", daemon=True).start()
