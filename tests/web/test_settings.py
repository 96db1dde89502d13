"""Bad settings stop the start with a one-line explanation; production is deploy-clean."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-key-" + "x7Kq9mZp2Lw4" * 4,
    "DJANGO_ALLOWED_HOSTS": "condottiere.example.org",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**BASE_ENV, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_stops_with(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Configuration error:")
    for word in words:
        assert word in lines[0]


def test_production_without_a_secret_key_stops():
    env = {**PRODUCTION}
    del env["DJANGO_SECRET_KEY"]
    assert_stops_with(manage("check", **env), "DJANGO_SECRET_KEY")


def test_production_without_allowed_hosts_stops():
    env = {**PRODUCTION}
    del env["DJANGO_ALLOWED_HOSTS"]
    assert_stops_with(manage("check", **env), "DJANGO_ALLOWED_HOSTS")


@pytest.mark.parametrize(
    "url",
    ["mysql://root@localhost/test", "not a url", "postgres://localhost:notaport/test"],
)
def test_a_malformed_database_url_stops(url):
    assert_stops_with(manage("check", DATABASE_URL=url), "DATABASE_URL")


@pytest.mark.parametrize("url", ["http://localhost:6379", "redis://", "redis://host:port/0"])
def test_a_malformed_redis_url_stops(url):
    assert_stops_with(manage("check", REDIS_URL=url), "REDIS_URL")


def test_a_word_that_is_not_a_boolean_stops():
    assert_stops_with(manage("check", DJANGO_DEBUG="maybe"), "DJANGO_DEBUG", "'maybe'")


def test_production_passes_the_deploy_check():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def settings_of(code: str, **env: str) -> str:
    program = f"import django; django.setup(); from django.conf import settings as s; print({code})"
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env={**BASE_ENV, "DJANGO_SETTINGS_MODULE": "condottiere_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_postgresql_connections_come_from_a_pool_checked_before_each_loan():
    """Django advises pooling, not persistent connections, under ASGI."""
    url = "postgres://postgres@127.0.0.1:5432/test"
    code = (
        "s.DATABASES['default']['CONN_MAX_AGE'], s.DATABASES['default']['CONN_HEALTH_CHECKS'],"
        " s.DATABASES['default']['OPTIONS'].get('pool')"
    )
    pooled = settings_of(code, DATABASE_URL=url, DATABASE_POOL_SIZE="5")
    assert pooled == "0 True {'min_size': 2, 'max_size': 5, 'timeout': 10}"
    assert settings_of(code, DATABASE_URL=url, DATABASE_POOL_SIZE="0") == "0 False None"


def test_the_channel_layer_reads_longer_than_its_blocking_read():
    """redis-py 8's 5 s default would cut channels-redis's 5 s blocking read short."""
    host = settings_of(
        "s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]", REDIS_URL="redis://h:1/0"
    )
    assert "'socket_timeout': 30" in host and "'address': 'redis://h:1/0'" in host
    assert "'max_connections': 1000" in host  # redis-py 8's 100 failed 200 closing sockets
