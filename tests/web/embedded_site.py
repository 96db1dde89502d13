"""The embedded default (`make run` with nothing set), started by a test in a process of its own:
its environment. Whatever profile the test run is in (CI runs it on PostgreSQL and Redis), the
process gets neither DATABASE_URL nor REDIS_URL, and its SQLite file is one of the test's own
(tests/web/embedded_site_settings.py moves the file, nothing else).
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Bots as fast as the site lets them be: many games, many writes, in the time a test plays.
BOT_MOVE_DELAY = 0.05


def embedded_env(database: Path) -> dict:
    """This process's environment without any of the site's settings (so no DATABASE_URL nor
    REDIS_URL: the embedded default), the SQLite file moved to `database`."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "BOT_", "JOB_", "CELERY_", "DATABASE_", "REDIS_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="tests.web.embedded_site_settings",
        EMBEDDED_SQLITE_PATH=str(database),
        BOT_MOVE_DELAY=str(BOT_MOVE_DELAY),
        BOT_THINK_SECONDS="0.05",
        # The clients all come from 127.0.0.1: the per-address caps on sign-ups and on sockets
        # opened a minute would stop the sixth sign-up and, past 60 sockets a minute, the
        # watchers' sockets (the load harness gives each client an address instead,
        # docs/operations.md). Those limits have tests of their own.
        SIGNUPS_PER_IP="0",
        SOCKET_CONNECTS_PER_MINUTE="0",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    return env
