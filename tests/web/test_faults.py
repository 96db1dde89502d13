"""Faults on the production profile's real processes, and how soon the site is back.

Each test starts the site as an operator does (Daphne, a prefork Celery worker, a Celery beat of
its own) against this test's PostgreSQL database and a redis-server of its own on a free port
(stopping it disturbs nobody), injects one fault, and checks that no action is lost or doubled and
that play goes on within the time docs/operations.md promises ("Recovery after a fault"):

1. the Celery worker killed, pool and all, during a bot's turn;
2. Redis stopped for 10 s while a person and a bot play;
3. the person's Daphne killed: the page reconnects to another Daphne;
4. a lost turn timer: tests/web/test_sweep.py::test_a_lost_turn_timer_still_expires_the_turn
   (embedded sweep) and tests/web/test_celery_worker.py::
   test_a_real_worker_expires_a_turn_whose_timer_was_lost (a real worker and the sweep);
5. PostgreSQL refusing connections: pages answer 503, a bot's turn is retried and not lost.
"""

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import psycopg
import pytest
from celery import Celery
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import OperationalError, transaction
from django.test import Client, RequestFactory
from psycopg_pool import PoolTimeout

from condottiere_site.env import channel_layer_host
from games import jobs
from games.history.replay import verify_game
from games.limits import middleware
from games.models import Action, Game
from games.services import start_game
from tests.load.servers import (
    HOST,
    Process,
    Servers,
    answers,
    daphne_argv,
    free_ports,
    spawn,
    tool,
)
from tests.services import require_postgresql, require_redis
from tests.web.test_celery_worker import test_database_url

ROOT = Path(__file__).resolve().parents[2]
# What docs/operations.md promises: play goes on within this long after the fault is over.
BACK_WITHIN = 10.0
READY_TIMEOUT = 60.0
BOT_MOVE_DELAY = 0.8  # the default: the sweep's patience is measured with it

# --- The processes ------------------------------------------------------------------------------


