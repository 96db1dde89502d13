"""`python -m tests.load.loadtest {smoke,fast,paced,spectators,renaissance} [options]`: the load
harness.

Starts the production profile on loopback (a fresh PostgreSQL database, a Redis database number,
Daphne processes, Celery workers and beat; or targets servers already running with `--url`), signs
clients up through the site's forms, has them play games against bots (Condottiere; Renaissance in
the scenario of that name) or watch one over the game websocket, and prints what it measured in
the window: games, game actions per second, action -> frame latency, errors by kind, lost or
doubled actions (the log, and `manage.py verify_games`), and the servers' CPU and memory per kind
of process. See docs/operations.md, "Load test".

Python API: `run(["smoke"])` returns the list of `Result`s it printed.
"""

import argparse
import asyncio
import contextlib
import functools
import math
import random
import resource
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from . import procstats
from .clients import TIMEOUTS, Browser, Plan, Player, Spectator, Stats, household_addresses
from .ledger import Ledger, Verdict, verify_games
from .renaissance import RenaissancePlayer, Tables, form_offers_renaissance
from .servers import (
    DEFAULT_REDIS_PORT,
    HarnessError,
    Servers,
    default_root,
    external_servers,
    lock_redis_dbs,
    start_servers,
)

SCENARIOS = {
    # name: defaults; each may be changed on the command line.
    "smoke": dict(games=2, duration=10.0, daphnes=1, bots="1,3", think="0", bot_move_delay=0.0),
    "fast": dict(games=100, duration=60.0, daphnes=2, bots="1,3", think="0", bot_move_delay=0.0),
    "paced": dict(games=200, duration=60.0, daphnes=2, bots="1,3", think="2-5", bot_move_delay=0.8),
    "spectators": dict(spectators=1000, duration=60.0, daphnes=2, players=4, bot_move_delay=0.8),
    # As `fast`, in Renaissance: three- and six-player games (2 or 5 bots), no delays.
    "renaissance": dict(
        games=50, duration=60.0, daphnes=2, bots="2,5", think="0", bot_move_delay=0.0
    ),
}
# The targets (seconds for latencies): `fast` with every production limit on, on two cores.
FAST_RATE = 400
LATENCY_P99 = {"fast": 0.1, "paced": 0.05}
FAN_OUT_P99 = 0.15
TARGETS = {
    "smoke": "0 errors, 0 lost actions, a person's and a bot's action, verify_games clean",
    "fast": f">= {FAST_RATE} game actions/s, p99 <= {LATENCY_P99['fast'] * 1000:.0f} ms, "
    "0 errors, 0 lost actions",
    "paced": f"p99 <= {LATENCY_P99['paced'] * 1000:.0f} ms, 0 errors, 0 lost actions",
    "spectators": "every socket ends at the game's version, never goes back; fan-out p99 <= "
    f"{FAN_OUT_P99 * 1000:.0f} ms; 0 errors",
    "renaissance": "0 errors, 0 lost actions, verify_games clean (its rate and latency are "
    "figures to read beside fast's, no target yet)",
}
# How long the first games (or the spectators' sockets) may take to be up before the window.
START_TIMEOUT = 120.0
# After the window, how long every spectator may take to reach the game's version.
CATCH_UP = 15.0


@dataclass
class Result:
    scenario: str
    lines: list[str] = field(default_factory=list)
    figures: dict = field(default_factory=dict)
    errors: Counter = field(default_factory=Counter)
    verdict: Verdict | None = None
    targets_met: bool = True
    fail_on_error: bool = False

    def failed(self, strict: bool) -> bool:
        """Whether the run should exit 1: a missed target (strict), or any error if asked."""
        return (strict and not self.targets_met) or (
            self.fail_on_error and sum(self.errors.values()) > 0
        )

    def say(self, name: str, text: str) -> None:
        self.lines.append(f"{name:<14} {text}")

    def check(self, met: bool) -> str:
        self.targets_met &= met
        return "[OK]" if met else "[MISSED]"

    def print(self) -> None:
        rule = "=" * 100
        print(f"\n{rule}\nLoad test: {self.scenario}\n{rule}")
        for line in self.lines:
            print(line)
        print(rule, flush=True)


