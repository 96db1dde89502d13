"""`make test` runs the suite on parallel pytest-xdist workers (tests/conftest.py)."""

import os
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import redis_database_url


def test_redis_database_url_replaces_only_the_database_number():
    assert redis_database_url("redis://127.0.0.1:6379/0", 2) == "redis://127.0.0.1:6379/2"
    assert redis_database_url("redis://:secret@cache:6380", 1) == "redis://:secret@cache:6380/1"


@pytest.mark.skipif(
    "PYTEST_XDIST_WORKER" not in os.environ or not os.environ.get("REDIS_URL"),
    reason="only a parallel worker in the Redis profile has a Redis database of its own",
)
def test_a_parallel_worker_has_a_redis_database_of_its_own():
    """Workers' games share ids (each has its own test database); on one Redis database their
    sockets' groups and Celery queues would cross."""
    worker_number = int(os.environ["PYTEST_XDIST_WORKER"].removeprefix("gw"))
    for url in (
        settings.REDIS_URL,
        settings.CELERY_BROKER_URL,
        settings.CACHES["default"]["LOCATION"],
    ):
        assert urlsplit(url).path == f"/{worker_number + 1}"


@pytest.mark.django_db
def test_each_process_has_a_test_database_of_its_own():
    assert str(os.getpid()) in str(connection.settings_dict["NAME"])