class OwnRedis:
    """A redis-server of this test's own on a free port, with nothing saved to disk: stopping it
    loses every message in flight, as a crash does."""

    def __init__(self, workdir: Path):
        self.port = own_ports(1, start=16400)[0]
        self.url = f"redis://{HOST}:{self.port}/0"
        self.log = workdir / "redis.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        argv = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            HOST,
            "--save",
            "",
            "--appendonly",
        ]
        argv += ["no", "--daemonize", "no"]
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        wait_until(lambda: port_answers(self.port), 10, "redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def own_ports(count: int, start: int) -> list[int]:
    """Free ports from a range of this xdist worker's own. A test that restarts its Redis frees
    the port for a moment; a test starting meanwhile on the other worker took it, and the two
    sites then shared (and killed) one Redis."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    return free_ports(count, start=start + 1000 * int(worker or 0))


def port_answers(port: int) -> bool:
    try:
        socket.create_connection((HOST, port), timeout=1).close()
    except OSError:
        return False
    return True


def wait_until(condition, timeout: float, failure: str, every: float = 0.1) -> float:
    """Seconds until `condition()` held; fails with `failure` after `timeout`."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, failure
        time.sleep(every)
    return time.monotonic() - started


@dataclass
class Site:
    servers: Servers
    redis: OwnRedis
    daphne_urls: list[str] = field(default_factory=list)

    def daphne(self, index: int) -> Process:
        return [p for p in self.servers.processes if p.kind == "daphne"][index]

    def worker_ready_count(self) -> int:
        worker = next(p for p in self.servers.processes if p.kind == "celery worker")
        return worker.log.read_text(errors="replace").count(" ready.")

    def tails(self) -> str:
        return "\n".join(f"--- {p.kind} ---\n{p.tail(40)}" for p in self.servers.processes)


def site_env(redis_url: str, database_url: str, extra: dict) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "BOT_", "JOB_", "CELERY_", "DATABASE_", "REDIS_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="condottiere_site.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        # The session cookies this test makes are signed with its own key.
        DJANGO_SECRET_KEY=settings.SECRET_KEY,
        BOT_MOVE_DELAY=str(BOT_MOVE_DELAY),
        BOT_THINK_SECONDS="0.05",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    env.update(extra)
    return env


@pytest.fixture
def start_site(monkeypatch):
    """start_site(daphnes=1, env={...}, database_url=...) -> Site: Daphne processes, one prefork
    worker, one beat, a redis-server of their own. This process's jobs go to that redis-server
    too. Everything is stopped at the end; the logs are printed if the test failed."""
    require_postgresql()
    require_redis()  # the production profile: JOB_RUNNER is "celery"
    started: list[Site] = []
    senders: list[Celery] = []

    def start(daphnes: int = 1, env: dict | None = None, database_url: str | None = None) -> Site:
        workdir = Path(tempfile.mkdtemp(prefix="condottiere-faults-"))
        redis = OwnRedis(workdir)
        redis.start()
        servers = Servers(
            urls=[],
            database_url=database_url or test_database_url(),
            root=ROOT,
            env=site_env(redis.url, database_url or test_database_url(), env or {}),
            workdir=workdir,
            started_here=True,
        )
        site = Site(servers, redis)
        started.append(site)
        for port in own_ports(daphnes, start=18400):
            spawn(servers, "daphne", daphne_argv(ROOT, port), f"d{port}", port)
            site.daphne_urls.append(f"http://{HOST}:{port}")
        celery = tool(ROOT, "celery")
        argv = [celery, "-A", "condottiere_site", "worker", "--pool", "prefork", "--concurrency"]
        argv += ["2", "--loglevel", "INFO", "-n", f"faults-{uuid.uuid4().hex[:8]}@%h"]
        argv += ["-Q", "play,background"]  # every kind of job (games/jobs/__init__.py)
        spawn(servers, "celery worker", argv, "worker")
        argv = [celery, "-A", "condottiere_site", "beat", "--loglevel", "INFO"]
        argv += ["--schedule", str(workdir / "celerybeat-schedule")]
        spawn(servers, "beat", [*argv, "--pidfile", str(workdir / "beat.pid")], "beat")
        wait_until(
            lambda: (
                all(answers(url + "/") for url in site.daphne_urls)
                and site.worker_ready_count() >= 1
            ),
            READY_TIMEOUT,
            "the site did not start",
            every=0.5,
        )
        sender = Celery("faults", broker=redis.url, set_as_current=False)
        sender.conf.task_serializer = "json"
        # Each job to the queue of its kind, as the site's own processes send it.
        sender.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE
        sender.conf.task_routes = settings.CELERY_TASK_ROUTES
        senders.append(sender)
        monkeypatch.setattr(jobs, "current_app", sender)
        return site

    yield start
    for site in started:
        print(site.tails())
        site.servers.stop()
        site.redis.stop()
    for sender in senders:
        sender.close()


# --- A person's page: plays its seat, reconnects when its socket drops --------------------------


class Page:
    """A browser tab on the game page: on each state frame where its seat may act it sends the
    first legal action at that version, once per connection (a new connection may send it again:
    the version check refuses a second one). When the socket drops it connects again, to the
    next server in turn, as a proxy would send it elsewhere."""

    def __init__(self, urls: list[str], game_id: int, session: str):
        self.urls, self.game_id, self.session = urls, game_id, session
        self.server = 0
        self.sent: list[tuple[int, dict]] = []  # (expected_version, action)
        self.versions: list[list[int]] = []  # the versions seen, per connection
        self.connections = 0
        self.stop = asyncio.Event()

    @property
    def version(self) -> int:
        return max((v for seen in self.versions for v in seen), default=-1)

    async def run(self) -> None:
        async with aiohttp.ClientSession() as http:
            while not self.stop.is_set():
                with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
                    await self.play_one_connection(http)
                self.server = (self.server + 1) % len(self.urls)
                await asyncio.sleep(0.3)

    async def play_one_connection(self, http: aiohttp.ClientSession) -> None:
        base = self.urls[self.server]
        headers = {"Origin": base, "Cookie": f"sessionid={self.session}"}
        ws_url = base.replace("http://", "ws://") + f"/ws/games/{self.game_id}/"
        async with http.ws_connect(ws_url, headers=headers, heartbeat=2) as socket:
            self.connections += 1
            seen: list[int] = []
            self.versions.append(seen)
            acted: set[int] = set()
            while not self.stop.is_set():
                with contextlib.suppress(asyncio.TimeoutError):
                    message = await asyncio.wait_for(socket.receive(), 0.5)
                    if message.type != aiohttp.WSMsgType.TEXT:
                        return  # closed by the server, or the server is gone
                    frame = json.loads(message.data)
                    if frame.get("type") == "state":
                        seen.append(frame["version"])
                        await self.act(socket, frame, acted)

    async def act(self, socket, frame: dict, acted: set[int]) -> None:
        version, legal = frame["version"], frame["view"].get("legal_actions") or []
        if legal and version not in acted and version >= self.version:
            acted.add(version)
            self.sent.append((version, legal[0]))
            await socket.send_json(
                {"type": "action", "action": legal[0], "expected_version": version}
            )


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def version_of(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def assert_nothing_lost_or_doubled(game: Game, page: Page | None = None, seat: int = 0) -> None:
    """The log is gapless, the stored state is what replaying it gives, and every action of the
    page's seat was sent by the page, once, at the version it was made at."""
    # The site still runs (a bot may be moving): hold the game's row, which every accepted
    # action locks first, so that its version and its log are read at the same moment.
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, game.version + 1))
        assert verify_game(game) == []
    if page is None:
        return
    for seen in page.versions:
        assert seen == sorted(seen), f"a socket saw versions go back: {seen}"
    sent = dict(page.sent)  # the same version sent again carries the same action
    made = Action.objects.filter(game=game, seat=seat).values_list("seq", "action")
    for seq, action in made:
        assert sent.get(seq - 1) == action, f"action {seq} was not sent at version {seq - 1}"
    # An action sent and not in the log: only one still unanswered at the end, nothing after it.
    answered = {seq - 1 for seq, _ in made}
    for version in set(sent) - answered:
        assert version == game.version, f"the page's action at version {version} was lost"


