"""Which profile is in force: CI must run against the real PostgreSQL and Redis."""

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from tests.services import in_ci, require_postgresql, require_redis

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_ci_runs_on_postgresql():
    require_postgresql()
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")
    assert connection.vendor == "postgresql"


def test_ci_runs_on_the_redis_channel_layer():
    require_redis()
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisPubSubChannelLayer"

    async def round_trip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "probe", "text": "hello"})
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert asyncio.run(round_trip()) == {"type": "probe", "text": "hello"}
    assert settings.JOB_RUNNER == "celery"
    assert settings.CELERY_BROKER_URL == settings.REDIS_URL


def test_the_embedded_default_needs_nothing():
    """With no environment at all: SQLite, in-memory channels, bot turns in-process."""
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'],"
        " s.JOB_RUNNER, s.DEBUG)"
    )
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "condottiere_site.settings"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
        "in_process",
        "True",
    ]


def test_ci_flag_is_seen_in_ci():
    """Guards against a CI script that forgot CI=true and so would skip service tests."""
    if not in_ci():
        pytest.skip("not running under CI=true")
    assert settings.DATABASE_URL and settings.REDIS_URL
