"""The game websocket (protocol 1) on the full ASGI stack and the configured channel layer: the
Redis layer under the production profile (what CI checks), the in-memory one by default."""

import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.engine import current_player, legal_actions, view_for
from games.models import Action, Game, Seat
from games.services import load_state, start_game
from tests.services import require_redis
from tests.web.conftest import next_frame, state_at_least, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections", "configured_layer"),
]


@pytest.fixture
def table(make_user, make_table):
    """A started two-player game between alice and bob; carol only watches."""

    def build():
        alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
        game = make_table(2, people={0: alice, 1: bob})
        start_game(game.pk)
        game.refresh_from_db()
        return game, {0: alice, 1: bob}, carol

    return build


def path_of(game) -> str:
    return f"/ws/games/{game.pk}/"


def db_state(game_id: int):
    game = Game.objects.get(pk=game_id)
    return game.version, load_state(game), Action.objects.filter(game_id=game_id).count()


async def connect_everyone(game, people, carol):
    sockets = {seat: await ws_connect(path_of(game), user) for seat, user in people.items()}
    sockets["carol"] = await ws_connect(path_of(game), carol)
    sockets["anonymous"] = await ws_connect(path_of(game))
    return sockets


async def close_all(sockets):
    for socket in sockets.values():
        await socket.disconnect()


def test_the_sockets_run_on_the_redis_layer_in_production():
    require_redis()
    assert type(get_channel_layer()).__name__ == "RedisPubSubChannelLayer"


async def test_two_players_and_spectators_each_get_their_own_view(table):
    game, people, carol = await database_sync_to_async(table)()
    sockets = await connect_everyone(game, people, carol)
    _, state, _ = await database_sync_to_async(db_state)(game.pk)
    seats = {0: 0, 1: 1, "carol": None, "anonymous": None}
    for name, socket in sockets.items():
        frame = await next_frame(socket, "state")
        assert frame["protocol"] == 1 and frame["version"] == 0
        assert frame["view"] == view_for(state, seats[name])
        assert [seat["you"] for seat in frame["game"]["seats"]] == [
            seats[name] == 0,
            seats[name] == 1,
        ]
        assert set(frame) == {"type", "protocol", "version", "game", "view", "log"}

    mover = current_player(state)
    action = legal_actions(state)[0]
    await sockets[mover].send_json_to({"type": "action", "action": action, "expected_version": 0})
    frames = {name: await state_at_least(socket, 1) for name, socket in sockets.items()}
    _, state, _ = await database_sync_to_async(db_state)(game.pk)
    for name, frame in frames.items():
        assert frame["version"] == 1
        assert frame["view"] == view_for(state, seats[name])
        assert frame["log"][-1] == {"seq": 1, "seat": mover, **action}
    await close_all(sockets)


async def test_a_reconnect_resyncs_to_the_current_state(table):
    game, people, carol = await database_sync_to_async(table)()
    _, state, _ = await database_sync_to_async(db_state)(game.pk)
    mover = current_player(state)
    watcher = await ws_connect(path_of(game), people[1 - mover])
    assert (await next_frame(watcher, "state"))["version"] == 0
    await watcher.disconnect()

    player = await ws_connect(path_of(game), people[mover])
    await next_frame(player, "state")
    action = legal_actions(state)[0]
    await player.send_json_to({"type": "action", "action": action, "expected_version": 0})
    await state_at_least(player, 1)

    watcher = await ws_connect(path_of(game), people[1 - mover])
    frame = await next_frame(watcher, "state")
    _, state, _ = await database_sync_to_async(db_state)(game.pk)
    assert frame["version"] == 1 and frame["view"] == view_for(state, 1 - mover)
    await watcher.send_json_to({"type": "sync"})
    assert (await next_frame(watcher, "state"))["version"] == 1
    await watcher.disconnect()
    await player.disconnect()