def bot_actions_after(game: Game, version: int) -> int:
    return Action.objects.filter(game=game, seq__gt=version, actor="bot").count()


# --- 1. The Celery worker killed during a bot's turn --------------------------------------------


@pytest.mark.slow
@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_turn_is_replaced_and_the_game_goes_on_within_10_s(
    start_site, make_table
):
    site = start_site()
    game = make_table(3, bots={0: "random", 1: "random", 2: "random"}, seed=41)
    start_game(game.pk)
    wait_until(lambda: version_of(game) >= 3, 30, "the bots did not play")

    killed = site.servers.kill("celery worker")  # SIGKILL: main process and its pool
    stopped_at = version_of(game)
    time.sleep(3)  # nobody plays meanwhile: its bot_move message went with it, unacknowledged
    assert version_of(game) == stopped_at

    ready_before = site.worker_ready_count()
    site.servers.restart(killed)
    started = time.monotonic()
    wait_until(lambda: site.worker_ready_count() > ready_before, READY_TIMEOUT, "no new worker")
    ready = time.monotonic()
    wait_until(lambda: version_of(game) > stopped_at, BACK_WITHIN, "the game did not go on")
    back = time.monotonic()
    print(f"worker start {ready - started:.1f} s; next move {back - ready:.1f} s after it was up")
    wait_until(lambda: version_of(game) >= stopped_at + 3, 15, "the game stalled again")
    assert_nothing_lost_or_doubled(game)


