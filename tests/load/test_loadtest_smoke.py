"""The load harness's `fast` scenario, a short window of it, as CI runs it: with the production
limits on, and not one error; then a shorter `renaissance` window, a few games of the second game.

The harness starts the production profile itself (a fresh PostgreSQL database, a Redis database
number of its own, two Daphne processes, a Celery worker and beat) with every limit at its
production default behind one trusted proxy, signs 20 people up through the forms from addresses
of their own (X-Forwarded-For, two a household), has them play bots over the game socket for
8 s, and checks the log. It reaches PostgreSQL and Redis at 127.0.0.1 directly, whatever this
test process's own profile is, so the guards check those addresses rather than Django's settings.
No speed is asserted (the machine is shared): only that each printed figure is there and sane.
`LOADTEST_REDIS_PORT` points the harness and these guards at another Redis on 127.0.0.1.
A third window runs the site scaled out: the channel layer over two redis-servers of the test's
own, one worker on the play queue and one on the background queue.
"""

import os

import pytest
import redis

from tests.load import loadtest
from tests.load.servers import DEFAULT_REDIS_PORT, HOST, drop_database, lock_redis_db
from tests.own_redis import redis_servers
from tests.services import missing, port_open

pytestmark = [pytest.mark.production, pytest.mark.slow, pytest.mark.timeout(240)]

GAMES, SECONDS = 20, 8
# Renaissance: two three-player and two six-player games, a short window (CI's time is counted).
RENAISSANCE_GAMES, RENAISSANCE_SECONDS = 4, 8
# Scaled out: a few games over both Daphnes, a short window.
SCALED_GAMES, SCALED_SECONDS = 10, 6


def require_local_postgresql() -> None:
    if not port_open("127.0.0.1", 5432):
        missing("PostgreSQL does not answer at 127.0.0.1:5432: the load harness needs it")


def require_local_redis() -> None:
    if not port_open("127.0.0.1", DEFAULT_REDIS_PORT):
        missing(f"Redis does not answer at 127.0.0.1:{DEFAULT_REDIS_PORT}: the harness needs it")


def free_redis_db() -> int:
    """A Redis database number no other load run holds (7 is the harness's default)."""
    for number in range(8, 16):
        lock = lock_redis_db(number)
        if lock is not None:
            lock.close()
            return number
    pytest.fail("every Redis database 8-15 is held by another load run")


def fast_window(*more: str) -> loadtest.Result:
    """Runs `fast` (20 games, 8 s, --fail-on-error); later options win over these."""
    return window("fast", GAMES, SECONDS, *more)


def window(scenario: str, games: int, seconds: int, *more: str) -> loadtest.Result:
    """Runs a scenario with --fail-on-error on a database and Redis database of its own."""
    require_local_postgresql()
    require_local_redis()
    database = f"condottiere_load_{scenario}_{os.getpid()}"
    argv = [scenario, "--games", str(games), "--duration", str(seconds), "--fail-on-error"]
    argv += ["--db-name", database, "--redis-db", str(free_redis_db()), *more]
    try:
        [result] = loadtest.run(argv)
    finally:
        drop_database(database)
    return result


def test_a_fast_window_with_the_production_limits_on_plays_without_an_error():
    result = fast_window()
    figures = result.figures

    # The limits as production has them: nothing turned off, clients behind a trusted proxy.
    assert figures["trusted_proxy_count"] == 1
    assert figures["env_overrides"] == {}
    assert figures["addresses"] == GAMES // 2

    assert figures["all_errors"] == 0, dict(result.errors)
    assert not result.failed(strict=False)
    assert figures["lost"] == 0
    assert figures["doubled"] == 0
    assert figures["log_gaps"] == 0
    assert result.verdict is not None and result.verdict.ok, result.verdict
    assert "0 differ" in result.verdict.summary

    # Every figure printed, and plausible (no speed: the machine is shared).
    assert figures["games_started"] >= GAMES
    assert figures["person_actions_total"] > 0
    assert figures["bot_actions_total"] > 0
    assert SECONDS <= figures["window"] < SECONDS + 10
    whole_run = figures["person_actions_total"] + figures["bot_actions_total"]
    assert 0 < figures["actions_in_window"] <= whole_run
    assert figures["actions_per_second"] > 0
    assert figures["latency_samples"] > 0
    assert 0 < figures["p50"] <= figures["p95"] <= figures["p99"]
    kinds = {row[0] for row in figures["usage"]}
    assert {"daphne", "celery worker", "postgres"} <= kinds
    printed = "\n".join(result.lines)
    for heading in ("limits", "addresses", "game actions", "latency", "errors", "all errors"):
        assert f"\n{heading:<14} " in "\n" + printed