# --- Command line -------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="python -m tests.load.loadtest",
        description="Load harness for Condottiere online (loopback only). See docs/operations.md.",
    )
    scenarios = main.add_subparsers(dest="scenario", required=True, metavar="SCENARIO")
    helps = {
        "smoke": "a tiny bounded run for CI (2 games, 1 Daphne, 10 s)",
        "fast": "concurrent person+bots games, bots and person without delay",
        "paced": "concurrent games at the bot delay, people thinking 2-5 s",
        "spectators": "one all-bot game watched by many anonymous sockets",
        "renaissance": "as fast, in Renaissance games of 3 and 6 players",
    }
    for name, defaults in SCENARIOS.items():
        sub = scenarios.add_parser(name, help=helps[name])
        sub.set_defaults(**defaults)
        if "games" in defaults:
            sub.add_argument(
                "--games", type=int, help=f"concurrent games (default {defaults['games']})"
            )
            sub.add_argument(
                "--bots",
                help=f"bots per game, cycled over the clients (default {defaults['bots']})",
            )
            sub.add_argument("--think", help="a person's think time, s: 0 or LOW-HIGH (uniform)")
        else:
            sub.add_argument("--spectators", type=int, help="sockets watching (default 1000)")
            sub.add_argument("--players", type=int, help="bots at the watched table (default 4)")
        sub.add_argument("--duration", type=float, help="seconds of measurement")
        sub.add_argument("--daphnes", type=int, help="Daphne processes to start")
        sub.add_argument("--workers", type=int, default=1, help="Celery workers (default 1)")
        sub.add_argument("--concurrency", type=int, default=2, help="per worker (default 2)")
        sub.add_argument(
            "--pool", default="prefork", help="Celery pool: prefork (default), threads, solo"
        )
        sub.add_argument("--bot-move-delay", type=float, help="BOT_MOVE_DELAY for the servers")
        sub.add_argument("--bot-think", type=float, default=0.05, help="BOT_THINK_SECONDS")
        sub.add_argument("--level", default="heuristic", help="bot level (default heuristic)")
        sub.add_argument(
            "--url",
            action="append",
            default=[],
            help="target this running server instead of starting one (repeatable)",
        )
        sub.add_argument(
            "--database-url", help="with --url: its DATABASE_URL, to count and verify actions"
        )
        sub.add_argument("--root", type=Path, default=default_root(), help="the site's checkout")
        sub.add_argument("--db-name", default="condottiere_load", help="database to (re)create")
        sub.add_argument("--redis-db", type=int, default=7, help="Redis database number")
        sub.add_argument(
            "--redis-port",
            type=int,
            default=DEFAULT_REDIS_PORT,
            help=f"the Redis server on 127.0.0.1 (default {DEFAULT_REDIS_PORT}: 6379, or "
            "LOADTEST_REDIS_PORT)",
        )
        sub.add_argument(
            "--channel-redis-ports",
            type=port_list,
            default=(),
            metavar="P1,P2",
            help="spread the channel layer over these Redis servers on 127.0.0.1, already "
            "running (CHANNEL_LAYER_REDIS_URLS; the --redis-db database of each is flushed); "
            "default: the channel layer on --redis-port's server",
        )
        sub.add_argument(
            "--worker-queues",
            type=queue_list,
            default=(),
            metavar="Q1,Q2",
            help="the queues of each worker in turn, play, background or play+background: "
            "--workers 2 --worker-queues play,background (default: every worker both)",
        )
        sub.add_argument("--signup-concurrency", type=int, default=4, help="sign-ups at once")
        ramp = 50 if name == "spectators" else 10
        sub.add_argument(
            "--ramp",
            type=int,
            default=ramp,
            help=f"first games or sockets opened at once, 0 = all (default {ramp})",
        )
        sub.add_argument(
            "--env",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="one more environment variable for the started servers (repeatable)",
        )
        sub.add_argument("--seed", type=int, default=1494, help="the clients' random choices")
        sub.add_argument(
            "--kill",
            action="append",
            default=[],
            metavar="KIND@AT[+DOWN]",
            help="a fault in the window: SIGKILL every process of KIND (worker, beat, daphne) AT "
            "seconds in, start it again DOWN seconds later (default 5); repeatable. Clients do "
            "not reconnect, so killing daphne shows as socket errors",
        )
        sub.add_argument(
            "--per-address",
            type=int,
            default=2,
            help="clients behind one address, sent as X-Forwarded-For (default 2, a household)",
        )
        sub.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
        sub.add_argument(
            "--fail-on-error",
            action="store_true",
            help="exit 1 on any error: by the clients, in the servers' logs, lost or doubled "
            "actions, a game verify_games rejects",
        )
    return main


def port_list(text: str) -> tuple[int, ...]:
    """ "6412,6413" -> (6412, 6413): distinct TCP ports."""
    try:
        ports = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"ports separated by commas; got {text!r}") from None
    if not all(0 < port < 65536 for port in ports) or len(set(ports)) != len(ports):
        raise argparse.ArgumentTypeError(f"distinct ports from 1 to 65535; got {text!r}")
    return ports


# The broker queues a worker may consume (JOB_QUEUES of condottiere_site/settings.py).
QUEUES = ("play", "background")


def queue_list(text: str) -> tuple[str, ...]:
    """ "play,background+play" -> ("play", "background,play"): each worker's -Q, in turn."""
    workers = tuple(part.split("+") for part in text.split(","))
    for queues in workers:
        if not queues or any(queue not in QUEUES for queue in queues):
            raise argparse.ArgumentTypeError(
                f"each worker's queues among {', '.join(QUEUES)}, joined by +; got {text!r}"
            )
    return tuple(",".join(queues) for queues in workers)


def check_worker_queues(options) -> None:
    """One entry per worker at most, and every queue consumed by some worker: a queue nobody
    consumes would hold its jobs (bot turns, or analyses) for the whole run."""
    given = options.worker_queues
    if len(given) > options.workers:
        raise HarnessError(
            f"--worker-queues names {len(given)} workers; --workers is {options.workers}"
        )
    consumed = {queue for entry in worker_queues(options) for queue in entry.split(",")}
    if set(QUEUES) - consumed:
        missing = ", ".join(sorted(set(QUEUES) - consumed))
        raise HarnessError(f"--worker-queues: no worker consumes {missing}")


