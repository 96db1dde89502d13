"""The production profile, started here as an operator starts it, on loopback only.

A fresh PostgreSQL database and a Redis database number of the harness's own, `manage.py migrate`
and `collectstatic`, then Daphne processes on consecutive free ports, Celery workers and one beat.
`Servers.stop()` ends every process started here, whatever happened (TERM, then KILL).
"""

import contextlib
import fcntl
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import redis

HOST = "127.0.0.1"
POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
# The Redis server the harness's databases are on: 6379, or LOADTEST_REDIS_PORT (a Redis of a
# developer's own on a shared machine), or --redis-port.
DEFAULT_REDIS_PORT = int(os.environ.get("LOADTEST_REDIS_PORT") or 6379)
FIRST_PORT = 8100
READY_TIMEOUT = 90.0
STOP_TIMEOUT = 15.0
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class HarnessError(RuntimeError):
    """The harness could not set up or run: the message says what to do."""


def default_root() -> Path:
    return Path(__file__).resolve().parents[2]


def tool(root: Path, name: str) -> str:
    """`name` from the site's own virtualenv (root/.venv/bin), else beside this Python."""
    for folder in (root / ".venv" / "bin", Path(sys.executable).parent):
        candidate = folder / name
        if candidate.exists():
            return str(candidate)
    raise HarnessError(f"{name} not found in {root / '.venv/bin'} nor beside {sys.executable}")


def daphne_argv(root: Path, port: int) -> list[str]:
    """Daphne for the site at `root` on HOST:port, started as `make run` starts it: through
    condottiere_site.serve (uvloop's event loop), or Daphne's own script for a commit older
    than that launcher (a `--root` baseline)."""
    where = ["-b", HOST, "-p", str(port), "condottiere_site.asgi:application"]
    if (root / "condottiere_site" / "serve.py").exists():
        return [tool(root, "python"), "-m", "condottiere_site.serve", *where]
    return [tool(root, "daphne"), *where]


def database_url(name: str) -> str:
    return f"postgres://postgres@{HOST}:5432/{name}"


def sql_url(url: str) -> str:
    """psycopg wants postgresql://; Django's DATABASE_URL may say postgres://."""
    return "postgresql://" + url.split("://", 1)[1] if url.startswith("postgres://") else url


def check_loopback(url: str) -> None:
    """Every address the harness talks to is this machine's loopback."""
    match = re.match(r"^[a-z+]+://(?:[^@/]*@)?(\[[^\]]*\]|[^:/]*)", url)
    host = match.group(1) if match else ""
    if host not in ("127.0.0.1", "localhost"):
        raise HarnessError(f"only 127.0.0.1 may be targeted; got {url!r}")


def free_ports(count: int, start: int = FIRST_PORT) -> list[int]:
    """`count` consecutive ports on 127.0.0.1 that nothing listens on."""
    for base in range(start, start + 2000):
        ports = list(range(base, base + count))
        if all(port_free(port) for port in ports):
            return ports
    raise HarnessError(f"no {count} consecutive free ports from {start}")


def port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


# --- The database and Redis -------------------------------------------------------------------


def reset_database(name: str) -> None:
    """Drop and create the load database (never any other: the name must look like one)."""
    if not IDENTIFIER.match(name) or name in {"postgres", "template0", "template1"}:
        raise HarnessError(f"refusing to drop a database called {name!r}")
    try:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        raise HarnessError(f"PostgreSQL at {HOST}:5432 (user postgres): {error}") from None


def drop_database(name: str) -> None:
    if IDENTIFIER.match(name):
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=5) as admin,
        ):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def redis_db_url(port: int, number: int) -> str:
    return f"redis://{HOST}:{port}/{number}"


def lock_redis_db(number: int, port: int = DEFAULT_REDIS_PORT):
    """A lock file per Redis database number (and server): two harness runs never flush each
    other's."""
    server = "" if port == 6379 else f"{port}-"
    path = Path(tempfile.gettempdir()) / f"condottiere-loadtest-redis-{server}{number}.lock"
    handle = open(path, "w")  # noqa: SIM115 - held open for the whole run
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def lock_redis_dbs(number: int, ports: list[int]) -> list:
    """The lock of database `number` on each of these Redis servers (a port once), or raises
    naming the one another run holds; the locks taken so far are let go then."""
    held = []
    for port in dict.fromkeys(ports):
        lock = lock_redis_db(number, port)
        if lock is None:
            for handle in held:
                handle.close()
            raise HarnessError(
                f"another load test holds Redis db {number} on port {port}: pass --redis-db N"
            )
        held.append(lock)
    return held


def flush_redis(url: str) -> None:
    try:
        redis.Redis.from_url(url, socket_timeout=5).flushdb()
    except redis.RedisError as error:
        raise HarnessError(f"Redis at {url}: {error}") from None


