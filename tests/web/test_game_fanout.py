"""A game's notices reach the sockets of a process through one watch of the game per process
(games/sockets/fanout.py): one channel of the process in the game's group, one receiver, each
notice handed to the sockets in memory. Sockets of the test's event loop stand for one Daphne
process; the configured channel layer (Redis under the production profile) and the in-memory one
of the embedded profile both serve them."""

import asyncio
import time

import pytest
import redis.asyncio
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from redis.exceptions import ConnectionError as RedisConnectionError

from condottiere_site.env import channel_layer_host
from games.engine import current_player, legal_actions
from games.models import Game
from games.services import load_state, start_game, submit_action
from games.services.frames import Table
from games.services.notify import version_message
from games.sockets import fanout
from games.sockets.cleanup import CLOSE_INTERNAL_ERROR
from games.sockets.fanout import GameFanOut, game_fanout
from games.sockets.latest_tables import latest_tables
from tests.own_redis import redis_servers
from tests.services import require_redis
from tests.web.conftest import WS_TIMEOUT, next_frame, state_at_least, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections", "configured_layer"),
]

MOVES = 5


@pytest.fixture(params=["configured", "in_memory"])
def layer_kind(request, settings):
    """Each test on the profile's layer (Redis in production) and on the embedded in-memory one."""
    if request.param == "in_memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return request.param


@pytest.fixture
def game(make_user, make_table):
    """A started game between two people who play only when the test says (no bot moves)."""
    table = make_table(2, people={0: make_user(), 1: make_user()})
    start_game(table.pk)
    return Game.objects.get(pk=table.pk)


def play_a_move(game_id: int) -> int:
    """The seat to act plays its first legal action; the new version."""
    row = Game.objects.get(pk=game_id)
    state = load_state(row)
    return submit_action(game_id, current_player(state), legal_actions(state)[0], row.version)


async def spectators(game: Game, count: int) -> list:
    sockets = [await ws_connect(f"/ws/games/{game.pk}/") for _ in range(count)]
    for socket in sockets:
        assert (await next_frame(socket, "state"))["version"] == game.version
    return sockets


async def group_members(group: str) -> set[str]:
    """The channels in a channel-layer group, as the layer keeps them: in Redis for the list
    layer, in the process for the in-memory and the publish/subscribe layers (Redis then holds
    one subscription of the process to the group, checked here)."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = get_channel_layer()
    if isinstance(layer, InMemoryChannelLayer):
        return set(layer.groups.get(group, {}))
    if isinstance(layer, RedisPubSubChannelLayer):
        in_process = layer._get_layer()
        name = in_process._get_group_channel_name(group)
        members = set(in_process.groups.get(name, set()))
        client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
        try:
            [(_, subscribers)] = await client.pubsub_numsub(name)
        finally:
            await client.aclose()
        # Redis counts this process's subscription while it has members; an UNSUBSCRIBE may
        # still be on its way when the last one left, and a test of another worker may watch a
        # game of the same id, so only a missing subscription is an error.
        assert subscribers >= 1 or not members, (subscribers, members)
        return members
    connection = layer.connection(layer.consistent_hash(group))
    return {name.decode() for name in await connection.zrange(layer._group_key(group), 0, -1)}


def count_game_notices_received(layer, monkeypatch) -> list:
    """The game notices the layer hands to anyone in this process (the real receive, counted)."""
    received = []
    receive = layer.receive

    async def counted(channel):
        message = await receive(channel)
        if message.get("type", "").startswith("game."):
            received.append((channel, message["type"], message.get("version")))
        return message

    monkeypatch.setattr(layer, "receive", counted)
    return received


async def test_many_sockets_of_a_process_get_every_version_once_and_in_order(layer_kind, game):
    sockets = await spectators(game, 20)
    for version in range(1, MOVES + 1):
        assert await database_sync_to_async(play_a_move)(game.pk) == version
        for socket in sockets:
            assert (await next_frame(socket, "state"))["version"] == version
    for socket in sockets:  # nothing twice, nothing more
        assert await socket.receive_nothing(timeout=0.2)
        await socket.disconnect()


async def test_a_notice_is_received_once_per_process_not_once_per_socket(
    layer_kind, game, monkeypatch
):
    layer = get_channel_layer()
    received = count_game_notices_received(layer, monkeypatch)
    sockets = await spectators(game, 20)
    members = await group_members(game.group_name())
    assert len(members) == 1, "one channel of the process in the game's group, not one a socket"
    for version in range(1, MOVES + 1):
        await database_sync_to_async(play_a_move)(game.pk)
        for socket in sockets:
            await state_at_least(socket, version)
    assert [(kind, version) for _, kind, version in received] == [
        ("game.version", version) for version in range(1, MOVES + 1)
    ]
    assert {channel for channel, _, _ in received} == members
    for socket in sockets:
        await socket.disconnect()


async def test_a_versions_frame_is_built_and_serialised_once_per_process(
    layer_kind, game, monkeypatch
):
    """50 spectators share one view: each later version's frame is built once (the table is
    advanced from the move's change, its text kept per seat and language)."""
    sockets = await spectators(game, 50)
    built = []
    frame_for = Table.frame_for

    def counted(table, seat):
        built.append((table.version, seat))
        return frame_for(table, seat)

    monkeypatch.setattr(Table, "frame_for", counted)
    for version in range(1, MOVES + 1):
        await database_sync_to_async(play_a_move)(game.pk)
        for socket in sockets:
            assert (await next_frame(socket, "state"))["version"] == version
    assert built == [(version, None) for version in range(1, MOVES + 1)]
    for socket in sockets:
        await socket.disconnect()


