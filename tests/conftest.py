"""Settings every test run shares."""

import hashlib
import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from channels.layers import channel_layers
from django.conf import settings
from django.db import connection

from games.jobs import cancel_delayed, pending_bot_turns, wait_until_idle
from tests import live_server_jobs, quick_flush

# No sweep on a timer in the test process: a test that backdates a game must see only the sweeps
# it runs itself (Django's settings are loaded before this file).
settings.JOB_SWEEP_SECONDS = 0
# The log-in and sign-up throttles count in the cache, on Redis across runs in the production
# profile: counters of this run's own, so that an earlier run's sign-ups refuse none of this one's
# (the browser tests' server, forked from here, keeps this prefix).
settings.RATELIMIT_CACHE_PREFIX = f"rl:test{os.getpid()}:"
# A transactional test's database emptied by DELETE rather than TRUNCATE (tests/quick_flush.py).
quick_flush.install()


# Parallel workers' Redis databases are 1..6 (below).
MOST_REDIS_WORKERS = 6


def pytest_xdist_setupnodes(config, specs):
    """Each parallel worker (`make test` runs pytest-xdist) gets a Redis database of its own.

    Each worker has a test database of its own (below), so two workers' games share ids: on one
    Redis database their sockets' groups and Celery queues would cross. The controller sets the
    worker's REDIS_URL before the worker starts, since Django's settings read it at start-up,
    before any conftest runs. Databases 1 to 6: the load harness keeps to 7 and 8 to 15."""
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        return
    if len(specs) > MOST_REDIS_WORKERS:
        raise pytest.UsageError(
            f"at most {MOST_REDIS_WORKERS} parallel workers with REDIS_URL set (Redis databases"
            f" 1-{MOST_REDIS_WORKERS}; the load harness uses 7-15): use -n {MOST_REDIS_WORKERS}"
        )
    for number, spec in enumerate(specs, start=1):
        spec.env["REDIS_URL"] = redis_database_url(redis_url, number)


def redis_database_url(redis_url: str, number: int) -> str:
    """`redis_url` with its database number replaced by `number`."""
    parts = urlsplit(redis_url)
    return urlunsplit(parts._replace(path=f"/{number}"))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """A test database of this pytest process's own.

    Several test runs share this working tree (developers, agents, `make test` beside a browser
    test). With one fixed test database name, one run's set-up deletes the database another
    run is using; SQLite then reports "attempt to write a readonly database" and PostgreSQL
    refuses to drop a database in use. The process id keeps them apart. The browser tests'
    server reads the name from the connection, so it follows.
    """
    from django.conf import settings

    suffix = str(os.getpid())
    database = settings.DATABASES["default"]
    test_settings = database.setdefault("TEST", {})
    if database["ENGINE"] == "django.db.backends.sqlite3":
        name = Path(test_settings.get("NAME") or Path(settings.BASE_DIR) / "test-db.sqlite3")
        test_settings["NAME"] = str(name.with_name(f"{name.stem}-{suffix}{name.suffix}"))
    else:
        test_settings["NAME"] = (
            f"{test_settings.get('NAME') or 'test_' + database['NAME']}_{suffix}"
        )


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, and at the end no other session on it, so that it can be dropped.

    Persistent connections (CONN_MAX_AGE) and the sockets' database threads keep connections
    open on threads this process no longer runs code on; PostgreSQL refuses to drop a database
    that has sessions."""
    yield
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture(scope="session", autouse=True)
def quick_password_hashing():
    """Passwords made and checked in the tests' own processes (and in the live servers forked from
    them) are hashed with MD5 first, as Django advises for test suites: PBKDF2's million
    iterations cost 0.3 s a password on this machine. The production profile's processes that
    the harness and the fault tests start keep the site's real hashers."""
    from django.conf import settings
    from django.test.utils import override_settings

    site = list(settings.PASSWORD_HASHERS)
    quick = ["django.contrib.auth.hashers.MD5PasswordHasher", *site]
    with override_settings(PASSWORD_HASHERS=quick):
        yield site


@pytest.fixture
def site_password_hashing(settings, quick_password_hashing):
    """For a test of what hashing costs: the site's own hashers, as production has them."""
    settings.PASSWORD_HASHERS = quick_password_hashing


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in English, whatever language an earlier request left active.

    Django's LocaleMiddleware activates a request's language on the thread that serves it, and
    the test client serves requests on the test's own thread, so a French or Italian request
    would otherwise change the language of every test after it.
    """
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets a channel layer object of its own (channels drops its cached layers the
    same way when CHANNEL_LAYERS changes). channels_redis keeps receive state on the layer (a
    lock, the count of coroutines receiving, their event loop): a consumer of an earlier test
    left waiting when that test's event loop closed would make every later test's consumers
    fail with a lock "bound to a different event loop", as one CI run saw."""
    channel_layers.backends = {}
    yield


@pytest.fixture(autouse=True)
def in_process_jobs_finish_before_the_database_is_emptied(request):
    """A bot turn or rating update still running in the in-process pool when a test ends would
    race the test database's flush (PostgreSQL reports a deadlock). Set up after the database
    fixture, so that this waits first at teardown."""
    if "_django_db_helper" in request.fixturenames:
        request.getfixturevalue("_django_db_helper")
    yield
    cancel_delayed()
    wait_until_idle(timeout=60)
    live_server_jobs.wait_until_servers_idle()  # the jobs of the browser tests' servers too


@pytest.fixture(autouse=True)
def no_bot_turn_marks_of_earlier_tests():
    """Each test starts with no bot turn marked as queued (games/jobs/pending_bot_turns.py): game
    ids start again in a fresh test database, and a mark left by an earlier test (or run), whose job
    was only recorded, would keep that id's first bot turn from being sent."""
    pending_bot_turns.forget_all()
    yield


@pytest.fixture(autouse=True)
def fresh_throttle_counters(settings, request):
    """Each test starts with no log-in failure or sign-up counted (the test client always comes
    from 127.0.0.1, and the suite signs up more players than the throttle allows an address)."""
    # Hashed: a test's id holds spaces and brackets, which cache keys must not (CacheKeyWarning).
    test_id = hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    settings.RATELIMIT_CACHE_PREFIX = f"rl:test{os.getpid()}:{test_id}:"


@pytest.fixture
def staff_client(client, make_user):
    """A client logged in as a superuser, for the admin's pages (`make_user` is the folder's)."""
    boss = make_user("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    client.force_login(boss)
    return client