async def test_a_busy_database_when_waking_a_stalled_bot_costs_neither_socket_nor_sync(
    table, monkeypatch
):
    """After its state, a connect (and a sync) checks whether a bot turn stalled; the sweep
    checks the same within seconds. With no database connection to lend at that moment, the
    socket stays open and the sync gets its state, with no error frame."""
    from psycopg_pool import PoolTimeout

    from games.sockets import game as consumers

    def pool_empty(game_id):
        raise PoolTimeout("couldn't get a connection after 0.30 sec")

    monkeypatch.setattr(consumers, "resume_stalled_bot_turn", pool_empty)
    game, people, _carol = await database_sync_to_async(table)()
    socket = await ws_connect(path_of(game), people[0])
    assert (await next_frame(socket))["type"] == "state"
    await socket.send_json_to({"type": "sync"})
    assert (await next_frame(socket))["type"] == "state"
    await socket.send_json_to({"type": "ping", "id": 7})
    assert await next_frame(socket) == {"type": "pong", "id": 7}
    await socket.disconnect()


async def test_a_stale_action_gets_stale_and_the_current_view(table):
    game, people, carol = await database_sync_to_async(table)()
    _, state, _ = await database_sync_to_async(db_state)(game.pk)
    mover = current_player(state)
    socket = await ws_connect(path_of(game), people[mover])
    await next_frame(socket, "state")
    await socket.send_json_to(
        {"type": "action", "action": legal_actions(state)[0], "expected_version": 0}
    )
    await state_at_least(socket, 1)
    before = await database_sync_to_async(db_state)(game.pk)
    await socket.send_json_to(
        {"type": "action", "action": legal_actions(state)[1], "expected_version": 0}
    )
    error = await next_frame(socket, "error")
    assert error["code"] == "stale" and error["version"] == 1
    fresh = await next_frame(socket, "state")
    assert fresh["version"] == 1 and fresh["view"] == view_for(before[1], mover)
    assert await database_sync_to_async(db_state)(game.pk) == before
    await socket.disconnect()


async def test_a_malformed_frame_gets_an_error_and_the_socket_stays_usable(table):
    game, people, carol = await database_sync_to_async(table)()
    socket = await ws_connect(path_of(game), people[0])
    await next_frame(socket, "state")
    bad_frames = [
        "this is not json",
        "[1, 2, 3]",
        '{"no": "type"}',
        '{"type": "dance"}',
        '{"type": "action", "expected_version": 0}',
        '{"type": "action", "action": {"type": "pass"}, "expected_version": "zero"}',
        '{"type": "standin", "on": "yes"}',
    ]
    for text in bad_frames:
        await socket.send_to(text_data=text)
        error = await next_frame(socket)
        assert error["type"] == "error" and error["code"] == "malformed", text
    await socket.send_json_to({"type": "ping", "id": "still here?"})
    assert await next_frame(socket) == {"type": "pong", "id": "still here?"}
    assert (await database_sync_to_async(db_state)(game.pk))[0] == 0
    await socket.disconnect()


async def test_a_flood_is_cut_off(table):
    game, people, carol = await database_sync_to_async(table)()
    socket = await ws_connect(path_of(game), carol)
    await next_frame(socket, "state")
    for number in range(30):
        await socket.send_json_to({"type": "ping", "id": number})
    pongs = 0
    while True:
        message = await socket.receive_output(timeout=10)
        if message["type"] == "websocket.close":
            assert message["code"] == 4008
            break
        frame = json.loads(message["text"])
        if frame["type"] == "pong":
            pongs += 1
        else:
            assert frame["type"] == "error" and frame["code"] == "rate_limited"
    assert pongs == 20
    await socket.wait()


async def test_a_seat_that_is_not_yours_or_not_your_turn_is_refused(table):
    game, people, carol = await database_sync_to_async(table)()
    before = await database_sync_to_async(db_state)(game.pk)
    _, state, _ = before
    mover = current_player(state)
    action = legal_actions(state)[0]

    waiting = await ws_connect(path_of(game), people[1 - mover])
    await next_frame(waiting, "state")
    await waiting.send_json_to({"type": "action", "action": action, "expected_version": 0})
    error = await next_frame(waiting, "error")
    assert error["code"] == "not_your_turn"

    onlooker = await ws_connect(path_of(game), carol)
    await next_frame(onlooker, "state")
    # Naming someone else's seat in the frame changes nothing: the seat comes from the session.
    frame = {"type": "action", "action": action, "expected_version": 0, "seat": mover}
    await onlooker.send_json_to(frame)
    assert (await next_frame(onlooker, "error"))["code"] == "not_seated"
    await onlooker.send_json_to({"type": "standin", "on": True})
    assert (await next_frame(onlooker, "error"))["code"] == "not_seated"

    assert await database_sync_to_async(db_state)(game.pk) == before
    await waiting.disconnect()
    await onlooker.disconnect()


