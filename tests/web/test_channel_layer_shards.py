"""The channel layer over several Redis servers (CHANNEL_LAYER_REDIS_URLS).

channels-redis's publish/subscribe layer spreads its channels over its `hosts` by a hash of the
name: a group's notices are published on the server its name hashes to, where every process
watching the group subscribes. The settings test checks what the variable gives; the production
test starts two redis-servers of its own and has a layer instance (a worker's, say) send to
groups that hash to each of them, heard by two processes' sockets: through the layer's own
group_send, and as a move's hint is sent, synchronously from a thread.
"""

import asyncio
from pathlib import Path

import pytest
import redis
from channels_redis.pubsub import RedisPubSubChannelLayer

from condottiere_site.env import channel_layer_host, channel_layer_prefix, channel_layer_urls
from games.services.layer_publish import publisher_for
from tests.conftest import redis_database_url
from tests.load.servers import HOST
from tests.own_redis import redis_servers
from tests.services import require_redis
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


def group_for_each_server(process, names) -> list[str]:
    """The first group of `names` whose channel hashes to each server, in the servers' order."""
    loop_layer = process._get_layer()
    addresses = [shard.host["address"] for shard in loop_layer._shards]
    chosen: dict[str, str] = {}
    for name in names:
        shard = loop_layer._get_shard(loop_layer._get_group_channel_name(name))
        chosen.setdefault(shard.host["address"], name)
        if len(chosen) == len(addresses):
            return [chosen[address] for address in addresses]
    raise AssertionError("no group for every server")


async def send_from_the_layer(sender, group, message):
    await sender.group_send(group, message)


async def send_from_a_thread(sender, group, message):
    """As a Celery worker or a socket's database thread sends a move's hint: synchronously,
    off the event loop (games/services/layer_publish.py)."""
    await asyncio.to_thread(publisher_for(sender).group_send, group, message)


@pytest.mark.production
@pytest.mark.parametrize("send", [send_from_the_layer, send_from_a_thread])
async def test_a_group_send_reaches_every_process_through_either_redis_server(
    two_redis_servers, monkeypatch, send
):
    urls = [f"redis://{HOST}:{port}/0" for port in two_redis_servers]
    monkeypatch.setenv("CHANNEL_LAYER_REDIS_URLS", ",".join(urls))
    hosts = [channel_layer_host(url) for url in channel_layer_urls("redis://unused:1/0")]
    assert [host["address"] for host in hosts] == urls

    # Two Daphne processes with a socket each, and a Celery worker that sends.
    daphnes = [RedisPubSubChannelLayer(hosts=hosts) for _ in range(2)]
    sender = RedisPubSubChannelLayer(hosts=hosts)
    groups = group_for_each_server(sender, (f"game-{number}" for number in range(100)))
    before = {port: command_calls(port) for port in two_redis_servers}
    try:
        sockets = [await daphne.new_channel() for daphne in daphnes]
        for daphne, socket in zip(daphnes, sockets, strict=True):
            for group in groups:
                await daphne.group_add(group, socket)
        await asyncio.sleep(0.2)  # the subscriptions reach the servers
        for version, group in enumerate(groups, start=1):
            await send(sender, group, {"type": "game.version", "version": version})
        for daphne, socket in zip(daphnes, sockets, strict=True):
            heard = []
            for _ in groups:
                message = await asyncio.wait_for(daphne.receive(socket), timeout=10)
                heard.append(message["version"])
            assert sorted(heard) == [1, 2], heard
    finally:
        for instance in [*daphnes, sender]:
            await instance.flush()

    # Both servers carried the traffic: each published one group's notice and held the
    # processes' subscriptions to it.
    for port in two_redis_servers:
        after = command_calls(port)
        ran = {name: after.get(name, 0) - before[port].get(name, 0) for name in after}
        for command in ("subscribe", "publish"):
            assert ran.get(command, 0) > 0, (port, command, ran)


def test_the_channel_layer_s_names_carry_a_redis_database_other_than_0():
    """Publish/subscribe channels belong to no Redis database: the prefix keeps apart two sites
    (or two parallel test workers, or a load test) on one server with different databases."""
    prefix = "s.CHANNEL_LAYERS['default']['CONFIG']['prefix']"
    assert settings_of(prefix, REDIS_URL="redis://broker:6379/0") == "asgi"
    assert settings_of(prefix, REDIS_URL="redis://broker:6379") == "asgi"
    assert settings_of(prefix, REDIS_URL="redis://broker:6379/3") == "asgi-db3-"


@pytest.mark.production
async def test_a_group_on_one_redis_database_is_not_heard_on_another():
    """Two layers as two sites on databases 1 and 2 of one server: each hears its own game's
    notice, never the other's, though the groups share a name."""
    redis_url = require_redis()
    layers = {
        number: RedisPubSubChannelLayer(
            hosts=[channel_layer_host(redis_database_url(redis_url, number))],
            prefix=channel_layer_prefix(redis_database_url(redis_url, number)),
        )
        for number in (1, 2)
    }
    try:
        channels = {number: await layer.new_channel() for number, layer in layers.items()}
        for number, layer in layers.items():
            await layer.group_add("game-1", channels[number])
        await asyncio.sleep(0.2)  # the subscriptions reach the server
        for number, layer in layers.items():
            await layer.group_send("game-1", {"type": "game.version", "version": number})
        for number, layer in layers.items():
            message = await asyncio.wait_for(layer.receive(channels[number]), timeout=5)
            assert message["version"] == number
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(layer.receive(channels[number]), timeout=0.5)
    finally:
        for layer in layers.values():
            await layer.flush()
