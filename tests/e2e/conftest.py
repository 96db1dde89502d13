"""The browser-test harness: the real ASGI app served by Daphne, driven by Debian's Chromium.

Fixtures for any browser test (plain pytest functions):

- `live_url`: the base URL (``http://127.0.0.1:<port>``, no trailing slash) of Daphne serving
  `condottiere_site.asgi.application`, HTTP and websockets, on the pytest-django test database.
  It brings `transactional_db` with it: what a test writes is committed, so the server process
  sees it (and each test starts from empty tables).
- `browser`: one headless Chromium per test module (Playwright's sync API; never a downloaded
  browser: `require_chromium()` fails under CI=true and skips elsewhere when it is missing).
- `new_page(width=1280, height=800)`: a page in a fresh browser context, one per person at the
  table; `page` is the first of them. Every page of a failed test is screenshotted into
  test-artifacts/ (at the repository's root).
- `create_player(username, password=...)` and `log_in(page, user)`: a committed account, and
  a logged-in browser without going through the form (like Django's `force_login`).

Tests in this folder get the `e2e` marker.
"""

import contextlib
import multiprocessing
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from asgiref.sync import SyncToAsync
from daphne.testing import DaphneProcess
from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections
from django.utils import timezone

from tests import live_server_jobs
from tests.services import require_chromium

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE.parents[1] / "test-artifacts"
HOST = "127.0.0.1"
DEFAULT_PASSWORD = "Mercenary-Captain-1494"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test item, so fixtures can tell that a test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def test_failed(node) -> bool:
    return any(
        getattr(node, f"report_{when}", None) is not None and getattr(node, f"report_{when}").failed
        for when in ("setup", "call")
    )


test_failed.__test__ = False  # a helper, not a test


# --- The server --------------------------------------------------------------------------------


def make_application():
    """Runs in the server process: the project's ASGI app, plus static files from the finders."""
    from channels.routing import get_default_application

    # Counted, so that a test waits for its sockets' server side before the flush.
    return live_server_jobs.counting_sockets(ASGIStaticFilesHandler(get_default_application()))


def prepare_server_process(database_name: str):
    """Runs in the server process before it serves: the test database, and no inherited sockets.

    The process is forked from pytest, so it inherits pytest's database connection objects.
    Using or closing one would talk over pytest's own socket; forgetting them makes the server
    open its own connections.
    """
    for alias in connections:
        with contextlib.suppress(AttributeError):
            del connections[alias]
    # asgiref's one thread for database_sync_to_async does not survive a fork: if a socket test
    # ran in pytest before this fork, every consumer in the server would wait on a dead thread.
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    settings.DATABASES["default"]["NAME"] = database_name
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST, "localhost"]
    # Every browser of every test comes from 127.0.0.1, and the server lives for the whole run:
    # the per-address count of sockets opened a minute would refuse pages of later tests.
    settings.SOCKET_CONNECTS_PER_MINUTE = 0


def prepare_with_idle_requests(prepare, database_name: str, connection):
    """Runs in the server process: `prepare`, then the thread that lets each test wait for the
    server's jobs before the database is flushed (tests/live_server_jobs.py)."""
    prepare(database_name)
    live_server_jobs.answer_idle_requests(connection)


@contextlib.contextmanager
def daphne_server(django_db_blocker, prepare=prepare_server_process):
    """Daphne in a separate process, serving the real ASGI app against the test database.

    After `django_db_setup`, the default connection's NAME is the test database (a file for
    SQLite, `test_<name>` on PostgreSQL); the server uses exactly that. `prepare(database_name)`
    runs in the server process before it serves. Yields the base URL.
    """
    database_name = str(connections["default"].settings_dict["NAME"])
    # Fork without an open connection, so that no database socket is shared with the server.
    connections.close_all()
    tests_end, servers_end = multiprocessing.Pipe()
    process = DaphneProcess(
        host=HOST,
        get_application=make_application,
        setup=partial(prepare_with_idle_requests, prepare, database_name, servers_end),
    )
    # pytest-django blocks database access outside tests; the server must not inherit the block.
    with django_db_blocker.unblock():
        process.start()
    # Only the server holds its end now: if it dies, asking it reads end-of-file at once.
    servers_end.close()
    waited = 0
    while not process.ready.wait(timeout=1):
        waited += 1
        if not process.is_alive() or waited >= 30:
            process.terminate()
            error = "" if process.errors.empty() else process.errors.get(timeout=1)[1]
            raise RuntimeError(f"Daphne did not start for the browser tests.\n{error}")
    live_server_jobs.register(tests_end)
    try:
        yield f"http://{HOST}:{process.port.value}"
    finally:
        live_server_jobs.unregister(tests_end)
        process.terminate()
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
            process.join()


@pytest.fixture(scope="session")
def live_server_process(django_db_setup, django_db_blocker):
    """The browser tests' server, shared by the whole session."""
    with daphne_server(django_db_blocker) as url:
        yield url