async def test_a_spectator_cannot_switch_a_bot_seats_standin(make_user, make_table, announced):
    """A bot seat has no user: a lookup by an anonymous visitor's missing id must not find it."""

    def set_up():
        game = make_table(2, people={0: make_user("alice")}, bots={1: "random"})
        start_game(game.pk)
        return game

    game = await database_sync_to_async(set_up)()
    stranger = await database_sync_to_async(make_user)("stranger")
    for user in (None, stranger):
        socket = await ws_connect(path_of(game), user)
        await next_frame(socket, "state")
        for on in (True, False):
            await socket.send_json_to({"type": "standin", "on": on})
            assert (await next_frame(socket, "error"))["code"] == "not_seated"
        await socket.disconnect()

    def standins():
        return list(
            Seat.objects.filter(game=game).order_by("index").values_list("standin", flat=True)
        )

    assert await database_sync_to_async(standins)() == [False, False]
    assert [name for name, _, _ in announced if name == "bot_turn"] == []


async def test_a_player_hands_the_seat_to_a_bot_and_takes_it_back(table):
    game, people, carol = await database_sync_to_async(table)()
    _, state, _ = await database_sync_to_async(db_state)(game.pk)
    waiting = 1 - current_player(state)  # not its turn: no bot is scheduled
    socket = await ws_connect(path_of(game), people[waiting])
    await next_frame(socket, "state")

    def standin():
        return Seat.objects.get(game_id=game.pk, index=waiting).standin

    await socket.send_json_to({"type": "standin", "on": True})
    frame = await next_frame(socket, "state")
    assert frame["game"]["seats"][waiting]["standin"] is True
    assert await database_sync_to_async(standin)() is True
    await socket.send_json_to({"type": "standin", "on": False})
    frame = await next_frame(socket, "state")
    assert frame["game"]["seats"][waiting]["standin"] is False
    assert await database_sync_to_async(standin)() is False
    await socket.disconnect()


async def test_an_unknown_or_unstarted_game_closes_the_socket(make_table):
    game = await database_sync_to_async(make_table)(2)
    for path, code in ((f"/ws/games/{game.pk + 1000}/", 4004), (path_of(game), 4009)):
        socket = await ws_connect(path)
        message = await socket.receive_output(timeout=WS_TIMEOUT_SHORT)
        assert message == {"type": "websocket.close", "code": code}
        await socket.wait()


WS_TIMEOUT_SHORT = 5


async def test_a_bots_move_reaches_the_sockets(make_user, make_table, settings):
    """The bot moves on another thread (or machine); its notice still reaches every socket."""
    settings.JOB_RUNNER = "in_process"  # no Celery worker runs during this test

    def set_up():
        alice = make_user("alice")
        seed = 4
        bot_seat = random.Random(seed).randrange(2)  # the first to act
        game = make_table(2, people={1 - bot_seat: alice}, bots={bot_seat: "random"}, seed=seed)
        return game, alice, bot_seat

    game, alice, bot_seat = await database_sync_to_async(set_up)()
    socket = await ws_connect(path_of(game), alice)  # open table: refused until it starts
    assert (await socket.receive_output(timeout=WS_TIMEOUT_SHORT))["code"] == 4009
    await database_sync_to_async(start_game)(game.pk)
    socket = await ws_connect(path_of(game), alice)
    frame = await state_at_least(socket, 1)
    assert frame["log"][0]["seat"] == bot_seat and frame["log"][0]["seq"] == 1
    await socket.disconnect()