def worker_queues(options) -> list[str]:
    """Each worker's queues, as started (servers.start_servers: both when not named)."""
    given = options.worker_queues
    return [given[i] if i < len(given) else ",".join(QUEUES) for i in range(options.workers)]


def think_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def parameters(options) -> str:
    shown = ["duration", "daphnes", "workers", "concurrency", "pool", "bot_move_delay"]
    shown += ["bot_think"]
    shown += ["level", "games", "bots", "think", "spectators", "players"]
    text = " ".join(f"{k}={getattr(options, k)}" for k in shown if hasattr(options, k))
    if options.channel_redis_ports:
        text += " channel_redis_ports=" + ",".join(map(str, options.channel_redis_ports))
    if options.worker_queues:
        text += " worker_queues=" + ",".join(q.replace(",", "+") for q in options.worker_queues)
    return text + "".join(f" env {item}" for item in options.env)


# --- Running ----------------------------------------------------------------------------------


def run(argv: list[str] | None = None) -> list[Result]:
    """Runs one scenario, prints its block, returns it."""
    options = parser().parse_args(argv)
    options.root = options.root.resolve()
    if any("=" not in item for item in options.env):
        raise HarnessError("--env takes NAME=VALUE")
    if options.per_address < 1:
        raise HarnessError("--per-address takes 1 or more")
    if options.url and (options.channel_redis_ports or options.worker_queues):
        raise HarnessError(
            "--channel-redis-ports and --worker-queues start servers: not with --url"
        )
    check_worker_queues(options)
    command = "python -m tests.load.loadtest " + shlex.join(sys.argv[1:] if argv is None else argv)
    raise_open_files_limit()
    result = Result(options.scenario, fail_on_error=options.fail_on_error)
    result.say("command", command)
    result.say("parameters", parameters(options))
    result.say("targets", TARGETS[options.scenario])
    result.say("site", describe_checkout(options.root))
    result.say("load average", f"at start {procstats.load_average()} (1, 5, 15 min; 2 cores)")
    locks = []
    servers: Servers | None = None
    try:
        if options.url:
            servers = external_servers(options.url, options.database_url, options.root)
        else:
            ports = [options.redis_port, *options.channel_redis_ports]
            locks = lock_redis_dbs(options.redis_db, ports)
            servers = start_servers(
                root=options.root,
                database=options.db_name,
                redis_db=options.redis_db,
                redis_port=options.redis_port,
                daphnes=options.daphnes,
                workers=options.workers,
                concurrency=options.concurrency,
                pool=options.pool,
                extra_env=dict(item.split("=", 1) for item in options.env),
                bot_move_delay=options.bot_move_delay,
                bot_think=options.bot_think,
                worker_queues=options.worker_queues,
                channel_redis_ports=options.channel_redis_ports,
            )
        describe_servers(result, servers, options)
        describe_limits(result, servers, options)
        scenario = play_scenario if "games" in SCENARIOS[options.scenario] else watch_scenario
        asyncio.run(scenario(options, servers, result))
        if servers.started_here:
            servers.stop(JOBS)  # already stopped by the scenario, unless it failed before that
        check_the_log(result, servers)
        report_log_problems(result, servers)
        report_all_errors(result)
    finally:
        if servers is not None:
            servers.stop()
            if servers.workdir is not None:
                if result.targets_met and not sys.exc_info()[0]:
                    shutil.rmtree(servers.workdir, ignore_errors=True)
                else:
                    result.say("server logs", f"kept in {servers.workdir}")
        for lock in locks:
            lock.close()
    result.say("load average", f"at end {procstats.load_average()}")
    result.say("verdict", "all targets met" if result.targets_met else "some targets MISSED")
    result.print()
    return [result]