# --- 2. Redis stopped for 10 s ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_redis_stopped_10_s_loses_no_action_and_bots_play_within_10_s_of_its_return(
    start_site, make_table, make_user
):
    site = start_site()
    alice = make_user("alice")
    game = make_table(2, people={0: alice}, bots={1: "random"}, seed=42)
    start_game(game.pk)
    page = Page(site.daphne_urls, game.pk, session_of(alice))

    async def scenario():
        playing = asyncio.ensure_future(page.run())
        try:
            await wait_async(lambda: page.version >= 4, 30, "the page and the bot did not play")
            site.redis.stop()
            down_at = await asyncio.to_thread(version_of, game)
            await asyncio.sleep(10)
            site.redis.start()  # empty: every message in flight was lost with it
            back = time.monotonic()
            await wait_async(
                lambda: bot_actions_after(game, down_at) >= 1,
                BACK_WITHIN,
                "no bot move within 10 s of Redis's return",
                blocking=True,
            )
            print(f"a bot moved {time.monotonic() - back:.1f} s after Redis was back")
            # Through its socket of before (the channel layer's subscriptions are made again on
            # its new connection) or a new one: either way it hears the moves and plays on.
            await wait_async(
                lambda: page.version >= down_at + 4, 20, "the page did not play on", blocking=False
            )
        finally:
            page.stop.set()
            await playing

    asyncio.run(scenario())
    assert_nothing_lost_or_doubled(game, page)


async def wait_async(condition, timeout: float, failure: str, blocking: bool = False) -> None:
    started = time.monotonic()
    while not (await asyncio.to_thread(condition) if blocking else condition()):
        assert time.monotonic() - started < timeout, failure
        await asyncio.sleep(0.1)


@pytest.mark.production
def test_the_channel_layer_sends_the_first_hint_after_a_redis_restart(tmp_path):
    """After Redis restarts, each connection a process keeps in its pool is dead. The first hint
    sent on one (a bot's move, from a worker whose sender was idle through the outage) was lost,
    and a page that had reconnected meanwhile waited for a move it had already missed."""
    require_redis()  # a machine with Redis: this test runs a redis-server of its own
    redis = OwnRedis(tmp_path)
    redis.start()
    # A worker only sends; a Daphne adds its sockets to groups and receives.
    worker = RedisPubSubChannelLayer(hosts=[channel_layer_host(redis.url)])
    daphne = RedisPubSubChannelLayer(hosts=[channel_layer_host(redis.url)])

    async def hint_arrives(channel: str, version: int) -> None:
        await worker.group_send("game-1", {"type": "game.version", "version": version})
        assert (await asyncio.wait_for(daphne.receive(channel), 5))["version"] == version

    async def scenario():
        channel = await daphne.new_channel()
        await daphne.group_add("game-1", channel)
        await hint_arrives(channel, 1)
        redis.stop()
        redis.start()  # empty: the group is gone with it
        await daphne.group_add("game-1", channel)  # the page connects again
        await hint_arrives(channel, 2)

    try:
        asyncio.run(scenario())
    finally:
        redis.stop()


# --- 3. Daphne killed mid-game ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_a_daphne_killed_mid_game_and_the_page_plays_on_through_another(
    start_site, make_table, make_user
):
    site = start_site(daphnes=2)
    alice = make_user("alice")
    game = make_table(2, people={0: alice}, bots={1: "random"}, seed=43)
    start_game(game.pk)
    page = Page(site.daphne_urls, game.pk, session_of(alice))
    first = site.daphne(0)  # the page connects here first

    async def scenario():
        playing = asyncio.ensure_future(page.run())
        try:
            await wait_async(lambda: page.version >= 4, 30, "the page and the bot did not play")
            os.killpg(first.popen.pid, signal.SIGKILL)  # the page's Daphne, mid-game
            killed_at = page.version
            # The bot may play several moves in a row: wait for the page's own next move.
            await wait_async(
                lambda: page.server == 1 and person_moved_after(game, killed_at),
                45,
                "the page did not play on through the other Daphne",
                blocking=True,
            )
            assert page.connections >= 2
        finally:
            page.stop.set()
            await playing

    asyncio.run(scenario())
    assert_nothing_lost_or_doubled(game, page)


