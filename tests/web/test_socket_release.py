"""A socket gives back its Presence row and its places under the socket caps however it ends,
and a failure while handling a frame is answered with an error frame, never a close.

Once, four chat frames closed a signed-in socket with 1011; after 20 such crashes the account
could open no socket (`too_many_sockets`: the crashed sockets' slots were still renewed by their
orphaned tasks), and the dashboard still counted the crashed sockets minutes later (their
heartbeats kept their rows fresh). Production profile: the real Redis channel layer and slot
counters, PostgreSQL.
"""

import asyncio
import base64
import json
import os
import socket
import struct
import time
from urllib.parse import urlsplit

import aiohttp
import pytest
import redis
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from games.models import Presence
from games.services import start_game
from games.sockets.slots import ACCOUNT
from games.staff import dashboard
from tests.botapi.daphne_site import start_daphne  # noqa: F401 - the fixture
from tests.services import require_postgresql, require_redis
from tests.web.conftest import WS_TIMEOUT, next_frame, ws_connect, ws_headers
from tests.web.test_faults import session_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]

CRASHES = 20
# Each frame here closed the socket with 1011 before it was answered with an error.
ONCE_CRASHING = [
    {"type": "chat_mute", "user": 2**63, "on": True},
    {"type": "chat_mute", "user": 987_654_321, "on": True},
    {"type": "chat", "text": "nul \u0000 here"},
    {"type": "chat", "text": "lone \ud800 surrogate"},
]


@pytest.fixture(autouse=True)
def production_profile():
    require_redis()
    require_postgresql()


def a_game(make_user, make_table):
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob})
    start_game(game.pk)
    return game, alice


def slot_count(user_id: int) -> int:
    """How many socket slots the account holds in Redis (games/sockets/slots.py's key)."""
    key = f"condottiere:{connection.settings_dict['NAME']}:sockets:{ACCOUNT}:{user_id}"
    return redis.Redis.from_url(settings.REDIS_URL).zcard(key)


def rows_and_slots(user_id: int) -> tuple[int, int]:
    return Presence.objects.filter(user_id=user_id).count(), slot_count(user_id)


async def crash_by_a_broken_notice(socket, user_id: int):
    """Make the socket's consumer fail outside any frame: a group notice it cannot read (a
    `chat.deleted` without its id), sent on the real channel layer to the socket's channel."""
    channel = await database_sync_to_async(
        lambda: Presence.objects.filter(user_id=user_id).values_list("channel_name", flat=True)[0]
    )()
    await get_channel_layer().send(channel, {"type": "chat.deleted"})
    with pytest.raises(KeyError):  # the consumer's own task ends with the error
        await asyncio.wait_for(socket.future, WS_TIMEOUT)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["game", "lobby"])
async def test_twenty_crash_attempts_leave_no_presence_and_no_slot(kind, make_user, make_table):
    """Twenty sockets of one account, each sent the frames that once crashed it (each answered,
    the socket still open), then failing on a notice it cannot read: afterwards the account
    holds no row and no slot, opens sockets as before, and the dashboard counts only those."""
    assert settings.SOCKETS_PER_ACCOUNT <= CRASHES
    game, alice = await database_sync_to_async(a_game)(make_user, make_table)
    path = f"/ws/games/{game.pk}/" if kind == "game" else "/ws/lobby/"
    for _ in range(CRASHES):
        socket = await ws_connect(path, alice)
        await next_frame(socket)
        for frame in ONCE_CRASHING:
            await socket.send_to(text_data=json.dumps(frame))
            answer = await next_frame(socket, "error")
            assert answer["code"].startswith("chat_"), (frame, answer)
        await crash_by_a_broken_notice(socket, alice.pk)
        assert await database_sync_to_async(rows_and_slots)(alice.pk) == (0, 0)

    sockets = [await ws_connect(path, alice) for _ in range(2)]
    for socket in sockets:
        assert (await next_frame(socket))["type"] in {"state", "tables"}
    assert await database_sync_to_async(rows_and_slots)(alice.pk) == (2, 2)
    counted = await database_sync_to_async(dashboard.people_connected)()
    assert (counted["people"], counted["sockets"]) == (1, 2)
    for socket in sockets:
        await socket.disconnect()
    assert await database_sync_to_async(rows_and_slots)(alice.pk) == (0, 0)
    assert (await database_sync_to_async(dashboard.people_connected)())["sockets"] == 0


@pytest.mark.parametrize("kind", ["game", "lobby"])
async def test_a_failing_frame_is_answered_and_the_socket_stays_open(
    kind, make_user, make_table, monkeypatch
):
    """A bug while handling a frame (injected here: no frame is known to fail any more) gets a
    `server_error` frame; the socket goes on answering and keeps its row and its slot."""
    from games.services import table_talk

    def broken(*args):
        raise RuntimeError("a bug in the chat")

    game, alice = await database_sync_to_async(a_game)(make_user, make_table)
    path = f"/ws/games/{game.pk}/" if kind == "game" else "/ws/lobby/"
    socket = await ws_connect(path, alice)
    await next_frame(socket)
    monkeypatch.setattr(table_talk, "muted_ids", broken)
    monkeypatch.setattr("games.chat.sockets.muted_ids", broken)
    table = {"table": game.pk} if kind == "lobby" else {}
    await socket.send_json_to({"type": "chat_join", **table})
    error = await next_frame(socket, "error")
    assert error["code"] == "server_error" and "Traceback" not in error["message"]
    await socket.send_json_to({"type": "sync"})
    assert (await next_frame(socket))["type"] in {"state", "tables"}
    assert await database_sync_to_async(rows_and_slots)(alice.pk) == (1, 1)
    await socket.disconnect()
    assert await database_sync_to_async(rows_and_slots)(alice.pk) == (0, 0)