# --- Processes --------------------------------------------------------------------------------


@dataclass
class Process:
    kind: str  # "daphne", "celery worker", "beat"
    popen: subprocess.Popen
    log: Path
    port: int | None = None
    argv: list[str] = field(default_factory=list)

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@dataclass
class Servers:
    """What the scenario talks to: base URLs, the database, and the processes started here."""

    urls: list[str]
    database_url: str | None
    root: Path
    env: dict = field(default_factory=dict)
    processes: list[Process] = field(default_factory=list)
    workdir: Path | None = None
    started_here: bool = False
    setup_seconds: dict = field(default_factory=dict)

    def pids(self, kind: str) -> list[int]:
        return [p.popen.pid for p in self.processes if p.kind == kind and p.popen.poll() is None]

    def stop(self, kinds: tuple[str, ...] | None = None) -> None:
        """TERM each process started here (of these kinds), then KILL its group if it lingers."""
        chosen = [p for p in self.processes if kinds is None or p.kind in kinds]
        for process in chosen:
            if process.popen.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.popen.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for process in chosen:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
            # Its own process group (start_new_session): prefork children go with it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.popen.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.popen.wait(timeout=5)

    def kill(self, kind: str) -> list[Process]:
        """A fault: SIGKILL every running process of this kind with its children (a prefork
        worker's pool too), as a crash or the OOM killer would. Returns them, for `restart`."""
        killed = [p for p in self.processes if p.kind == kind and p.popen.poll() is None]
        for process in killed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.popen.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.popen.wait(timeout=5)
        return killed

    def restart(self, killed: list[Process]) -> None:
        """Start the killed processes again, with the same command line, logging on."""
        for process in killed:
            process.popen = launch(self, process.argv, process.log, append=True)

    def log_problems(self) -> dict[str, int]:
        """Tracebacks and ERROR lines in each kind of process's log."""
        counts: dict[str, int] = {}
        for process in self.processes:
            try:
                text = process.log.read_text(errors="replace")
            except OSError:
                continue
            found = text.count("Traceback (most recent call last)") + len(
                re.findall(r"\b(?:ERROR|CRITICAL)\b", text)
            )
            counts[process.kind] = counts.get(process.kind, 0) + found
        return counts


# What the servers take from the harness's own environment: nothing that could set a setting of
# the site (a limit turned off in the shell would pass unseen), only what a process needs to run.
INHERITED = ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR")


def inherited(name: str) -> bool:
    return name in INHERITED or name.startswith("LC_")