def person_moved_after(game: Game, version: int, seat: int = 0) -> bool:
    return Action.objects.filter(game=game, seat=seat, seq__gt=version + 1).exists()


# --- 5. PostgreSQL refusing connections -----------------------------------------------------------


@contextlib.contextmanager
def limited_role(database: str, limit: int):
    """A login role allowed `limit` connections (PostgreSQL's CONNECTION LIMIT), able to read and
    write every table: the test exhausts its connections, never the server's."""
    role = f"faults_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    admin_url = "postgresql://postgres@127.0.0.1:5432/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER CONNECTION LIMIT {limit}')
        admin.execute(f'GRANT pg_read_all_data, pg_write_all_data TO "{role}"')
    try:
        yield role, f"postgres://{role}@127.0.0.1:5432/{database}"
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [role]
            )
            admin.execute(f'DROP ROLE IF EXISTS "{role}"')


def hold_every_connection(url: str, limit: int, timeout: float = 20) -> list:
    """Open connections as the role until it has none left (the site's own may be in use for a
    moment: retry until all `limit` are ours)."""
    held = []
    deadline = time.monotonic() + timeout
    while len(held) < limit:
        try:
            held.append(
                psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True)
            )
        except psycopg.OperationalError:
            assert time.monotonic() < deadline, "the site kept its connections"
            time.sleep(0.05)
    return held


@pytest.mark.slow
@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_with_postgresql_connections_exhausted_pages_answer_503_and_no_bot_turn_is_lost(
    start_site, make_table
):
    database = test_database_url().rsplit("/", 1)[1]
    limit = 4
    with limited_role(database, limit) as (_role, url):
        # No pool: each request and job asks PostgreSQL for a connection, as a pool that lost
        # its connections (a database restart) has to.
        site = start_site(env={"DATABASE_POOL_SIZE": "0"}, database_url=url)
        game = make_table(2, bots={0: "random", 1: "random"}, seed=45)
        start_game(game.pk)
        wait_until(lambda: version_of(game) >= 2, 30, "the bots did not play")

        held = hold_every_connection(url, limit)
        try:
            stopped_at = version_of(game)
            started = time.monotonic()
            with urlopen_any(site.daphne_urls[0] + "/leaderboard/") as (status, headers, body):
                answered = time.monotonic() - started
            assert status == 503, body[:2000]
            assert headers.get("Retry-After") == str(middleware.RETRY_AFTER_SECONDS)
            assert "Busy for a moment" in body
            assert answered < 2, f"the 503 took {answered:.1f} s"
            time.sleep(4)  # the bot's turn meets the refusal and is retried meanwhile
            refused_at = version_of(game)
            assert refused_at <= stopped_at + 1  # at most a move whose connection was open
        finally:
            for connection in held:
                connection.close()
        freed = time.monotonic()
        wait_until(lambda: version_of(game) > refused_at, 15, "the refused bot turn was lost")
        print(
            f"503 in {answered * 1000:.0f} ms; play resumed {time.monotonic() - freed:.1f} s"
            " after connections were free"
        )
        with urlopen_any(site.daphne_urls[0] + "/leaderboard/") as (status, _headers, _body):
            assert status == 200
        site.servers.stop()  # before the role goes
    worker_log = (site.servers.workdir / "worker.log").read_text(errors="replace")
    assert "Retry in" in worker_log, "the refused job was not retried"
    assert_nothing_lost_or_doubled(game)


