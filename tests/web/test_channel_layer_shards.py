"""The channel layer over several Redis servers (CHANNEL_LAYER_REDIS_URLS).

channels-redis spreads a layer's keys over its `hosts` by a hash of the name: a group's members
live on the server its name hashes to, and a process's sockets (channels named
`specific.<process>!<socket>`) wait on the server that process's name hashes to. The settings
test checks what the variable gives; the production test starts two redis-servers of its own and
has one layer instance (a worker's, say) send to groups and sockets that hash to each of them.
"""

import asyncio
from pathlib import Path

import pytest
import redis
from channels_redis.core import RedisChannelLayer

from condottiere_site.env import channel_layer_host, channel_layer_urls
from tests.load.servers import HOST
from tests.own_redis import redis_servers
from tests.web.test_settings import assert_stops_with, manage, settings_of

HOSTS = "[h['address'] for h in s.CHANNEL_LAYERS['default']['CONFIG']['hosts']]"
TWO = "redis://10.0.0.1:6379/0,redis://10.0.0.2:6380/0"


def test_two_channel_layer_urls_give_two_hosts_and_leave_the_rest_on_redis_url():
    shown = settings_of(
        f"{HOSTS}, s.CACHES['default']['LOCATION'], s.CELERY_BROKER_URL",
        REDIS_URL="redis://broker:6379/0",
        CHANNEL_LAYER_REDIS_URLS=TWO,
    )
    assert shown == (
        "['redis://10.0.0.1:6379/0', 'redis://10.0.0.2:6380/0'] "
        "redis://broker:6379/0 redis://broker:6379/0"
    )
    # Each host keeps the read timeout, the connection cap and the retry of channel_layer_host.
    second = settings_of(
        "s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][1]",
        REDIS_URL="redis://broker:6379/0",
        CHANNEL_LAYER_REDIS_URLS=TWO,
    )
    assert "'socket_timeout': 30" in second and "'max_connections': 1000" in second
    assert "'retry': <redis.asyncio.retry.Retry" in second


def test_without_channel_layer_urls_the_channel_layer_is_on_redis_url_alone():
    assert settings_of(HOSTS, REDIS_URL="redis://broker:6379/0") == "['redis://broker:6379/0']"


@pytest.mark.parametrize(
    "urls",
    [
        "redis://10.0.0.1:6379/0,http://10.0.0.2:6379/0",
        "redis://10.0.0.1:6379/0,redis://10.0.0.2:port/0",
        "redis://10.0.0.1:6379/0,",
        "redis://10.0.0.1:6379/0,redis://10.0.0.1:6379/0",
    ],
)
def test_a_malformed_channel_layer_url_stops(urls):
    result = manage("check", REDIS_URL="redis://broker:6379/0", CHANNEL_LAYER_REDIS_URLS=urls)
    assert_stops_with(result, "CHANNEL_LAYER_REDIS_URLS")


def test_channel_layer_urls_without_redis_url_stop():
    result = manage("check", CHANNEL_LAYER_REDIS_URLS="redis://10.0.0.1:6379/0")
    assert_stops_with(result, "REDIS_URL", "CHANNEL_LAYER_REDIS_URLS")


# --- Two real Redis servers -------------------------------------------------------------------


@pytest.fixture
def two_redis_servers(tmp_path: Path):
    """Two redis-servers of this test's own, 6412 and 6413 when free; killed at the end."""
    with redis_servers(2, 6412, tmp_path) as ports:
        yield ports


def command_calls(port: int) -> dict[str, int]:
    """How many times this server ran each command (INFO commandstats)."""
    stats = redis.Redis(host=HOST, port=port).info("commandstats")
    return {name.removeprefix("cmdstat_"): entry["calls"] for name, entry in stats.items()}


def layer(hosts: list[dict]) -> RedisChannelLayer:
    return RedisChannelLayer(hosts=hosts)


def named_for_each_shard(layer: RedisChannelLayer, names) -> list[str]:
    """The first name of `names` that hashes to each server, in the servers' order."""
    chosen: dict[int, str] = {}
    for name in names:
        chosen.setdefault(layer.consistent_hash(name), name)
        if len(chosen) == layer.ring_size:
            return [chosen[index] for index in range(layer.ring_size)]
    raise AssertionError("no name for every server")


@pytest.mark.production
async def test_a_group_send_reaches_sockets_on_either_redis_server(two_redis_servers, monkeypatch):
    urls = [f"redis://{HOST}:{port}/0" for port in two_redis_servers]
    monkeypatch.setenv("CHANNEL_LAYER_REDIS_URLS", ",".join(urls))
    hosts = [channel_layer_host(url) for url in channel_layer_urls("redis://unused:1/0")]
    assert [host["address"] for host in hosts] == urls

    # A Daphne process's sockets all wait on the server its random name hashes to: two
    # "processes" whose names hash to different servers, a socket in each.
    candidates = [layer(hosts) for _ in range(64)]
    sockets: dict[int, tuple[RedisChannelLayer, str]] = {}  # server -> (process, socket)
    for candidate in candidates:
        name = await candidate.new_channel()
        shard = candidate.consistent_hash(candidate.non_local_name(name))
        sockets.setdefault(shard, (candidate, name))
    assert len(sockets) == 2, "64 processes' names all hashed to one server"
    sender = layer(hosts)  # a Celery worker's, or another Daphne's
    groups = named_for_each_shard(sender, (f"game-{number}" for number in range(100)))
    before = {port: command_calls(port) for port in two_redis_servers}
    try:
        for receiver, name in sockets.values():
            for group in groups:
                await receiver.group_add(group, name)
        # Each group's members are kept on its own server, and only there.
        for index, port in enumerate(two_redis_servers):
            keys = set(redis.Redis(host=HOST, port=port).keys("asgi:group:*"))
            assert keys == {f"asgi:group:{groups[index]}".encode()}, (port, keys)

        for version, group in enumerate(groups, start=1):
            await sender.group_send(group, {"type": "game.version", "version": version})
        for shard, (receiver, name) in sockets.items():
            heard = []
            for _ in groups:
                message = await asyncio.wait_for(receiver.receive(name), timeout=10)
                heard.append(message["version"])
            assert sorted(heard) == [1, 2], (shard, heard)
    finally:
        for instance in [*candidates, sender]:
            await instance.close_pools()

    # Both servers carried the traffic: a group's members read (ZRANGE) and a socket's message
    # delivered (the group_send script, EVAL; the socket's blocking read, BZPOPMIN) on each.
    for port in two_redis_servers:
        after = command_calls(port)
        ran = {name: after.get(name, 0) - before[port].get(name, 0) for name in after}
        for command in ("zadd", "zrange", "eval", "bzpopmin"):
            assert ran.get(command, 0) > 0, (port, command, ran)