def server_env(
    root: Path,
    database: str,
    redis_url: str,
    ports: list[int],
    bot_move_delay: float,
    bot_think: float,
) -> dict:
    env = {key: value for key, value in os.environ.items() if inherited(key)}
    origins = [f"http://{host}:{port}" for port in ports for host in (HOST, "localhost")]
    env.update(
        DJANGO_SETTINGS_MODULE="condottiere_site.settings",
        DATABASE_URL=database,
        REDIS_URL=redis_url,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_CSRF_TRUSTED_ORIGINS=",".join(origins),
        BOT_MOVE_DELAY=str(bot_move_delay),
        BOT_THINK_SECONDS=str(bot_think),
        # As behind a proxy of ours: every client connects from 127.0.0.1 but names an address of
        # its own in X-Forwarded-For (clients.Browser), so each is limited as a person would be.
        # Every limit keeps its production default.
        TRUSTED_PROXY_COUNT="1",
        PYTHONUNBUFFERED="1",
        # The checkout under test comes first, before an editable install of another one.
        PYTHONPATH=os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    return env


def manage(root: Path, env: dict, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [tool(root, "python"), "manage.py", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def launch(servers: Servers, argv: list[str], log: Path, append: bool = False):
    """A server process in a session of its own (its children go with it when killed)."""
    with open(log, "ab" if append else "wb") as out:
        return subprocess.Popen(
            argv,
            cwd=servers.root,
            env=servers.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def spawn(servers: Servers, kind: str, argv: list[str], name: str, port: int | None = None):
    log = servers.workdir / f"{name}.log"
    process = Process(kind, launch(servers, argv, log), log, port, argv)
    servers.processes.append(process)
    return process


def start_servers(
    *,
    root: Path,
    database: str,
    redis_db: int,
    redis_port: int = DEFAULT_REDIS_PORT,
    daphnes: int,
    workers: int,
    concurrency: int,
    pool: str,
    bot_move_delay: float,
    bot_think: float,
    extra_env: dict | None = None,
    worker_queues: tuple[str, ...] = (),
    channel_redis_ports: tuple[int, ...] = (),
    say=print,
) -> Servers:
    """Fresh database and Redis db, migrations, static files, then every process; waits until
    each answers. On any failure the processes already started are stopped before raising.
    `worker_queues`: the queues each worker consumes, in order ("play", "background", or both
    as "play,background"); a worker not named there consumes both. `channel_redis_ports`: Redis
    servers on 127.0.0.1 the channel layer is spread over (CHANNEL_LAYER_REDIS_URLS), the same
    database number on each; none, the channel layer is on the broker's Redis as by default."""
    redis_at = redis_db_url(redis_port, redis_db)
    channel_layer_at = [redis_db_url(port, redis_db) for port in channel_redis_ports]
    ports = free_ports(daphnes)
    env = server_env(root, database_url(database), redis_at, ports, bot_move_delay, bot_think)
    if channel_layer_at:
        env["CHANNEL_LAYER_REDIS_URLS"] = ",".join(channel_layer_at)
    env.update(extra_env or {})
    workdir = Path(tempfile.mkdtemp(prefix="condottiere-load-"))
    servers = Servers(
        urls=[f"http://{HOST}:{port}" for port in ports],
        database_url=database_url(database),
        root=root,
        env=env,
        workdir=workdir,
        started_here=True,
    )
    try:
        started = time.monotonic()
        reset_database(database)
        for url in dict.fromkeys([redis_at, *channel_layer_at]):
            flush_redis(url)
        for args in (
            ("migrate", "--noinput", "-v", "0"),
            ("collectstatic", "--noinput", "-v", "0"),
        ):
            result = manage(root, env, *args)
            if result.returncode != 0:
                raise HarnessError(f"manage.py {args[0]} failed:\n{result.stderr[-3000:]}")
        servers.setup_seconds["database, migrate, collectstatic"] = time.monotonic() - started
        started = time.monotonic()
        for port in ports:
            spawn(servers, "daphne", daphne_argv(root, port), f"daphne-{port}", port)
        celery = tool(root, "celery")
        for index in range(workers):
            argv = [celery, "-A", "condottiere_site", "worker", "--concurrency", str(concurrency)]
            argv += ["--pool", pool, "--loglevel", "WARNING", "-n", f"load{index + 1}@%h"]
            queues = worker_queues[index] if index < len(worker_queues) else "play,background"
            argv += ["-Q", queues]  # the kinds of job it takes (games/jobs/__init__.py)
            spawn(servers, "celery worker", argv, f"worker-{index + 1}")
        argv = [celery, "-A", "condottiere_site", "beat", "--loglevel", "WARNING"]
        argv += ["--schedule", str(workdir / "celerybeat-schedule")]
        argv += ["--pidfile", str(workdir / "celerybeat.pid")]
        spawn(servers, "beat", argv, "beat")
        wait_until_ready(servers, workers)
        servers.setup_seconds["processes up"] = time.monotonic() - started
        say(f"servers up in {time.monotonic() - started:.1f} s; logs in {workdir}")
    except BaseException:
        servers.stop()
        raise
    return servers


def wait_until_ready(servers: Servers, workers: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    waiting = [p for p in servers.processes if p.kind == "daphne"]
    client = redis.Redis.from_url(servers.env["REDIS_URL"], socket_timeout=5)
    while True:
        for process in servers.processes:
            if process.popen.poll() is not None:
                raise HarnessError(
                    f"{process.kind} exited with {process.popen.returncode}:\n{process.tail()}"
                )
        waiting = [p for p in waiting if not answers(f"http://{HOST}:{p.port}/")]
        if not waiting and workers_ready(client, workers):
            return
        if time.monotonic() > deadline:
            names = ", ".join(f"daphne :{p.port}" for p in waiting) or "celery workers"
            tails = "\n".join(p.tail(10) for p in servers.processes)
            raise HarnessError(f"not ready after {READY_TIMEOUT:.0f} s: {names}\n{tails}")
        time.sleep(0.5)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def workers_ready(client: redis.Redis, workers: int) -> bool:
    """Each worker, once consuming, binds its own control queue in kombu's pidbox exchange."""
    try:
        members = client.smembers("_kombu.binding.celery.pidbox")
    except redis.RedisError:
        return False
    names = {m.decode(errors="replace") for m in members}
    return sum(any(f"load{i + 1}@" in name for name in names) for i in range(workers)) == workers


def external_servers(urls: list[str], database: str | None, root: Path) -> Servers:
    """Servers already running (`--url`): nothing is started or stopped here."""
    for url in urls:
        check_loopback(url)
        if not answers(url.rstrip("/") + "/"):
            raise HarnessError(f"{url} does not answer 200 on /")
    if database:
        check_loopback(database)
    env = {**os.environ, "PYTHONPATH": str(root)}
    if database:
        env["DATABASE_URL"] = database
    return Servers(urls=[u.rstrip("/") for u in urls], database_url=database, root=root, env=env)
