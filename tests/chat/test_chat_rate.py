"""The chat's per-person limit is a sliding window: CHAT_BURST messages in any CHAT_WINDOW
seconds, even across the boundary a fixed window would reset at, and across every socket of the
person even when their messages arrive at the same instant."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from games.chat.models import ChatMessage
from games.limits import throttles
from games.services.table_talk import CHAT_BURST, CHAT_WINDOW, allow_rate
from tests.services import require_redis
from tests.web.conftest import next_frame, ws_connect


def test_a_burst_across_a_window_boundary_is_still_cut(monkeypatch):
    clock = [CHAT_WINDOW * 100 - 0.5]  # just before a multiple of the window
    monkeypatch.setattr(throttles.time, "time", lambda: clock[0])
    for _ in range(CHAT_BURST):
        assert allow_rate(7)
        clock[0] += 0.2  # the burst straddles the boundary
    assert not allow_rate(7)
    clock[0] += CHAT_WINDOW  # a window after the first message, they may talk again
    assert allow_rate(7)
    assert allow_rate(8)  # another person is counted apart


# --- Many sockets of one person at the same instant, on the real channel layer ------------------

SOCKETS = 18


@pytest.fixture
def alice_at_a_table(make_user, make_table, start_stacked):
    def build():
        alice, bob = make_user("alice"), make_user("bob")
        return alice, start_stacked(make_table(2, people={0: alice, 1: bob}))

    return build


async def socket_in_chat(game_id, user):
    socket = await ws_connect(f"/ws/games/{game_id}/", user)
    await next_frame(socket, "state")
    await socket.send_json_to({"type": "chat_join"})
    await next_frame(socket, "chat_history")
    return socket


async def refused_for_rate(socket) -> bool:
    """Whether this socket's message was refused for the rate. A socket answers its frames in
    order, so a refusal comes before the pong of the ping sent after the message; the room's
    messages in between are skipped."""
    await socket.send_json_to({"type": "ping", "id": 1})
    refused = False
    while (frame := await next_frame(socket))["type"] != "pong":
        refused = refused or frame.get("code") == "chat_rate_limited"
    return refused


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_messages_from_many_sockets_at_one_instant_pass_only_the_burst(alice_at_a_table):
    if settings.REDIS_URL:
        require_redis()  # the production profile: Redis's channel layer and counters
    alice, game = await database_sync_to_async(alice_at_a_table)()
    sockets = [await socket_in_chat(game.pk, alice) for _ in range(SOCKETS)]

    await asyncio.gather(
        *(
            socket.send_json_to({"type": "chat", "text": f"all at once {i}"})
            for i, socket in enumerate(sockets)
        )
    )
    refused = await asyncio.gather(*(refused_for_rate(socket) for socket in sockets))

    stored = await database_sync_to_async(ChatMessage.objects.filter(user=alice).count)()
    assert (stored, refused.count(True)) == (CHAT_BURST, SOCKETS - CHAT_BURST)
    for socket in sockets:
        await socket.disconnect()