def raise_open_files_limit() -> None:
    """A socket is a file: 1,000 spectators need more than the usual 1,024 descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def describe_checkout(root: Path) -> str:
    """The checkout the servers run: its commit, and whether files differ from it."""

    def git(*args: str) -> str:
        try:
            done = subprocess.run(
                ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired):
            return ""
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("log", "-1", "--format=%h %cs %s")
    if not commit:
        return f"{root} (not a git checkout)"
    changed = [line for line in git("status", "--porcelain").splitlines() if line[:2] != "??"]
    dirty = f"; {len(changed)} files changed since" if changed else ""
    return f"{root} at {commit[:80]}{dirty}"


def describe_servers(result: Result, servers: Servers, options) -> None:
    if servers.started_here:
        ports = " ".join(url.rsplit(":", 1)[1] for url in servers.urls)
        workers = (
            f"{options.workers} celery worker(s) x concurrency {options.concurrency} "
            f"({options.pool})"
        )
        result.say(
            "servers",
            f"started here: daphne on 127.0.0.1 port(s) {ports}; {workers}; 1 beat; "
            f"database {options.db_name}, redis db {options.redis_db} on port "
            f"{options.redis_port}",
        )
        result.say("redis", redis_roles(options))
        queues = "; ".join(
            f"worker {i + 1}: {q.replace(',', ' + ')}" for i, q in enumerate(worker_queues(options))
        )
        result.say("worker queues", queues)
        result.figures.update(
            redis_ports=sorted({options.redis_port, *options.channel_redis_ports}),
            worker_queues=worker_queues(options),
        )
        setup = ", ".join(f"{k} {v:.1f} s" for k, v in servers.setup_seconds.items())
        result.say("set-up", setup)
    else:
        result.say("servers", f"already running: {' '.join(servers.urls)}")


def redis_roles(options) -> str:
    """Which Redis server on 127.0.0.1 does what (REDIS_URL, CHANNEL_LAYER_REDIS_URLS)."""
    broker = f"port {options.redis_port}: broker, results, cache, counters"
    channel_ports = options.channel_redis_ports
    if not channel_ports:
        return f"{broker} and the channel layer (one server)"
    shards = ", ".join(map(str, channel_ports))
    return (
        f"{broker}; the channel layer over {len(channel_ports)} server(s), port(s) {shards} "
        "(CHANNEL_LAYER_REDIS_URLS)"
    )


def describe_limits(result: Result, servers: Servers, options) -> None:
    """The limits the servers run with, and the addresses the clients come from."""
    overrides = dict(item.split("=", 1) for item in options.env)
    if servers.started_here:
        proxies = int(servers.env["TRUSTED_PROXY_COUNT"])
        changed = ", ".join(f"{k}={v}" for k, v in overrides.items()) or "none"
        text = (
            f"every limit at its production default, TRUSTED_PROXY_COUNT={proxies} "
            f"(changed with --env: {changed})"
        )
    else:
        proxies = None
        text = "as the servers run them (X-Forwarded-For counts only behind TRUSTED_PROXY_COUNT=1)"
    result.say("limits", text)
    clients = getattr(options, "games", None) or options.spectators + 1
    addresses = math.ceil(clients / options.per_address)
    result.say(
        "addresses",
        f"{clients} clients from {addresses} addresses (X-Forwarded-For 10.x.y.z), at most "
        f"{options.per_address} behind one, as in a household",
    )
    result.figures.update(trusted_proxy_count=proxies, env_overrides=overrides, addresses=addresses)


def monitor_for(servers: Servers) -> procstats.Monitor:
    if servers.started_here:
        roots = {kind: servers.pids(kind) for kind in ("daphne", "celery worker", "beat")}
        roots.update(redis_servers(servers))
    else:
        ports = [int(url.rsplit(":", 1)[1]) for url in servers.urls if url.count(":") == 2]
        roots = procstats.external_kinds(ports)
    return procstats.Monitor(roots)


REDIS_KIND = "redis :"


def redis_servers(servers: Servers) -> dict[str, list[int]]:
    """The redis-server processes of the servers' REDIS_URL and CHANNEL_LAYER_REDIS_URLS, as
    kinds of their own ("redis :6411"), found by the address in their title (127.0.0.1:6411):
    the block shows each one's CPU beside the redis-server row, which counts them all."""
    urls = [servers.env["REDIS_URL"], *servers.env.get("CHANNEL_LAYER_REDIS_URLS", "").split(",")]
    ports = sorted({int(url.rsplit(":", 1)[1].split("/")[0]) for url in urls if url})
    titles = {pid: " ".join(procstats.command(pid)) for pid in procstats.by_name("redis-server")}
    return {
        f"{REDIS_KIND}{port}": [
            pid for pid, title in titles.items() if title.rsplit(":", 1)[-1].strip() == str(port)
        ]
        for port in ports
    }


def new_http() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(
        cookie_jar=aiohttp.DummyCookieJar(),
        connector=aiohttp.TCPConnector(limit=0, force_close=False),
        timeout=aiohttp.ClientTimeout(total=60),
    )


JOBS = ("beat", "celery worker")


async def stop_jobs(servers: Servers) -> None:
    """After the window, the bots stop moving before the clients close their sockets and the log
    is read: no move lands during verify_games, and no state is sent to a socket its client is
    closing (Daphne then logs a traceback, autobahn's Disconnected, which would count as an
    error of the run). Servers already running (--url) are left alone."""
    if servers.started_here:
        await asyncio.to_thread(servers.stop, JOBS)


def report_log_problems(result: Result, servers: Servers) -> None:
    """Tracebacks and ERROR lines in the servers' logs count as errors, by kind of process."""
    problems = {kind: count for kind, count in servers.log_problems().items() if count}
    for kind, count in problems.items():
        result.errors[f"traceback or ERROR line in the {kind} log"] += count
    if problems:
        result.say("server logs", f"tracebacks or ERROR lines: {problems} {result.check(False)}")


def report_all_errors(result: Result) -> None:
    """Every error of the run in one count (what --fail-on-error looks at)."""
    total = sum(result.errors.values())
    kinds = "; ".join(f"{k}: {v}" for k, v in result.errors.most_common()) or "none"
    result.figures["all_errors"] = total
    result.say("all errors", f"{total} ({kinds})")


async def sign_up_all(browsers: list[Browser], concurrency: int, run_id: str) -> float:
    """Sign-ups cost the server a password hash each: a few at a time, before the window."""
    gate = asyncio.Semaphore(concurrency)
    started = time.monotonic()

    async def one(index: int, browser: Browser) -> bool:
        async with gate:
            return await browser.sign_up(f"load{run_id}x{index}")

    await asyncio.gather(*(one(i, b) for i, b in enumerate(browsers)))
    return time.monotonic() - started