def test_clients_behind_one_address_meet_the_per_address_limits_and_fail_the_run():
    """The check above can fail: six clients behind one address, as if the harness ignored the
    proxy, are refused the sign-up beyond SIGNUPS_PER_IP (5), and --fail-on-error sees it."""
    result = fast_window("--games", "6", "--per-address", "6", "--duration", "1")

    assert result.figures["addresses"] == 1
    assert result.figures["all_errors"] > 0
    assert any("sign-up" in kind or "/accounts/signup/" in kind for kind in result.errors)
    assert result.failed(strict=False)


def test_a_renaissance_window_plays_without_an_error():
    """People playing Renaissance against bots over the socket, as `fast` does Condottiere: every
    action logged once, every game replayed by verify_games, not one error."""
    result = window("renaissance", RENAISSANCE_GAMES, RENAISSANCE_SECONDS)
    figures = result.figures

    assert figures["all_errors"] == 0, dict(result.errors)
    assert not result.failed(strict=False)
    assert figures["lost"] == figures["doubled"] == figures["log_gaps"] == 0
    assert result.verdict is not None and result.verdict.ok, result.verdict
    assert "0 differ" in result.verdict.summary

    assert figures["games_started"] >= RENAISSANCE_GAMES
    assert figures["person_actions_total"] > 0
    assert figures["bot_actions_total"] > 0
    assert figures["actions_per_second"] > 0
    assert figures["latency_samples"] > 0
    assert 0 < figures["p50"] <= figures["p95"] <= figures["p99"]
    printed = "\n".join(result.lines)
    for heading in ("tables", "game actions", "latency", "errors", "all errors"):
        assert f"\n{heading:<14} " in "\n" + printed


def test_a_window_scaled_out_over_two_channel_layer_servers_and_a_worker_per_queue(tmp_path):
    """CHANNEL_LAYER_REDIS_URLS over two Redis servers, a worker for `play` and another for
    `background`: every move's notice still reaches its sockets, and not one error."""
    with redis_servers(2, 6412, tmp_path) as ports:
        result = window(
            "fast",
            SCALED_GAMES,
            SCALED_SECONDS,
            "--workers",
            "2",
            "--worker-queues",
            "play,background",
            "--channel-redis-ports",
            ",".join(map(str, ports)),
        )
        # Both servers carried the channel layer: games' notices published and subscribed to on
        # each.
        ran = [redis.Redis(host=HOST, port=port).info("commandstats") for port in ports]
    figures = result.figures

    assert figures["all_errors"] == 0, dict(result.errors)
    assert not result.failed(strict=False)
    assert figures["lost"] == figures["doubled"] == figures["log_gaps"] == 0
    assert result.verdict is not None and result.verdict.ok, result.verdict
    assert figures["person_actions_total"] > 0
    assert figures["bot_actions_total"] > 0
    assert figures["latency_samples"] > 0

    assert figures["worker_queues"] == ["play", "background"]
    assert set(ports) <= set(figures["redis_ports"])
    assert set(ports) <= set(figures["redis_cpu"])
    for port, stats in zip(ports, ran, strict=True):
        for command in ("cmdstat_subscribe", "cmdstat_publish"):
            assert stats.get(command, {}).get("calls", 0) > 0, (port, command, stats)
    printed = "\n".join(result.lines)
    for heading in ("redis", "worker queues", "redis cpu", "all errors"):
        assert f"\n{heading:<14} " in "\n" + printed
