"""A socket gives back its Presence row and its places under the socket caps however it ends,
and a failure while handling a frame is answered with an error frame, never a close.

Once, four chat frames closed a signed-in socket with 1011; after 20 such crashes the account
could open no socket (`too_many_sockets`: the crashed sockets' slots were still renewed by their
orphaned tasks), and the dashboard still counted the crashed sockets minutes later (their
heartbeats kept their rows fresh). Production profile: the real Redis channel layer and slot
counters, PostgreSQL.
"""

import asyncio
import json

import pytest
import redis
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from games import dashboard
from games.models import Presence
from games.services import start_game
from games.socket_slots import ACCOUNT
from tests.services import require_postgresql, require_redis
from tests.web.conftest import WS_TIMEOUT, next_frame, ws_connect

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
    """How many socket slots the account holds in Redis (games/socket_slots.py's key)."""
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