# --- Scenarios with people playing --------------------------------------------------------------


async def play_scenario(options, servers: Servers, result: Result) -> None:
    stats, stop = Stats(), asyncio.Event()
    ledger = Ledger(servers.database_url) if servers.database_url else None
    rng = random.Random(options.seed)
    bots = bots_per_game(options)
    think = think_range(str(options.think))
    run_id = f"{int(time.time()) % 100000}{rng.randrange(1000)}"
    async with new_http() as http:
        addresses = household_addresses(options.games, options.per_address, rng)
        browsers = [
            Browser(http, servers.urls[i % len(servers.urls)], stats, address)
            for i, address in enumerate(addresses)
        ]
        seconds = await sign_up_all(browsers, options.signup_concurrency, run_id)
        signed = sum("sessionid" in b.cookies for b in browsers)
        result.say(
            "warm-up",
            f"{signed}/{len(browsers)} sign-ups in {seconds:.1f} s, "
            f"{options.signup_concurrency} at a time (a password hash each)",
        )
        ramp = asyncio.Semaphore(options.ramp) if options.ramp > 0 else None
        person = await kind_of_player(options, servers, browsers, result)
        players = [
            person(
                b,
                Plan(bots[i % len(bots)], options.level, think, random.Random(rng.random())),
                stats,
                stop,
                ramp,
            )
            for i, b in enumerate(browsers)
            if "sessionid" in b.cookies
        ]
        started = time.monotonic()
        tasks = [asyncio.ensure_future(p.run()) for p in players]
        with contextlib.suppress(*TIMEOUTS):
            await asyncio.wait_for(
                asyncio.gather(*(p.first_socket.wait() for p in players)), START_TIMEOUT
            )
        result.say(
            "first games",
            f"{stats.games_started} games created and their sockets opened in "
            f"{time.monotonic() - started:.1f} s ({how_games_start(result)}, the game page, "
            "the socket; " + (f"{options.ramp} at a time)" if ramp else "all at once)"),
        )
        monitor = monitor_for(servers)
        counts_before = ledger.action_counts() if ledger else {}
        sessions_before = ledger.sessions() if ledger else None
        db_start = ledger.now() if ledger else None
        steps_before = stats.version_steps
        monitor.start()
        stats.window = True
        faults = [asyncio.ensure_future(fault(servers, kill, result)) for kill in options.kill]
        await asyncio.sleep(options.duration)
        stats.window = False
        await asyncio.gather(*faults)
        usage = await monitor.stop()
        counts_after = ledger.action_counts() if ledger else {}
        sessions_after = ledger.sessions() if ledger else None
        db_end = ledger.now() if ledger else None
        steps = stats.version_steps - steps_before
        await stop_jobs(servers)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    window = usage.ended - usage.started
    report_play(result, options, stats, window, counts_before, counts_after, steps)
    if ledger:
        report_bot_latency(result, ledger, db_start, db_end)
        report_sessions(result, sessions_before, sessions_after, window)
        ledger.close()
    actions = round(result.figures.get("actions_per_second", 0) * window)
    report_usage(result, usage, actions)
    result.figures["stats"] = stats


def bots_per_game(options) -> list[int]:
    """The --bots list, each a number of bots the scenario's game is played with."""
    bots = [int(n) for n in str(options.bots).split(",")]
    low, high = (2, 5) if options.scenario == "renaissance" else (1, 5)
    if not all(low <= n <= high for n in bots):
        raise HarnessError(f"--bots: {low} to {high} bots a game in {options.scenario}")
    return bots


async def kind_of_player(options, servers: Servers, browsers: list[Browser], result: Result):
    """Who plays: Condottiere's Player, or in `renaissance` a RenaissancePlayer whose games come
    from the /play/ form if the site offers Renaissance there, else from the harness itself."""
    if options.scenario != "renaissance":
        return Player
    signed = [browser for browser in browsers if browser.username]
    offered = bool(signed) and await form_offers_renaissance(signed[0])
    if not offered and not servers.started_here:
        # The harness's games would start with this process's settings, not the servers'.
        raise HarnessError("--url: the servers' /play/ form offers no Renaissance game")
    result.say(
        "tables",
        "Renaissance games through the /play/ form"
        if offered
        else "Renaissance games created by the harness through manage.py (this checkout's "
        "/play/ form offers no Renaissance): the person at seat 0, bots at the others",
    )
    result.say(
        "definition",
        "a person's latency runs from its action to the first state frame whose log shows it "
        "(another seat's vote may come first)",
    )
    result.figures["renaissance_tables"] = "form" if offered else "harness"
    return functools.partial(RenaissancePlayer, maker=None if offered else Tables(servers))


def how_games_start(result: Result) -> str:
    if result.figures.get("renaissance_tables") == "harness":
        return "created by the harness"
    return "the /play/ form"


FAULT_KINDS = {"worker": "celery worker", "beat": "beat", "daphne": "daphne"}


def parse_kill(text: str) -> tuple[str, float, float]:
    """ "worker@20+5" -> ("celery worker", 20.0, 5.0)."""
    kind, _, when = text.partition("@")
    at, _, down = when.partition("+")
    if kind not in FAULT_KINDS or not at:
        raise SystemExit(f"--kill {text!r}: KIND@AT[+DOWN], KIND one of {', '.join(FAULT_KINDS)}")
    return FAULT_KINDS[kind], float(at), float(down or 5)