async def test_the_last_socket_to_leave_takes_the_process_channel_out_of_the_group(
    layer_kind, game
):
    group = game.group_name()
    sockets = await spectators(game, 3)
    members = await group_members(group)
    assert len(members) == 1
    watches = game_fanout(get_channel_layer()).watches
    watch = watches[game.pk]
    receiver = watch.receiver
    for socket in sockets[:-1]:
        await socket.disconnect()
    assert await group_members(group) == members and not receiver.done()
    await sockets[-1].disconnect()
    assert await group_members(group) == set()
    await asyncio.wait([receiver], timeout=WS_TIMEOUT)
    assert receiver.done() and game.pk not in watches

    # A socket that comes back later joins again, with a channel of its own, and hears moves.
    again = (await spectators(game, 1))[0]
    assert len(await group_members(group)) == 1
    assert await group_members(group) != members
    await database_sync_to_async(play_a_move)(game.pk)
    assert (await next_frame(again, "state"))["version"] == 1
    await again.disconnect()
    assert await group_members(group) == set()


async def test_a_socket_whose_application_is_cancelled_stops_hearing_the_game(layer_kind, game):
    """A server that gives up on an application (no disconnect is dispatched) still takes its
    socket out of the game's watch: the last one stops the receiver."""
    socket = (await spectators(game, 1))[0]
    watches = game_fanout(get_channel_layer()).watches
    receiver = watches[game.pk].receiver
    socket.future.cancel()
    await asyncio.wait([socket.future], timeout=WS_TIMEOUT)
    await asyncio.wait([receiver], timeout=WS_TIMEOUT)
    assert receiver.done() and game.pk not in watches


async def test_the_channel_is_added_to_the_group_again_before_the_group_forgets_it(
    layer_kind, game, monkeypatch
):
    """A member is forgotten a day after it was added (channels-redis's group_expiry), or when
    Redis restarts empty: the watch adds its channel again every KEEP_SECONDS."""
    monkeypatch.setattr(fanout, "KEEP_SECONDS", 0.2)
    socket = (await spectators(game, 1))[0]
    layer = get_channel_layer()
    (channel,) = await group_members(game.group_name())
    await layer.group_discard(game.group_name(), channel)  # as the expiry would
    deadline = time.monotonic() + WS_TIMEOUT
    while await group_members(game.group_name()) != {channel}:
        assert time.monotonic() < deadline, "the channel was not added again"
        await asyncio.sleep(0.05)
    await database_sync_to_async(play_a_move)(game.pk)
    assert (await next_frame(socket, "state"))["version"] == 1
    await socket.disconnect()


async def test_a_socket_closes_when_its_game_notices_are_lost(layer_kind, game, monkeypatch):
    """The watch's receiver failed (Redis gone): the sockets close with 1011, and their clients
    reconnect, as they do when a socket's own channel fails."""
    sockets = await spectators(game, 2)
    layer = get_channel_layer()

    async def gone(channel):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    # The receiver hands out the next notice, then fails on its next receive.
    monkeypatch.setattr(layer, "receive", gone)
    await database_sync_to_async(play_a_move)(game.pk)
    for socket in sockets:
        while (output := await socket.receive_output(timeout=WS_TIMEOUT))["type"] != (
            "websocket.close"
        ):
            assert output["type"] == "websocket.send"
        assert output["code"] == CLOSE_INTERNAL_ERROR
        await socket.disconnect()


