"""Each limit of the websockets and the lobby, tested at its edge: N allowed, N+1 refused with the
documented error frame and close code (docs/protocol.md, "Limits").

Sockets run on the full ASGI stack and the profile's channel layer and slot counters: Redis under
the production profile (CI), this process's memory in the embedded one.
"""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.urls import reverse

from condottiere_site.asgi import application
from games.lobby import tables as lobby
from games.lobby.tables import SeatPlan
from games.models import Game
from games.services import start_game
from games.sockets.lobby import tables_frame
from games.sockets.slots import SocketSlot
from tests.services import require_redis
from tests.web.conftest import WS_TIMEOUT, next_frame, ws_headers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]


@pytest.fixture(autouse=True)
def configured_layer(monkeypatch):
    if settings.REDIS_URL:
        require_redis()
    monkeypatch.setattr(lobby, "schedule_autofill", lambda pk, when: None)


async def open_socket(path: str, user=None, address: str | None = None, forwarded_for=None):
    """A communicator on the real application, connected; `address` is the client's IP."""
    headers = await database_sync_to_async(ws_headers)(user)
    if forwarded_for:
        headers.append((b"x-forwarded-for", forwarded_for.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    if address is not None:
        communicator.scope["client"] = [address, 50000]
    connected, _ = await communicator.connect(timeout=WS_TIMEOUT)
    assert connected
    return communicator


async def frames_until_close(communicator) -> tuple[list[dict], int]:
    """Every frame up to the close, and the close code."""
    frames = []
    while True:
        message = await communicator.receive_output(timeout=WS_TIMEOUT)
        if message["type"] == "websocket.close":
            return frames, message["code"]
        frames.append(json.loads(message["text"]))


async def assert_refused(communicator, code: str, close_code: int):
    frames, closed_with = await frames_until_close(communicator)
    assert closed_with == close_code
    error = frames[-1]
    assert error["type"] == "error" and error["code"] == code
    assert isinstance(error["message"], str) and error["message"]


def a_started_game(make_user, make_table):
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob})
    start_game(game.pk)
    return game, alice


# --- Flood -----------------------------------------------------------------------------------


async def test_the_game_socket_answers_the_flood_limit_then_closes_with_4008(
    make_user, make_table, settings
):
    settings.SOCKET_FLOOD_FRAMES, settings.SOCKET_FLOOD_SECONDS = 5, 60.0
    game, alice = await database_sync_to_async(a_started_game)(make_user, make_table)
    socket = await open_socket(f"/ws/games/{game.pk}/", alice)
    await next_frame(socket, "state")
    for number in range(5):
        await socket.send_json_to({"type": "ping", "id": number})
        assert await next_frame(socket) == {"type": "pong", "id": number}
    await socket.send_json_to({"type": "ping", "id": 5})
    await assert_refused(socket, "rate_limited", 4008)


async def test_the_lobby_answers_its_flood_limit_then_closes_with_4008(make_user):
    assert (settings.LOBBY_FLOOD_FRAMES, settings.LOBBY_FLOOD_SECONDS) == (10, 10.0)
    socket = await open_socket("/ws/lobby/")
    await next_frame(socket, "tables")
    for _ in range(10):
        await socket.send_json_to({"type": "sync"})
        assert (await next_frame(socket))["type"] == "tables"
    await socket.send_json_to({"type": "sync"})
    await assert_refused(socket, "rate_limited", 4008)


# --- Frames ----------------------------------------------------------------------------------


