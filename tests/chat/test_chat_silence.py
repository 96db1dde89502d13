"""Staff silence covers what a person owns: a silenced person cannot post through their bot
account's socket, and a silenced bot's owner cannot carry on through another of their bots; a
silenced bot leaves its owner's own voice alone (docs/protocol.md, "Chat"). Real sockets: the
bot's through its bearer token, the person's through their session."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from condottiere_site.asgi import application
from games.botapi import accounts, tokens
from games.botapi.models import SCOPE_PLAY
from games.chat.models import ChatMessage
from games.services.table_talk import silence
from tests.web.conftest import WS_TIMEOUT, next_frame, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections", "configured_layer"),
]


@pytest.fixture
def bot_table(make_user, make_table, start_stacked):
    """owner's bot `pet` plays owner at seat 0 and 1; the owner also has a second bot, `twin`;
    a stranger has a bot of their own, `other`."""

    def build():
        owner, stranger = make_user("owner"), make_user("stranger")
        pet = accounts.create_bot_account(owner, "pet")
        twin = accounts.create_bot_account(owner, "twin")
        other = accounts.create_bot_account(stranger, "other")
        game = start_stacked(make_table(2, people={0: pet, 1: owner}))
        secret = tokens.create_token(pet, "play", [SCOPE_PLAY]).secret
        people = {"owner": owner, "stranger": stranger, "pet": pet, "twin": twin, "other": other}
        return game, people, secret

    return build


async def bot_socket(path: str, secret: str):
    headers = [(b"authorization", f"Bearer {secret}".encode())]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=WS_TIMEOUT)
    assert connected
    return communicator


async def post(socket, text: str) -> dict:
    """Post and read what comes back to the author: its own message, or the refusal."""
    await socket.send_json_to({"type": "chat", "text": text})
    while True:
        frame = await next_frame(socket)
        if frame["type"] in {"chat", "error"}:
            return frame


async def can_post_and_posts(socket, text: str) -> tuple[bool, str]:
    await socket.send_json_to({"type": "chat_join"})
    history = await next_frame(socket, "chat_history")
    frame = await post(socket, text)
    return history["can_post"], frame.get("code") or frame["type"]


@pytest.mark.parametrize(
    "silenced, bot_may_post",
    [("owner", False), ("twin", False), ("pet", False), ("stranger", True), ("other", True)],
)
async def test_silence_covers_the_bots_a_person_owns(bot_table, silenced, bot_may_post):
    game, people, secret = await database_sync_to_async(bot_table)()
    await database_sync_to_async(silence)(people[silenced], reason="spam")
    socket = await bot_socket(f"/ws/games/{game.pk}/", secret)
    await next_frame(socket, "state")

    can_post, answer = await can_post_and_posts(socket, "hello from the bot")
    assert (can_post, answer) == ((True, "chat") if bot_may_post else (False, "chat_silenced"))
    stored = await database_sync_to_async(ChatMessage.objects.filter(user=people["pet"]).count)()
    assert stored == (1 if bot_may_post else 0)
    await socket.disconnect()


async def test_a_silenced_bot_leaves_its_owners_own_voice_alone(bot_table):
    game, people, _ = await database_sync_to_async(bot_table)()
    await database_sync_to_async(silence)(people["pet"], reason="its program spammed")
    socket = await ws_connect(f"/ws/games/{game.pk}/", people["owner"])
    await next_frame(socket, "state")

    assert await can_post_and_posts(socket, "sorry about my bot") == (True, "chat")
    await socket.disconnect()
