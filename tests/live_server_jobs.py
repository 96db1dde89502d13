"""The in-process jobs of the live servers that browser tests start.

Each such server is a Daphne process of its own, with its own in-process job pool: a bot turn or
an analysis it runs when a test ends would race the test database's flush (PostgreSQL then
reports a deadlock, and the next test finds the database unflushed). Pytest's own pool is waited
for in tests/conftest.py; a server's is reached through a pipe: the test process asks, and a
thread in the server cancels its delayed jobs and waits until no job is queued or running.

A socket is the same race. Its consumer accepts, then reads and writes the database (its
Presence row, the first state): a page closed while that runs leaves the server working on after
the page is gone, and a Presence row written late escapes the browser tests' wait for the rows
to go (tests/e2e/conftest.py, seen as a deadlock in CI on a loaded machine). So a server counts
the websocket connections its application is still serving (`counting_sockets`), and the
thread waits for none before it waits for the jobs (a socket's close may still queue one).
"""

import threading
import time
from multiprocessing.connection import Connection

# Seconds a server may take to become idle (a job may chain a few bot turns).
IDLE_TIMEOUT = 60

_servers: set[Connection] = set()  # the test process's end of each live server's pipe
_lock = threading.Lock()
# In a server process: the websocket connections its application is serving, from the handshake
# until the consumer's disconnect has run (only its event loop changes it).
_open_sockets = 0


def counting_sockets(application):
    """In a server process: `application`, counting the websocket connections it serves."""

    async def counted(scope, receive, send):
        global _open_sockets
        if scope["type"] != "websocket":
            return await application(scope, receive, send)
        _open_sockets += 1
        try:
            return await application(scope, receive, send)
        finally:
            _open_sockets -= 1

    return counted


def wait_for_sockets_served(timeout: float) -> bool:
    """In a server process: until its application serves no websocket; False on the timeout."""
    deadline = time.monotonic() + timeout
    while _open_sockets:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def register(connection: Connection) -> None:
    with _lock:
        _servers.add(connection)


def unregister(connection: Connection) -> None:
    with _lock:
        _servers.discard(connection)


def wait_until_servers_idle() -> None:
    """In the test process: every live server has served its sockets to the end and finished
    its jobs (or stopped answering)."""
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
                deadline = time.monotonic() + timeout
                served = wait_for_sockets_served(timeout)
                cancel_delayed()
                left = max(0.0, deadline - time.monotonic())
                idle = wait_until_idle(timeout=left) and served
            except Exception:  # an answer all the same: the test process must not wait in vain
                idle = False
            connection.send(idle)

    threading.Thread(target=serve, name="idle-requests", daemon=True).start()
