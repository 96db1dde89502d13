"""The embedded default's settings, unchanged but for the SQLite file's place.

`make run` with nothing set serves from db.sqlite3 in the working tree; a test that starts that
profile in a process of its own gives it a file of its own instead (EMBEDDED_SQLITE_PATH), so that
it neither touches a developer's database nor needs DATABASE_URL, which would leave the embedded
branch of condottiere_site/settings.py untested.
"""

import os

from condottiere_site.settings import *  # noqa: F403 - every setting, as the default has it
from condottiere_site.settings import DATABASES

if "DATABASE_URL" in os.environ or "REDIS_URL" in os.environ:
    raise RuntimeError("the embedded default is served with neither DATABASE_URL nor REDIS_URL")

DATABASES["default"]["NAME"] = os.environ["EMBEDDED_SQLITE_PATH"]