def ping_of_size(size: int) -> str:
    """A ping frame of exactly `size` bytes in UTF-8, padded with two-byte characters."""
    frame = json.dumps({"type": "ping", "id": ""}, ensure_ascii=False)
    room = size - len(frame.encode())
    return json.dumps(
        {"type": "ping", "id": "é" * (room // 2) + "x" * (room % 2)}, ensure_ascii=False
    )


@pytest.mark.parametrize("where", ["game", "lobby"])
async def test_a_frame_of_the_size_limit_is_read_and_one_byte_more_is_refused(
    make_user, make_table, where
):
    limit = settings.SOCKET_FRAME_MAX_BYTES
    assert limit == 4096
    game, alice = await database_sync_to_async(a_started_game)(make_user, make_table)
    path = f"/ws/games/{game.pk}/" if where == "game" else "/ws/lobby/"
    socket = await open_socket(path, alice)
    await next_frame(socket)
    at_limit, over = ping_of_size(limit), ping_of_size(limit + 1)
    assert (len(at_limit.encode()), len(over.encode())) == (limit, limit + 1)

    await socket.send_to(text_data=at_limit)
    answer = await next_frame(socket)
    if where == "game":
        assert answer == {"type": "pong", "id": json.loads(at_limit)["id"]}
    else:  # the lobby reads it, and refuses it for what it is: not a sync
        assert answer["type"] == "error" and answer["code"] == "malformed"
    await socket.send_to(text_data=over)
    error = await next_frame(socket)
    assert error["type"] == "error" and error["code"] == "too_large"
    assert str(limit) in error["message"]
    await socket.send_to(bytes_data=b"x" * (limit + 1))
    assert (await next_frame(socket))["code"] == "too_large"
    await socket.send_json_to({"type": "sync"})
    assert (await next_frame(socket))["type"] in {"state", "tables"}
    await socket.disconnect()


@pytest.mark.parametrize("where", ["game", "lobby"])
@pytest.mark.parametrize(
    "frame",
    [
        b'{"type": "sync"}',
        b"\xff\xfe\x00",
        "[" * 1000 + "]" * 1000,
        '{"type": "ping", "id": ' + "[" * 6 + "]" * 6 + "}",
        '{"type": "ping", "id": NaN}',
        '{"type": "ping", "id": -Infinity}',
        '{"type": "sync"',
        '\ud800{"type": "sync"}',
    ],
    ids=[
        "binary",
        "binary-utf8",
        "1000-brackets",
        "depth-7",
        "nan",
        "infinity",
        "cut",
        "surrogate",
    ],
)
async def test_a_frame_that_cannot_be_read_gets_malformed_and_the_socket_stays_usable(
    make_user, make_table, where, frame
):
    game, alice = await database_sync_to_async(a_started_game)(make_user, make_table)
    path = f"/ws/games/{game.pk}/" if where == "game" else "/ws/lobby/"
    socket = await open_socket(path, alice)
    await next_frame(socket)
    if isinstance(frame, bytes):
        await socket.send_to(bytes_data=frame)
    else:
        await socket.send_to(text_data=frame)
    error = await next_frame(socket)
    assert error["type"] == "error" and error["code"] == "malformed" and error["message"]
    await socket.send_json_to({"type": "sync"})
    assert (await next_frame(socket))["type"] in {"state", "tables"}
    await socket.disconnect()


async def test_a_ping_nested_to_the_depth_limit_is_answered(make_user, make_table):
    game, alice = await database_sync_to_async(a_started_game)(make_user, make_table)
    socket = await open_socket(f"/ws/games/{game.pk}/", alice)
    await next_frame(socket, "state")
    deepest = [[[[[]]]]]  # the frame's object and five lists: six levels
    await socket.send_json_to({"type": "ping", "id": deepest})
    assert await next_frame(socket) == {"type": "pong", "id": deepest}
    await socket.disconnect()


# --- Open sockets per account and per address ------------------------------------------------


async def test_an_account_may_hold_its_cap_of_sockets_and_the_next_is_refused_with_4029(
    make_user, make_table, settings
):
    assert settings.SOCKETS_PER_ACCOUNT == 20
    settings.SOCKETS_PER_ACCOUNT = 4
    game, alice = await database_sync_to_async(a_started_game)(make_user, make_table)
    paths = ["/ws/lobby/", f"/ws/games/{game.pk}/"] * 2  # both kinds count together
    sockets = [await open_socket(path, alice) for path in paths]
    for socket in sockets:
        assert (await next_frame(socket))["type"] in {"state", "tables"}

    refused = await open_socket("/ws/lobby/", alice)
    await assert_refused(refused, "too_many_sockets", 4029)
    other = await open_socket("/ws/lobby/", await database_sync_to_async(make_user)("carol"))
    assert (await next_frame(other))["type"] == "tables"

    await sockets[0].disconnect()  # a closed socket frees its slot at once
    again = await open_socket(f"/ws/games/{game.pk}/", alice)
    assert (await next_frame(again))["type"] == "state"
    for socket in [*sockets[1:], other, again]:
        await socket.disconnect()


async def test_an_address_may_hold_its_cap_of_sockets_and_the_next_is_refused_with_4029(
    settings,
):
    assert settings.SOCKETS_PER_ADDRESS == 40
    settings.SOCKETS_PER_ADDRESS = 3
    sockets = [await open_socket("/ws/lobby/", address="203.0.113.7") for _ in range(3)]
    for socket in sockets:
        assert (await next_frame(socket))["type"] == "tables"

    refused = await open_socket("/ws/lobby/", address="203.0.113.7")
    await assert_refused(refused, "too_many_sockets", 4029)
    elsewhere = await open_socket("/ws/lobby/", address="198.51.100.2")
    assert (await next_frame(elsewhere))["type"] == "tables"
    for socket in [*sockets, elsewhere]:
        await socket.disconnect()


async def test_an_address_may_open_its_cap_of_sockets_a_minute_and_the_next_is_refused_with_4008(
    settings,
):
    """Reconnecting after each flood close must not start the count afresh: connects are counted
    per address, whether the sockets stay open or not (game and lobby sockets alike)."""
    assert settings.SOCKET_CONNECTS_PER_MINUTE == 60
    settings.SOCKET_CONNECTS_PER_MINUTE = 3
    for _ in range(3):
        socket = await open_socket("/ws/lobby/", address="203.0.113.9")
        assert (await next_frame(socket))["type"] == "tables"
        await socket.disconnect()

    refused = await open_socket("/ws/lobby/", address="203.0.113.9")
    await assert_refused(refused, "rate_limited", 4008)
    game_socket = await open_socket("/ws/games/1/", address="203.0.113.9")
    await assert_refused(game_socket, "rate_limited", 4008)
    elsewhere = await open_socket("/ws/lobby/", address="198.51.100.9")
    assert (await next_frame(elsewhere))["type"] == "tables"
    await elsewhere.disconnect()


async def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_cap(settings):
    settings.SOCKETS_PER_ADDRESS, settings.TRUSTED_PROXY_COUNT = 1, 1
    proxy = "10.0.0.5"  # every socket comes through it
    first = await open_socket("/ws/lobby/", address=proxy, forwarded_for="203.0.113.7")
    other = await open_socket("/ws/lobby/", address=proxy, forwarded_for="8.8.8.8, 198.51.100.2")
    for socket in (first, other):
        assert (await next_frame(socket))["type"] == "tables"
    # A forged entry on the left changes nothing: the proxy's own entry is the client's.
    again = await open_socket("/ws/lobby/", address=proxy, forwarded_for="1.2.3.4, 203.0.113.7")
    await assert_refused(again, "too_many_sockets", 4029)
    for socket in (first, other):
        await socket.disconnect()


async def test_the_slots_of_a_crashed_process_lapse_and_free_the_account(make_user, settings):
    """A process that dies never releases its slots: they must lapse on their own."""
    settings.SOCKETS_PER_ACCOUNT, settings.SOCKET_SLOT_SECONDS = 2, 1.0
    alice = await database_sync_to_async(make_user)("alice")
    for name in ("crashed-1", "crashed-2"):  # held as another, dead, process would
        slot = SocketSlot(f"specific.{name}", alice.pk, None)
        assert await slot.claim() is None
        slot.renewal.cancel()  # the dead process renews nothing

    refused = await open_socket("/ws/lobby/", alice)
    await assert_refused(refused, "too_many_sockets", 4029)
    await asyncio.sleep(1.2)
    socket = await open_socket("/ws/lobby/", alice)
    assert (await next_frame(socket))["type"] == "tables"
    await socket.disconnect()


# --- Open tables -----------------------------------------------------------------------------


def open_a_table(client):
    return client.post(
        reverse("table_new"),
        {"players": "2", "seat_0_kind": "me", "seat_1_kind": "open", "turn_seconds": ""},
    )


def test_an_account_may_keep_its_cap_of_open_tables_and_the_next_is_refused(
    client, make_user, announced
):
    assert settings.OPEN_TABLES_PER_ACCOUNT == 3
    client.force_login(make_user("alice"))
    for _ in range(3):
        assert open_a_table(client).status_code == 302
    before = Game.objects.count()

    response = open_a_table(client)
    assert response.status_code == 400
    assert "You already have 3 open tables" in response.content.decode()
    response = client.post(reverse("play_now"), {"players": "5"}, follow=True)
    assert "You already have 3 open tables" in response.content.decode()
    assert Game.objects.count() == before

    # A game against bots starts at once: it is no open table.
    response = client.post(reverse("play"), {"bots": "1", "level": "random", "turn_seconds": ""})
    assert response.status_code == 302 and Game.objects.count() == before + 1


def test_the_cap_on_open_tables_holds_in_the_lobby_itself(make_user):
    alice = make_user("alice")
    for _ in range(3):
        lobby.create_table(alice, 2, [SeatPlan("me"), SeatPlan("open")])
    with pytest.raises(lobby.LobbyError) as refused:
        lobby.create_table(alice, 2, [SeatPlan("open"), SeatPlan("invite", user=make_user())])
    assert refused.value.code == "too_many_open_tables"
    lobby.leave_table(Game.objects.filter(created_by=alice).first().pk, alice)  # one closes
    lobby.create_table(alice, 2, [SeatPlan("me"), SeatPlan("open")])


def test_an_account_may_open_its_rate_of_tables_a_minute_and_the_next_is_refused(
    client, make_user, settings, announced
):
    """(`announced`: the bots' turns are announced, not played, so nothing else writes.)"""
    assert settings.TABLES_OPENED_PER_MINUTE == 10
    settings.TABLES_OPENED_PER_MINUTE = 4
    client.force_login(make_user("alice"))
    play = {"bots": "1", "level": "random", "turn_seconds": ""}
    for _ in range(4):
        assert client.post(reverse("play"), play).status_code == 302
    before = Game.objects.count()
    response = client.post(reverse("play"), play)
    assert response.status_code == 400
    assert "You opened 4 tables in the last minute" in response.content.decode()
    assert Game.objects.count() == before


def test_the_lobby_lists_a_bounded_number_of_open_tables_and_counts_the_rest(make_user, settings):
    settings.LOBBY_OPEN_TABLES_LISTED = 2
    creators = [make_user() for _ in range(4)]
    tables = [lobby.create_table(user, 2, [SeatPlan("me"), SeatPlan("open")]) for user in creators]

    frame = tables_frame(None)
    assert [entry["id"] for entry in frame["tables"]] == [tables[0].pk, tables[1].pk]
    assert frame["more_open_tables"] == 2
    own = tables_frame(creators[3].pk)  # your own table is always listed
    assert [entry["id"] for entry in own["tables"]] == [t.pk for t in (tables[3], *tables[:2])]
    assert own["more_open_tables"] == 1