async def fault(servers: Servers, kill: str, result: Result) -> None:
    """Kill a kind of process at a moment of the window, start it again after a while."""
    kind, at, down = parse_kill(kill)
    await asyncio.sleep(at)
    killed = servers.kill(kind)
    await asyncio.sleep(down)
    servers.restart(killed)
    result.say(
        "fault", f"{len(killed)} {kind} process(es) killed at {at:.0f} s, back {down:.0f} s later"
    )


def report_play(result, options, stats, window, before, after, steps) -> None:
    figures = result.figures
    in_window = {k: after.get(k, 0) - before.get(k, 0) for k in set(before) | set(after)}
    total = sum(in_window.values())
    figures.update(
        window=window,
        games_started=stats.games_started,
        games_finished=stats.games_finished,
        person_actions_total=after.get("human", 0),
        bot_actions_total=after.get("bot", 0),
        actions_in_window=total,
    )
    result.say("window", f"{window:.1f} s of measurement")
    result.say(
        "games",
        f"started {stats.games_started} ({stats.started_in_window} in the window), "
        f"finished {stats.games_finished} ({stats.finished_in_window} in the window)",
    )
    if after:
        rate = total / window
        split = ", ".join(f"{k} {v}" for k, v in sorted(in_window.items()))
        figures["actions_per_second"] = rate
        if options.scenario == "smoke":
            person, bot = after.get("human", 0), after.get("bot", 0)
            result.say(
                "both played",
                f"{person} actions by people, {bot} by bots in the whole run "
                + result.check(person > 0 and bot > 0),
            )
        met = (
            ""
            if options.scenario != "fast"
            else f" target >= {FAST_RATE}/s " + result.check(rate >= FAST_RATE)
        )
        result.say(
            "game actions",
            f"{total} accepted in the window = {rate:.1f}/s ({split}; from games_action){met}",
        )
    else:
        rate = steps / window
        figures["actions_per_second"] = rate
        result.say("game actions", f"~{rate:.1f}/s (versions the players' sockets saw advance)")
    latencies = sorted(stats.latencies)
    p50, p95, p99 = (percentile(latencies, q) for q in (50, 95, 99))
    figures.update(p50=p50, p95=p95, p99=p99, latency_samples=len(latencies))
    limit = LATENCY_P99.get(options.scenario)
    met = (
        ""
        if limit is None
        else f" target p99 <= {limit * 1000:.0f} ms "
        + (result.check(p99 is not None and p99 <= limit))
    )
    result.say(
        "latency",
        f"action -> state frame: p50 {ms(p50)} p95 {ms(p95)} p99 {ms(p99)} "
        f"max {ms(latencies[-1] if latencies else None)} (n={len(latencies)}){met}",
    )
    result.errors.update(stats.errors)
    errors = sum(stats.errors.values())
    figures["errors"] = errors
    kinds = "; ".join(f"{k}: {v}" for k, v in stats.errors.most_common()) or "none"
    result.say("errors", f"{errors} target 0 {result.check(errors == 0)} ({kinds})")
    result.say(
        "not errors",
        f"{stats.stale} 'stale' answers (a frame crossed an action); "
        f"{stats.throttled} waits to stay under the socket rate limit, {stats.table_waits} "
        f"under the tables a minute; {stats.reconnects} reconnects; "
        f"{stats.http_requests} HTTP requests",
    )


def report_bot_latency(result, ledger: Ledger, since, until) -> None:
    found = ledger.bot_latency_ms(since, until)
    if not found:
        result.say("bot turns", "n/a (no games_action.latency_ms)")
        return
    count, quantiles = found
    if count and quantiles:
        text = " ".join(
            f"{n} {v:.0f} ms" for n, v in zip(("p50", "p95", "p99"), quantiles, strict=False)
        )
        result.say(
            "bot turns", f"scheduled -> submitted {text} (n={count}, games_action.latency_ms)"
        )


def report_sessions(result: Result, before: int | None, after: int | None, window: float):
    if before is not None and after is not None:
        opened = after - before
        result.say(
            "db sessions",
            f"{opened} PostgreSQL connections opened in the window = {opened / window:.0f}/s "
            "(pg_stat_database.sessions)",
        )


