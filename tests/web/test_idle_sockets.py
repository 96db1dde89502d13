"""Sockets held idle stay up on the production profile's Redis channel layer.

A person thinks for half a minute; a spectator watches a game where nobody moves. redis-py 8
gives every connection a 5 s read timeout, shorter than the channel layer's blocking read, and a
socket that heard nothing for 5 s was closed with code 1011. The sockets here hear nothing for
longer than that, then must still be open and receive the next state.
"""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from games.engine import current_player, legal_actions
from games.services import load_state, start_game, submit_action
from tests.services import require_redis
from tests.web.conftest import next_frame, state_at_least, ws_connect

pytestmark = [
    pytest.mark.production,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]

IDLE_SECONDS = 31


async def test_a_seat_and_a_spectator_held_idle_stay_open_and_get_the_next_state(
    make_user, make_table
):
    require_redis()
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis")

    def set_up():
        alice, bob = make_user("alice"), make_user("bob")
        game = make_table(2, people={0: alice, 1: bob})
        start_game(game.pk)
        return game, alice

    game, alice = await database_sync_to_async(set_up)()
    path = f"/ws/games/{game.pk}/"
    seat = await ws_connect(path, alice)
    spectator = await ws_connect(path)
    for socket in (seat, spectator):
        assert (await next_frame(socket, "state"))["version"] == 0

    await asyncio.sleep(IDLE_SECONDS)  # nothing is sent either way meanwhile
    for socket in (seat, spectator):
        assert await socket.receive_nothing(timeout=0.1), "a frame arrived while idle"

    def someone_moves():
        state = load_state(type(game).objects.get(pk=game.pk))
        submit_action(game.pk, current_player(state), legal_actions(state)[0], 0)

    await database_sync_to_async(someone_moves)()
    for socket in (seat, spectator):
        frame = await state_at_least(socket, 1)
        assert frame["version"] == 1
    for socket in (seat, spectator):
        await socket.disconnect()