class Listener:
    """A socket's side of the watch, recorded."""

    def __init__(self):
        self.versions, self.rematches, self.lost = [], 0, asyncio.Event()

    def hear_version(self, wanted):
        self.versions.append(wanted.at_least)

    def hear_rematch(self):
        self.rematches += 1

    def notices_lost(self):
        self.lost.set()


async def test_a_redis_that_goes_away_tells_every_listener_of_the_game(tmp_path):
    """A redis-server of the test's own, stopped under a watch's receiver: each listener of the
    game is told (a socket then closes, above) instead of waiting for notices that never come."""
    from channels_redis.core import RedisChannelLayer

    require_redis()
    with redis_servers(1, 16440, tmp_path) as [port]:
        layer = RedisChannelLayer(hosts=[channel_layer_host(f"redis://127.0.0.1:{port}/0")])
        watches = GameFanOut(layer)
        listeners = [Listener(), Listener()]
        for listener in listeners:
            await watches.watch(4242, listener)
        group = Game(pk=4242).group_name()
        await layer.group_send(group, version_message(3))
        await layer.group_send(group, {"type": "game.rematch"})
        deadline = time.monotonic() + WS_TIMEOUT
        while any(not listener.rematches for listener in listeners):
            assert time.monotonic() < deadline, "the notices did not arrive"
            await asyncio.sleep(0.05)
        assert all(listener.versions == [3] for listener in listeners)
    # The server is gone (killed when the block ended).
    for listener in listeners:
        await asyncio.wait_for(listener.lost.wait(), WS_TIMEOUT)


async def test_a_notice_is_answered_in_each_sockets_own_language(layer_kind, make_user, make_table):
    """The watch's receiver is no socket's: each socket still answers a notice in its page's
    language (a bot seat's name is translated), as it answered its first state."""
    from channels.testing import WebsocketCommunicator

    from condottiere_site.asgi import application

    def started():
        table = make_table(3, people={0: make_user(), 1: make_user()}, bots={2: "heuristic"})
        start_game(table.pk)
        return Game.objects.get(pk=table.pk)

    game = await database_sync_to_async(started)()
    names = {}
    sockets = {}
    for language in ("it", "fr", "en"):
        headers = [(b"origin", b"http://testserver"), (b"accept-language", language.encode())]
        socket = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        assert (await socket.connect(timeout=WS_TIMEOUT))[0]
        names[language] = (await next_frame(socket, "state"))["game"]["seats"][2]["name"]
        sockets[language] = socket
    assert len(set(names.values())) == 3, names
    version = await database_sync_to_async(play_a_move)(game.pk)
    for language, socket in sockets.items():
        frame = await state_at_least(socket, version)
        assert frame["game"]["seats"][2]["name"] == names[language]
        await socket.disconnect()


async def test_a_notice_of_several_moves_builds_each_version_without_reading(
    layer_kind, game, monkeypatch
):
    """A bot chain tells its moves in one notice, each move with its change (bot_chain.py): the
    process builds every version from the one before, reads nothing, and its sockets are sent
    the newest once."""
    sockets = await spectators(game, 10)
    held = []
    monkeypatch.setattr(
        "games.services.followups.notify_game",
        lambda group, version, change=None, earlier=(): held.append((version, change)),
    )
    for _ in range(3):
        await database_sync_to_async(play_a_move)(game.pk)
    reads, built = [], []
    tables = latest_tables()
    read = tables._read

    async def counted_read(game_id, *args):
        reads.append(game_id)
        return await read(game_id, *args)

    monkeypatch.setattr(tables, "_read", counted_read)
    frame_for = Table.frame_for

    def counted(table, seat):
        built.append((table.version, seat))
        return frame_for(table, seat)

    monkeypatch.setattr(Table, "frame_for", counted)
    (last, change), earlier = held[-1], held[:-1]
    notice = version_message(last, change=change, earlier=earlier)
    await get_channel_layer().group_send(game.group_name(), notice)
    for socket in sockets:
        assert (await next_frame(socket, "state"))["version"] == game.version + 3
        assert await socket.receive_nothing(timeout=0.1)
        await socket.disconnect()
    assert reads == [] and built == [(game.version + 3, None)]
