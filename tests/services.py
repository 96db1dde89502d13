"""Guards for tests that need a real service (PostgreSQL, Redis, Chromium).

Under CI=true a missing service fails the test: CI must never pass by skipping.
Outside CI the test skips and says why, so a newcomer without the services can still run the rest.
"""

import os
import shutil
import socket
from urllib.parse import urlparse

import pytest
from django.conf import settings


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def missing(reason: str) -> None:
    if in_ci():
        pytest.fail(f"CI=true and {reason}")
    pytest.skip(reason)


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def require_redis() -> str:
    """The REDIS_URL in use, after checking that the profile uses Redis and it answers."""
    url = settings.REDIS_URL
    if not url:
        missing("REDIS_URL is not set: this test needs the production profile's Redis")
    parsed = urlparse(url)
    if not port_open(parsed.hostname, parsed.port or 6379):
        missing(f"Redis at {url} does not answer")
    return url


def require_postgresql() -> None:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing("DATABASE_URL does not point at PostgreSQL: this test needs it")


def require_chromium() -> str:
    path = shutil.which("chromium")
    if not path:
        missing("Debian's chromium is not installed (apt-get install chromium)")
    return path
