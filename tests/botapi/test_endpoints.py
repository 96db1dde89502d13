"""The Bot API's endpoints: moves (stale, illegal, not your seat, not your turn: a clear error,
nothing changed), the seat's state only, tables and challenges, websockets by bearer token."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from condottiere_site.asgi import application
from games.botapi import challenges
from games.botapi.models import Challenge
from games.engine import current_player, view_for
from games.models import Action, Game
from games.services import load_state, start_game
from games.sockets.lobby import RELATED, table_entry


@pytest.fixture
def duel(make_bot, make_token, make_user, make_table):
    """A started game: the bot account at seat 0, a person at seat 1."""
    bot = make_bot("robot")
    person = make_user("person")
    game = make_table(2, people={0: bot, 1: person})
    start_game(game.pk)
    game.refresh_from_db()
    return game, bot, person, make_token(bot)


def turn_of(game):
    state = load_state(game)
    return state, current_player(state)


def unchanged(game, version: int) -> bool:
    game.refresh_from_db()
    return game.version == version and not Action.objects.filter(game=game).exists()


def test_the_bot_moves_over_http_with_a_token_and_no_csrf(duel, api, make_table):
    game, bot, person, secret = duel
    state, seat = turn_of(game)
    assert seat == 0, "make_table's fixed seed gives seat 0 the first move"
    move = view_for(state, 0)["legal_actions"][0]
    status, body = api.call(
        "POST", f"/api/bot/game/{game.pk}/move", secret, {"action": move, "expected_version": 0}
    )
    assert (status, body) == (200, {"version": 1})
    logged = Action.objects.get(game=game)
    assert (logged.seat, logged.action, logged.actor) == (0, move, "human")


@pytest.mark.parametrize(
    ("case", "status", "code"),
    [("stale", 409, "stale"), ("illegal", 422, "illegal"), ("malformed", 400, "malformed")],
)
def test_a_refused_move_says_why_and_changes_nothing(duel, api, case, status, code):
    game, bot, person, secret = duel
    state, seat = turn_of(game)
    # Make the bot's seat the one to act, or check not_your_turn instead.
    move = view_for(state, seat)["legal_actions"][0]
    body = {
        "stale": {"action": move, "expected_version": 7},
        "illegal": {"action": {"type": "play_card", "card": "nonsense"}, "expected_version": 0},
        "malformed": {"action": "pass", "expected_version": 0},
    }[case]
    got_status, got = api.call("POST", f"/api/bot/game/{game.pk}/move", secret, body)
    if seat != 0 and case == "illegal":
        assert (got_status, got["error"]) == (409, "not_your_turn")
    else:
        assert (got_status, got["error"]) == (status, code)
    assert got["message"]
    assert unchanged(game, 0)


# The state view is async: its database work runs on a thread that closes connections.
@pytest.mark.django_db(transaction=True)
def test_not_your_seat_is_refused_and_nothing_changes(duel, api, make_bot, make_token):
    game, bot, person, secret = duel
    other = make_token(make_bot("stranger"))
    state, seat = turn_of(game)
    move = view_for(state, seat)["legal_actions"][0]
    status, body = api.call(
        "POST", f"/api/bot/game/{game.pk}/move", other, {"action": move, "expected_version": 0}
    )
    assert (status, body["error"]) == (403, "not_seated")
    assert api.call("GET", f"/api/bot/game/{game.pk}/state", other)[1]["error"] == "not_seated"
    assert unchanged(game, 0)


# The state view is async: its database work runs on a thread that closes connections.
@pytest.mark.django_db(transaction=True)
def test_the_state_is_the_seats_view_only(duel, api):
    game, bot, person, secret = duel
    status, frame = api.call("GET", f"/api/bot/game/{game.pk}/state", secret)
    assert status == 200
    state = load_state(game)
    assert frame["view"] == view_for(state, 0)
    assert frame["view"]["hand"] != view_for(state, 1)["hand"]
    assert [seat["you"] for seat in frame["game"]["seats"]] == [True, False]


@pytest.mark.django_db(transaction=True)
def test_a_bot_accounts_seat_is_marked_in_the_frame_and_the_lobby(duel, api, make_table):
    """A bot account is marked as a bot everywhere (#15): the game frame and the lobby."""
    game, bot, person, secret = duel
    status, frame = api.call("GET", f"/api/bot/game/{game.pk}/state", secret)
    assert [seat["bot_account"] for seat in frame["game"]["seats"]] == [True, False]
    table = make_table(3, people={0: person, 1: bot})
    entry = table_entry(Game.objects.prefetch_related(*RELATED).get(pk=table.pk), person.pk)
    assert [seat["bot_account"] for seat in entry["seats"]] == [False, True, False]
    client = Client()
    client.force_login(person)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f"{bot.public_name} (bot account)" in page


def test_the_bot_opens_a_table_against_a_site_bot_and_it_starts(make_bot, make_token, api):
    bot = make_bot()
    secret = make_token(bot)
    status, body = api.call("POST", "/api/bot/table", secret, {"seats": ["me", "random"]})
    assert status == 201 and body["status"] == "playing" and body["seat"] == 0
    status, body = api.call("POST", "/api/bot/table", secret, {"seats": ["me", "me"]})
    assert (status, body["error"]) == (400, "malformed")


def test_the_bot_joins_an_open_table(make_bot, make_token, make_user, make_table, api):
    game = make_table(2, people={0: make_user()})
    secret = make_token(make_bot())
    status, body = api.call("POST", f"/api/bot/table/{game.pk}/join", secret)
    assert (status, body["seat"], body["status"]) == (200, 1, "playing")
    status, body = api.call("POST", f"/api/bot/table/{game.pk}/join", secret)
    assert (status, body["error"]) == (409, "started")


def test_a_challenge_is_accepted_or_declined(make_bot, make_token, make_user, api):
    bot = make_bot()
    secret = make_token(bot)
    person = make_user("person")
    game = challenges.challenge_bot(person, bot, players=3, level="random")
    assert game.status == Game.Status.OPEN
    status, body = api.call("POST", f"/api/bot/challenge/{game.pk}/accept", secret)
    assert (status, body["status"], body["seat"]) == (200, "playing", 1)
    assert Challenge.objects.get(game=game).status == "accepted"
    declined = challenges.challenge_bot(make_user("other"), bot)
    status, body = api.call("POST", f"/api/bot/challenge/{declined.pk}/decline", secret)
    assert status == 200
    declined.refresh_from_db()
    assert declined.status == Game.Status.ABORTED
    status, body = api.call("POST", f"/api/bot/challenge/{declined.pk}/accept", secret)
    assert (status, body["error"]) == (404, "no_challenge")


def test_the_api_is_rate_limited_per_token(make_bot, make_token, api, settings):
    settings.BOT_API_REQUESTS_PER_MINUTE = 3
    secret = make_token(make_bot())
    statuses = [api.call("GET", "/api/bot/account", secret)[0] for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


# --- The game websocket with a bearer token ---------------------------------------------------


async def token_socket(path: str, secret: str):
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"authorization", f"Bearer {secret}".encode())]
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_a_bearer_token_opens_the_game_socket_as_the_bots_seat(make_bot, make_token):
    def set_up():
        bot = make_bot()
        from games.lobby.tables import play_against_bots  # noqa: PLC0415 - test set-up only

        return play_against_bots(bot, 1, "random"), make_token(bot)

    game, secret = await database_sync_to_async(set_up)()
    socket = await token_socket(f"/ws/games/{game.pk}/", secret)
    frame = await socket.receive_json_from(timeout=10)
    assert frame["type"] == "state"
    assert frame["game"]["seats"][0]["you"] is True
    assert frame["view"]["seat"] == 0
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_a_bad_or_revoked_token_closes_the_socket_with_a_code(make_bot, make_token):
    def set_up():
        from games.botapi.models import AccessToken  # noqa: PLC0415 - test set-up only

        secret = make_token(make_bot())
        AccessToken.objects.update(revoked_at="2024-01-01T00:00:00Z")
        return secret

    revoked = await database_sync_to_async(set_up)()
    for secret, code in (("cdt_nonsense", "bad_token"), (revoked, "revoked_token")):
        socket = await token_socket("/ws/games/1/", secret)
        frame = await socket.receive_json_from(timeout=10)
        assert (frame["type"], frame["code"]) == ("error", code)
        closed = await socket.receive_output(timeout=10)
        assert closed == {"type": "websocket.close", "code": 4401}
        await asyncio.sleep(0)
