"""The browser tests' live servers are idle before the test database is flushed."""

import asyncio
import contextlib
import multiprocessing
import time

from games import jobs
from tests import live_server_jobs


def slow_job(finished):
    time.sleep(0.5)
    finished.set()


def a_server_running_a_job(connection, finished):
    """A stand-in for a live server process: a job in its in-process pool, and the thread that
    answers the test process."""
    jobs._submit(slow_job, jobs.PLAY, (finished,))
    live_server_jobs.answer_idle_requests(connection)
    time.sleep(60)


@contextlib.contextmanager
def stand_in_server(target, *events):
    """Runs `target(connection, *events)` in a forked process registered as a live server."""
    context = multiprocessing.get_context("fork")
    tests_end, servers_end = context.Pipe()
    server = context.Process(target=target, args=(servers_end, *events), daemon=True)
    server.start()
    servers_end.close()
    live_server_jobs.register(tests_end)
    try:
        yield
    finally:
        live_server_jobs.unregister(tests_end)
        server.kill()
        server.join()


def test_the_test_process_waits_for_a_live_servers_jobs():
    finished = multiprocessing.get_context("fork").Event()
    with stand_in_server(a_server_running_a_job, finished):
        live_server_jobs.wait_until_servers_idle()
        assert finished.is_set(), "the server's job was still running"


def a_server_serving_a_socket(connection, serving, finished):
    """A stand-in for a live server process: its application still serving a socket when the
    test process asks, and the thread that answers."""
    live_server_jobs.answer_idle_requests(connection)

    async def application(scope, receive, send):
        serving.set()
        await asyncio.sleep(0.5)  # the connect's database work, still going when the page closed
        finished.set()

    served = live_server_jobs.counting_sockets(application)
    asyncio.run(served({"type": "websocket"}, None, None))
    time.sleep(60)


def test_the_test_process_waits_for_a_live_servers_sockets():
    context = multiprocessing.get_context("fork")
    serving, finished = context.Event(), context.Event()
    with stand_in_server(a_server_serving_a_socket, serving, finished):
        assert serving.wait(timeout=30), "the stand-in server never served its socket"
        live_server_jobs.wait_until_servers_idle()
        assert finished.is_set(), "the server was still serving a socket"


def test_a_server_that_died_is_not_waited_for():
    context = multiprocessing.get_context("fork")
    tests_end, servers_end = context.Pipe()
    server = context.Process(target=time.sleep, args=(0,), daemon=True)
    server.start()
    server.join()
    servers_end.close()  # no process holds the server's end any more
    live_server_jobs.register(tests_end)
    started = time.monotonic()
    try:
        live_server_jobs.wait_until_servers_idle()
    finally:
        live_server_jobs.unregister(tests_end)
    assert time.monotonic() - started < 5