def check_the_log(result: Result, servers: Servers) -> None:
    """Lost or doubled actions: the players' own account against the log, gaps in the log, and
    every game replayed to its snapshot by `manage.py verify_games`."""
    if not servers.database_url:
        result.say("lost actions", "not checked: pass --database-url with --url")
        return
    ledger = Ledger(servers.database_url)
    try:
        # Servers started here have no job left to land a move; others' may still be busy.
        if not servers.started_here and not ledger.wait_until_still():
            result.say("note", "actions were still being added 60 s after the window")
        gaps = ledger.games_with_log_gaps()
        lost = doubled = uncertain = 0
        stats: Stats | None = result.figures.get("stats")
        if stats is not None:
            logged = ledger.human_actions()
            for game_id, record in stats.games.items():
                accepted = record.sent - record.refused
                stored = logged.get(game_id, 0)
                lost += max(0, accepted - record.unanswered - stored)
                doubled += max(0, stored - accepted)
                uncertain += record.unanswered
        statuses = ledger.game_statuses()
    finally:
        ledger.close()
    verdict = verify_games(servers.root, servers.env)
    result.verdict = verdict
    result.figures.update(lost=lost, doubled=doubled, log_gaps=len(gaps), verify_ok=verdict.ok)
    for kind, count in (
        ("lost action", lost),
        ("doubled action", doubled),
        ("game whose log is not seq 1..version", len(gaps)),
        ("verify_games failed", not verdict.ok),
    ):
        if count:
            result.errors[kind] += count
    result.say("games in db", ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    if stats is not None:
        met = result.check(lost == 0 and doubled == 0)
        result.say(
            "lost actions",
            f"{lost} lost, {doubled} doubled {met} (each person's accepted actions against "
            f"games_action; {uncertain} sent just before the end and not answered)",
        )
    shown = ", ".join(map(str, gaps[:10]))
    result.say(
        "log",
        f"{len(gaps)} games whose log is not seq 1..version {result.check(not gaps)} {shown}",
    )
    result.say(
        "verify_games",
        f"{verdict.summary} ({verdict.seconds:.1f} s) {result.check(verdict.ok)}",
    )
    if verdict.details:
        result.lines.extend("               " + line for line in verdict.details.splitlines())


def report_usage(result: Result, usage: procstats.Usage, actions: int | None = None) -> None:
    """CPU and memory per kind of process; with the window's accepted `actions`, each kind's CPU
    milliseconds per action too (and the servers' together: every kind but the harness)."""
    per_action = bool(actions)
    head = f"{'kind':<15}{'cpu s':>8}{'% core':>9}{'peak MiB':>10}{'procs':>7}"
    result.say("processes", head + (f"{'ms/action':>11}" if per_action else ""))
    servers_cpu = 0.0
    for kind, cpu, percent, memory, count in usage.rows():
        line = f"{kind:<15}{cpu:>8.1f}{percent:>9.0f}{memory:>10.0f}{count:>7}"
        if per_action:
            line += f"{1000 * cpu / actions:>11.2f}"
            servers_cpu += cpu if kind != "harness" else 0.0
        result.say("", line)
    if per_action:
        total = f"{'servers':<15}{servers_cpu:>8.1f}{'':>26}"
        result.say("", total + f"{1000 * servers_cpu / actions:>11.2f}")
        result.figures["server_cpu_ms_per_action"] = 1000 * servers_cpu / actions
    result.lines.append(
        "               (CPU over the window incl. reaped children; memory = peak PSS sum; "
        "postgres and redis-server count every client of them on this machine;"
    )
    result.lines.append(
        "                redis-server is every redis-server process here: the broker's and each "
        "channel-layer server's, and any other's)"
    )
    result.figures["usage"] = list(usage.rows())
    report_redis_servers(result, usage)


def report_redis_servers(result: Result, usage: procstats.Usage) -> None:
    """Each Redis server of the run's own: its CPU over the window."""
    seconds = max(1e-9, usage.ended - usage.started)
    shares = {
        kind.removeprefix(REDIS_KIND): usage.cpu_end.get(kind, 0.0) - start
        for kind, start in usage.cpu_start.items()
        if kind.startswith(REDIS_KIND)
    }
    if shares:
        text = "; ".join(
            f"port {port} {cpu:.1f} s = {100 * cpu / seconds:.0f}% of a core"
            for port, cpu in shares.items()
        )
        result.say("redis cpu", f"{text} (the run's own servers, within the redis-server row)")
        result.figures["redis_cpu"] = {int(port): cpu for port, cpu in shares.items()}


# --- The spectators' scenario -------------------------------------------------------------------


async def watch_scenario(options, servers: Servers, result: Result) -> None:
    stats = Stats()
    ledger = Ledger(servers.database_url) if servers.database_url else None
    addresses = household_addresses(
        options.spectators + 1, options.per_address, random.Random(options.seed)
    )
    async with new_http() as http:
        host = Browser(http, servers.urls[0], stats, addresses.pop())
        await sign_up_all([host], 1, f"{int(time.time()) % 100000}")
        fields = {"players": options.players, "turn_seconds": ""}
        for seat in range(options.players):
            fields[f"seat_{seat}_kind"] = "bot"
            fields[f"seat_{seat}_level"] = options.level
            fields[f"seat_{seat}_username"] = ""
        game_id = await host.open_game("/tables/new/", fields)
        if game_id is None:
            raise HarnessError(f"could not start an all-bot game: {dict(stats.errors)}")
        result.say("game", f"{game_id}: {options.players} bots ({options.level}) via /tables/new/")
        started = time.monotonic()
        watchers = [
            Spectator(Browser(http, servers.urls[i % len(servers.urls)], stats, address), game_id)
            for i, address in enumerate(addresses)
        ]
        gate = asyncio.Semaphore(options.ramp or options.spectators)

        async def connect(watcher: Spectator) -> bool:
            async with gate:
                return await watcher.connect()

        connected = await asyncio.gather(*(connect(w) for w in watchers))
        live = [w for w, ok in zip(watchers, connected, strict=True) if ok]
        readers = [asyncio.ensure_future(w.watch()) for w in live]
        result.say(
            "warm-up",
            f"{len(live)}/{len(watchers)} spectator sockets open in "
            f"{time.monotonic() - started:.1f} s (anonymous; {options.ramp or 'all'} "
            "handshakes at a time; no page load)",
        )
        handshakes = sorted(w.handshake for w in live if w.handshake is not None)
        result.say(
            "handshakes",
            f"opening handshake p50 {ms(percentile(handshakes, 50))} p95 "
            f"{ms(percentile(handshakes, 95))} p99 {ms(percentile(handshakes, 99))} "
            f"max {ms(handshakes[-1] if handshakes else None)}",
        )
        monitor = monitor_for(servers)
        before = ledger.action_counts() if ledger else {}
        sessions_before = ledger.sessions() if ledger else None
        monitor.start()
        window_start = time.monotonic()
        finished_early = False
        while time.monotonic() - window_start < options.duration:
            await asyncio.sleep(1.0)
            if ledger and ledger.game_version(game_id)[1] != "playing":
                finished_early = True
                break
        usage = await monitor.stop()
        after = ledger.action_counts() if ledger else {}
        sessions_after = ledger.sessions() if ledger else None
        await stop_jobs(servers)
        if ledger:
            final, status = ledger.game_version(game_id)
        else:
            final, status = max((w.last for w in live), default=0), "?"
        deadline = time.monotonic() + CATCH_UP
        while time.monotonic() < deadline and any(w.last < final for w in live):
            await asyncio.sleep(0.2)
        caught_up = time.monotonic() - (deadline - CATCH_UP)
        for watcher in live:
            await watcher.close()
        await asyncio.gather(*readers, return_exceptions=True)
    if ledger:
        ledger.close()
    window = usage.ended - usage.started
    report_watch(result, live, watchers, stats, final, status, window, finished_early, caught_up)
    total = sum(after.values()) - sum(before.values())
    result.say("game actions", f"{total} in the window = {total / window:.2f}/s (games_action)")
    report_sessions(result, sessions_before, sessions_after, window)
    report_usage(result, usage)


def report_watch(result, live, watchers, stats, final, status, window, early, caught_up) -> None:
    result.say(
        "window",
        f"{window:.1f} s" + (" (the game finished before the window's end)" if early else ""),
    )
    result.say(
        "definition",
        "a socket passes if its state versions never went back and it reached the game's "
        "version at the window's end (the final one if finished) within "
        f"{CATCH_UP:.0f} s; jumps are allowed (docs/protocol.md: notices are coalesced)",
    )
    behind = sum(w.last < final for w in live)
    backwards = sum(w.backwards > 0 for w in live)
    closed = Counter(w.closed_unexpectedly for w in live if w.closed_unexpectedly is not None)
    for code, count in closed.items():
        stats.errors[f"spectator socket closed unexpectedly (code {code})"] += count
    refused = len(watchers) - len(live)
    failed = behind + backwards + refused
    result.say(
        "every version",
        f"{len(live) - behind}/{len(watchers)} sockets at version {final} ({status}) "
        f"{caught_up:.1f} s after the window; {behind} behind, {backwards} went back, "
        f"{refused} never opened {result.check(failed == 0)}",
    )
    seen = [len(w.seen) for w in live]
    complete = sum(len(w.seen) == (w.last - min(w.seen) + 1) for w in live if w.seen)
    frames = sum(w.frames for w in live)
    first = {}
    for watcher in live:
        for version, when in watcher.seen.items():
            if version != watcher.first:
                first[version] = min(first.get(version, when), when)
    # A socket's first frame came with its handshake, not with a move: only later ones count.
    lags = sorted(when - first[v] for w in live for v, when in w.seen.items() if v != w.first)
    result.say(
        "versions",
        f"{sum(seen) / max(1, len(seen)):.1f} distinct versions per socket on average "
        f"({frames} state frames); {complete} sockets saw every version without a jump",
    )
    lag_p99 = percentile(lags, 99)
    result.say(
        "fan-out lag",
        f"behind the first socket to see a version: p50 {ms(percentile(lags, 50))} "
        f"p95 {ms(percentile(lags, 95))} p99 {ms(lag_p99)} max "
        f"{ms(lags[-1] if lags else None)} target p99 <= {FAN_OUT_P99 * 1000:.0f} ms "
        + result.check(lag_p99 is not None and lag_p99 <= FAN_OUT_P99),
    )
    result.errors.update(stats.errors)
    errors = sum(stats.errors.values())
    kinds = "; ".join(f"{k}: {v}" for k, v in stats.errors.most_common()) or "none"
    result.say("errors", f"{errors} target 0 {result.check(errors == 0)} ({kinds})")
    result.figures.update(
        spectators=len(watchers), behind=behind, backwards=backwards, errors=errors
    )


# --- Small helpers ----------------------------------------------------------------------------


def percentile(ordered: list[float], q: float) -> float | None:
    """Nearest-rank percentile of an ordered list."""
    if not ordered:
        return None
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def ms(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1000:.0f} ms"


def main() -> int:
    try:
        results = run()
    except HarnessError as error:
        print(f"loadtest: {error}", file=sys.stderr)
        return 2
    strict = "--strict" in sys.argv
    return 1 if any(r.failed(strict) for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
