"""A revoked token ends at once: its game and lobby sockets close (error `revoked_token`, close
4401) and read nothing more, and its event stream sends a last `streamEnd` line and ends. On
the configured channel layer: Redis under the production profile (CI), where the notice crosses
from the revoking request's thread through Redis."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import AsyncClient, Client

from condottiere_site.asgi import application
from games.accounts.deletion import delete_account
from games.botapi import tokens
from games.botapi.models import AccessToken
from games.engine import current_player
from games.models import Action
from games.services import load_state
from tests.services import require_redis
from tests.web.conftest import ended_by, start_stacked  # noqa: F401 - start_stacked: a fixture

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]
TIMEOUT = 10


@pytest.fixture(autouse=True)
def configured_layer():
    if settings.REDIS_URL:
        require_redis()


async def token_socket(path: str, secret: str, first: str):
    """A socket opened with the token, its first frame of type `first` read."""
    socket = WebsocketCommunicator(
        application, path, headers=[(b"authorization", f"Bearer {secret}".encode())]
    )
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    while (frame := await socket.receive_json_from(timeout=TIMEOUT))["type"] != first:
        pass
    return socket, frame


async def stream_ends(lines, reason: str) -> None:
    """The stream's next event is `streamEnd` with `reason`, and nothing follows it."""
    while not (chunk := await lines.__anext__()).strip():
        pass
    assert json.loads(chunk) == {**json.loads(chunk), "type": "streamEnd", "reason": reason}
    with pytest.raises(StopAsyncIteration):
        await lines.__anext__()


@pytest.fixture
def bot_to_act(make_user, make_bot, make_token, make_table, start_stacked):  # noqa: F811
    """A bot (owned by a person) to act at seat 0 of a game, and one token of it."""

    def build():
        owner = make_user("owner")
        bot = make_bot("robot", owner=owner)
        game = start_stacked(make_table(2, people={0: bot, 1: make_user()}), first=0)
        assert current_player(load_state(game)) == 0
        return game, owner, make_token(bot)

    return build


async def open_everything(game, secret):
    """The token's game socket (and the action it could send), lobby socket and event stream."""
    playing, state = await token_socket(f"/ws/games/{game.pk}/", secret, "state")
    action = {
        "type": "action",
        "action": state["view"]["legal_actions"][0],
        "expected_version": state["version"],
    }
    lobby, _ = await token_socket("/ws/lobby/", secret, "tables")
    response = await AsyncClient().get(
        "/api/bot/stream/event", headers={"Authorization": f"Bearer {secret}"}
    )
    assert response.status_code == 200
    lines = aiter(response.streaming_content)
    while (await lines.__anext__()).strip():  # up to the first keepalive: all was told
        pass
    return playing, action, lobby, lines


async def test_revoking_a_token_ends_its_sockets_and_stream_at_once(bot_to_act):
    game, owner, secret = await database_sync_to_async(bot_to_act)()
    playing, action, lobby, lines = await open_everything(game, secret)

    def revoke_from_the_profile():
        client = Client()
        client.force_login(owner)
        token = AccessToken.objects.get()
        assert client.post(f"/bots/tokens/{token.pk}/revoke/").status_code == 302

    await database_sync_to_async(revoke_from_the_profile)()
    await ended_by(playing, "revoked_token")
    await ended_by(lobby, "revoked_token")
    await stream_ends(lines, "revoked_token")
    await playing.send_json_to(action)  # read by nobody
    assert await playing.receive_nothing(timeout=1)
    assert await database_sync_to_async(Action.objects.filter(game=game).count)() == 0


async def test_deleting_the_owner_ends_the_sockets_of_their_bots(bot_to_act):
    game, owner, secret = await database_sync_to_async(bot_to_act)()
    playing, action, lobby, lines = await open_everything(game, secret)
    await database_sync_to_async(delete_account)(owner)
    await ended_by(playing, "revoked_token")
    await ended_by(lobby, "revoked_token")
    await stream_ends(lines, "revoked_token")


async def test_revoking_a_token_answers_its_waiting_long_poll_at_once(bot_to_act):
    game, owner, secret = await database_sync_to_async(bot_to_act)()
    headers = {"Authorization": f"Bearer {secret}"}
    waiting = asyncio.ensure_future(
        AsyncClient().get(f"/api/bot/game/{game.pk}/state?after=0", headers=headers)
    )
    await asyncio.sleep(1)  # the poll waits: nobody moves
    assert not waiting.done()

    def revoke():
        try:
            tokens.revoke(AccessToken.objects.get(), owner)
        finally:
            connections.close_all()

    # Not on the one thread database_sync_to_async uses: the waiting view holds it (a sync
    # middleware runs the async view from it).
    await sync_to_async(revoke, thread_sensitive=False)()
    answer = await asyncio.wait_for(waiting, TIMEOUT)  # long before the poll's 25 s
    assert (answer.status_code, answer.json()["error"]) == (401, "revoked_token")