@pytest.fixture
def live_url(live_server_process, transactional_db):
    """The base URL of the live server; the test's data is committed and visible to it."""
    return live_server_process


# --- The browser -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def playwright_instance():
    """Playwright's sync API, for one test module at a time.

    While it runs, it keeps an event loop running in the test thread. Two consequences:
    Django's async-safety check would refuse every ORM call a test makes, so
    DJANGO_ALLOW_ASYNC_UNSAFE is set (the thread is not really serving async code); and
    `asyncio.run()` or an async test would fail, so it stops after each module rather than
    lasting the session, and the variable goes with it.
    """
    chromium = require_chromium()
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            playwright.chromium_executable = chromium
            yield playwright
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="module")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(
        executable_path=playwright_instance.chromium_executable, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


def artifact_name(nodeid: str, index: int) -> str:
    return f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', nodeid)}-{index}.png"


@pytest.fixture
def new_page(browser, request, live_url):
    """Makes pages, each in its own context (own cookies: one person each).

    It depends on `live_url` so that its teardown, which closes the pages and their sockets,
    runs before the test database is flushed: a socket still open then made the live server
    query tables while the flush truncated them (a deadlock in CI). Closing a page only starts
    the server's side of the close, so the teardown also waits for it (`wait_for_sockets_closed`).
    """
    contexts = []

    def make(width: int = 1280, height: int = 800, touch: bool = False):
        context = browser.new_context(
            viewport={"width": width, "height": height},
            locale="en-US",
            timezone_id="UTC",
            has_touch=touch,  # a phone's finger: taps are touch events
            is_mobile=touch,
        )
        context.set_default_timeout(10_000)
        context.set_default_navigation_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    yield make

    if test_failed(request.node):
        ARTIFACTS.mkdir(exist_ok=True)
        for index, context in enumerate(contexts):
            for page in context.pages:
                page.screenshot(path=ARTIFACTS / artifact_name(request.node.nodeid, index))
    for context in contexts:
        context.close()
    wait_for_sockets_closed()


def wait_for_sockets_closed(timeout: float = 30.0) -> None:
    """Until the live server has handled the close of every socket the pages had open.

    A socket's last database write on close is deleting its Presence row
    (games/sockets/presence.py). Before this wait, that delete could still be running when the test
    database was flushed, and the two deadlocked (seen once in CI, with the tests on two parallel
    workers). Daphne itself gives a closing socket 10 s before it kills the handler; the wait allows
    more, since on a loaded machine the close is only queued by then. A failure names the sockets
    left. A socket whose connect had not written its row yet when the page closed is not seen here:
    the server's answer to `live_server_jobs.wait_until_servers_idle`, before the flush, waits
    for those."""
    from games.models import Presence

    deadline = time.monotonic() + timeout
    while Presence.objects.exists():
        if time.monotonic() > deadline:
            pytest.fail(
                f"the live server still had open sockets {timeout:.0f} s after the pages closed: "
                + "; ".join(describe_presence(row) for row in Presence.objects.all())
            )
        time.sleep(0.05)


def describe_presence(row) -> str:
    where = f"game {row.game_id}" if row.game_id is not None else "the lobby"
    age = (timezone.now() - row.connected_at).total_seconds()
    return f"{row.channel_name} (user {row.user_id}, {where}, opened {age:.1f} s ago)"


@pytest.fixture
def page(new_page):
    return new_page()


# --- Accounts ----------------------------------------------------------------------------------


@pytest.fixture
def create_player(transactional_db):
    from django.contrib.auth import get_user_model

    def create(username: str, password: str = DEFAULT_PASSWORD, **fields):
        return get_user_model().objects.create_user(username=username, password=password, **fields)

    return create


@pytest.fixture
def log_in(live_url):
    """Logs a page's browser context in as a user, by session cookie rather than the form."""
    from django.test import Client

    def log_in_as(page, user):
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        page.context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_url}]
        )
        return page

    return log_in_as


# --- A server whose bots answer at once (the game page's browser tests) -------------------------


def prepare_fast_bots_server(database_name: str):
    prepare_server_process(database_name)
    settings.BOT_MOVE_DELAY = 0
    settings.BOT_THINK_SECONDS = 0.05
    settings.JOB_RUNNER = "in_process"


@pytest.fixture(scope="module")
def fast_bots_server(django_db_setup, django_db_blocker):
    with daphne_server(django_db_blocker, prepare_fast_bots_server) as url:
        yield url


@pytest.fixture
def server(fast_bots_server, transactional_db, settings):
    """The fast-bots server's URL, for a test whose database rows it serves.

    A game the test itself starts or moves (start_game, submit_action) announces its next bot
    turn from this process: its jobs run here, on this process's own pool, as the server's run
    there (a job sent to a broker no worker of this server reads would wait for the sweep)."""
    settings.JOB_RUNNER = "in_process"
    settings.BOT_MOVE_DELAY = 0
    settings.BOT_THINK_SECONDS = 0.05
    return fast_bots_server