@contextlib.contextmanager
def urlopen_any(url: str):
    """(status, headers, body) of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            yield response.status, response.headers, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        yield error.code, error.headers, error.read().decode(errors="replace")


# --- The 503 mapping itself (no processes) ------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        PoolTimeout("couldn't get a connection after 10.00 sec"),
        psycopg.OperationalError('FATAL:  too many connections for role "site"'),
        psycopg.OperationalError("FATAL:  sorry, too many clients already"),
    ],
    ids=["pool wait over", "role limit", "max_connections"],
)
def test_a_refused_database_connection_is_a_503_with_retry_after(error):
    """Django wraps the driver's error in its own OperationalError; either way it is a 503."""
    request = RequestFactory().get("/lobby/")
    wrapped = OperationalError(str(error))
    wrapped.__cause__ = error
    for raised in (error, wrapped):
        response = middleware.DatabaseBusyMiddleware(lambda r: None).process_exception(
            request, raised
        )
        assert response is not None and response.status_code == 503
        assert response["Retry-After"] == str(middleware.RETRY_AFTER_SECONDS)
        assert "Busy for a moment" in response.content.decode()


def test_a_query_that_fails_for_its_own_reasons_is_still_a_500():
    request = RequestFactory().get("/lobby/")
    mistake = OperationalError('column "nope" does not exist')
    assert (
        middleware.DatabaseBusyMiddleware(lambda r: None).process_exception(request, mistake)
        is None
    )
    assert (
        middleware.DatabaseBusyMiddleware(lambda r: None).process_exception(
            request, ValueError("too many connections")
        )
        is None
    )


# --- A socket whose database refuses ------------------------------------------------------------


@pytest.mark.production
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_a_socket_whose_database_refuses_says_unavailable_and_takes_the_action_once_back(
    make_user, make_table, monkeypatch
):
    """Every connection of this process's pool lent out: the action gets an `unavailable` error
    frame (not a crash, not a close), nothing is stored, and the same frame sent again once
    connections are free is accepted, once."""
    require_postgresql()
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.db import connection

    from condottiere_site.asgi import application
    from tests.web.conftest import WS_TIMEOUT, next_frame, ws_headers

    pool = connection.pool
    assert pool is not None, "the production profile lends connections from a pool"
    game, mover = await database_sync_to_async(started_game_and_mover)(make_user, make_table)
    headers = await database_sync_to_async(ws_headers)(mover)
    socket = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers)
    assert (await socket.connect(timeout=WS_TIMEOUT))[0]
    state = await next_frame(socket, "state")
    action = state["view"]["legal_actions"][0]
    frame = {"type": "action", "action": action, "expected_version": state["version"]}
    # The connect goes on after the state (it wakes a stalled bot): a socket's frames are
    # handled in order, so the pong says the connect is over before the pool is emptied.
    await socket.send_json_to({"type": "ping", "id": 1})
    await next_frame(socket, "pong")

    held = borrow_every_pool_connection(pool)
    monkeypatch.setattr(pool, "timeout", 0.3)  # the wait for a connection, made short
    try:
        await socket.send_json_to(frame)
        error = await next_frame(socket, "error")
    finally:
        monkeypatch.undo()
        for held_connection in held:
            pool.putconn(held_connection)
    assert error["code"] == "unavailable" and error["message"]
    assert await database_sync_to_async(version_of)(game) == state["version"]

    await socket.send_json_to(frame)
    after = await next_frame(socket, "state")
    assert after["version"] == state["version"] + 1
    await socket.disconnect()
    stored = await database_sync_to_async(Action.objects.filter(game=game).count)()
    assert stored == state["version"] + 1


def borrow_every_pool_connection(pool) -> list:
    """Borrow connections until the pool has none left to lend."""
    held = []
    while True:
        try:
            held.append(pool.getconn(timeout=0.5))
        except PoolTimeout:
            return held


def started_game_and_mover(make_user, make_table):
    from games.engine import GameState, current_player

    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob}, seed=44)
    start_game(game.pk)
    game.refresh_from_db()
    seat = current_player(GameState.from_json(game.snapshot))
    return game, (alice, bob)[seat]