# --- On a real Daphne ---------------------------------------------------------------------------


def vanishing_socket(url: str, session: str) -> socket.socket:
    """A lobby socket opened by hand (the handshake only), to be dropped without a close frame."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    raw = socket.create_connection((host, port), timeout=WS_TIMEOUT)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws/lobby/ HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {url}\r\nCookie: sessionid={session}\r\n\r\n"
        ).encode()
    )
    assert raw.recv(4096).startswith(b"HTTP/1.1 101")
    return raw


async def wait_for_nothing_held(user_id: int) -> tuple[int, int]:
    """Rows and slots of the account once both are 0, or as they stand after WS_TIMEOUT."""
    held = await database_sync_to_async(rows_and_slots)(user_id)
    deadline = time.monotonic() + WS_TIMEOUT
    while held != (0, 0) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        held = await database_sync_to_async(rows_and_slots)(user_id)
    return held


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
async def test_every_way_a_socket_ends_on_daphne_gives_back_its_row_and_slot(
    start_daphne,  # noqa: F811
    make_user,
):
    """A client that closes, one that vanishes (no close frame, the connection dropped), one the
    server closes (a flood), one refused at the handshake (over the account's cap), one whose
    consumer fails: once they are gone, the account holds no Presence row and no slot in
    Redis (the failing one's row and slot stayed, renewed for as long as Daphne ran)."""
    url = await asyncio.to_thread(start_daphne, env={"SOCKETS_PER_ACCOUNT": "2"})
    alice = await database_sync_to_async(make_user)("alice")
    session = await database_sync_to_async(session_of)(alice)
    headers = {"Origin": url, "Cookie": f"sessionid={session}"}
    lobby = url.replace("http://", "ws://") + "/ws/lobby/"
    async with aiohttp.ClientSession() as http:
        closing = await http.ws_connect(lobby, headers=headers)
        assert json.loads((await closing.receive()).data)["type"] == "tables"
        vanishing = await asyncio.to_thread(vanishing_socket, url, session)
        refused = await http.ws_connect(lobby, headers=headers)  # the third: over the cap of 2
        assert json.loads((await refused.receive()).data)["code"] == "too_many_sockets"
        assert (await refused.receive()).type == aiohttp.WSMsgType.CLOSE
        assert refused.close_code == 4029

        await closing.close()
        vanishing.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        vanishing.close()  # a reset: no close frame, the client is simply gone
        assert await wait_for_nothing_held(alice.pk) == (0, 0)

        flooding = await http.ws_connect(lobby, headers=headers)
        for _ in range(settings.LOBBY_FLOOD_FRAMES + 1):
            await flooding.send_json({"type": "sync"})
        while (await flooding.receive()).type == aiohttp.WSMsgType.TEXT:
            pass  # the tables, then the refusal
        assert flooding.close_code == 4008
        assert await wait_for_nothing_held(alice.pk) == (0, 0)

        # A consumer that fails outside any frame (a notice it cannot read, through Redis):
        # Daphne closes it with 1011, and what it held is given back all the same.
        failing = await http.ws_connect(lobby, headers=headers)
        await failing.receive()
        channel = await database_sync_to_async(
            lambda: Presence.objects.get(user_id=alice.pk).channel_name
        )()
        await get_channel_layer().send(channel, {"type": "chat.deleted"})
        while (await failing.receive()).type == aiohttp.WSMsgType.TEXT:
            pass
        assert failing.close_code == 1011
        assert await wait_for_nothing_held(alice.pk) == (0, 0)


def as_daphne_after_the_client_closed(application, client_gone):
    """`application` served as Daphne serves a socket whose client has just closed: once
    `client_gone` is set, every frame the application sends raises autobahn's `Disconnected`
    (Daphne's protocol, not yet told of the close, hands the frame to a closed connection)."""

    async def served(scope, receive, send):
        async def daphne_send(message):
            if client_gone.is_set() and message["type"] == "websocket.send":
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        return await application(scope, receive, daphne_send)

    return served


async def test_a_frame_for_a_client_that_just_closed_is_dropped_and_the_close_releases(
    make_user, make_table
):
    """A move broadcast while a player closes the tab: the consumer's state frame meets a closed
    connection. It is dropped without a traceback (the consumer died with one, and Daphne logged
    it, under the load test's closing clients), and the close that follows releases the row
    and the slot."""
    from channels.testing import WebsocketCommunicator

    from condottiere_site.asgi import application

    game, alice = await database_sync_to_async(a_game)(make_user, make_table)
    client_gone = asyncio.Event()
    headers = await database_sync_to_async(ws_headers)(alice)
    socket = WebsocketCommunicator(
        as_daphne_after_the_client_closed(application, client_gone),
        f"/ws/games/{game.pk}/",
        headers=headers,
    )
    connected, _ = await socket.connect(timeout=WS_TIMEOUT)
    assert connected
    await next_frame(socket, "state")
    client_gone.set()
    await socket.send_json_to({"type": "sync"})  # answered with a state frame, to nobody
    await socket.send_json_to({"type": "ping"})
    await asyncio.sleep(0.5)
    assert not socket.future.done(), socket.future.exception()
    assert await database_sync_to_async(rows_and_slots)(alice.pk) == (1, 1)
    await socket.disconnect()
    assert await database_sync_to_async(rows_and_slots)(alice.pk) == (0, 0)
