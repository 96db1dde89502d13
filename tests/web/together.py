"""Requests sent together: the way to probe a limit under concurrency (one after another would
never find a limit that counts after the work)."""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import connections


def send_together(count: int, send: Callable[[int], object]) -> list:
    """Call `send(index)` for index 0..count-1, each on a thread of its own, all released at the
    same instant by a barrier; the answers in index order. Each thread closes its database
    connections, so that the test database can be dropped at the end."""
    barrier = threading.Barrier(count)

    def one(index: int):
        try:
            barrier.wait(timeout=60)
            return send(index)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(one, range(count)))
