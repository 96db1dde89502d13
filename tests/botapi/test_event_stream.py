"""The event stream: a challenge, then the game's start, then its end, as NDJSON lines.

It runs on whichever channel layer the profile has: in-memory in the embedded profile, Redis in
the production one (CI), where the hints cross from the request's thread through Redis."""

import json

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient

from games.botapi import challenges
from games.services.lifecycle import abort_game

TIMEOUT = 10


async def next_event(lines) -> dict:
    """The next event of the stream, skipping keepalive newlines."""
    while True:
        chunk = await lines.__anext__()
        for text in chunk.decode().splitlines():
            if text.strip():
                return json.loads(text)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_the_stream_tells_of_a_challenge_its_game_and_its_end(
    make_bot, make_token, make_user
):
    bot, secret, person = await database_sync_to_async(
        lambda: (lambda bot: (bot, make_token(bot), make_user("person")))(make_bot())
    )()
    response = await AsyncClient().get(
        "/api/bot/stream/event", headers={"Authorization": f"Bearer {secret}"}
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    lines = aiter(response.streaming_content)
    assert await lines.__anext__() == b"\n"  # nothing pending: the first keepalive at once

    game = await database_sync_to_async(challenges.challenge_bot)(person, bot, 2)
    event = await next_event(lines)
    assert event["type"] == "challenge"
    assert event["challenge"]["id"] == game.pk
    assert event["challenge"]["challenger"] == {"username": "person", "name": "person"}

    await database_sync_to_async(challenges.accept)(bot, game.pk)
    event = await next_event(lines)
    assert event["type"] == "challengeGone"  # the kept seat is taken: no longer an invitation
    event = await next_event(lines)
    assert event["type"] == "gameStart"
    assert (event["game"]["id"], event["game"]["seat"]) == (game.pk, 1)

    await database_sync_to_async(abort_game)(game.pk)
    event = await next_event(lines)
    assert event["type"] == "gameFinish"
    assert (event["game"]["id"], event["game"]["status"]) == (game.pk, "aborted")
    await lines.aclose()
