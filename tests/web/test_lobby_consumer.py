"""The lobby socket: the list of tables on connect, and a fresh list after every change.

The socket is driven through the project's websocket routes, on whichever channel layer the
profile configures; the Redis test insists on the production layer (CI runs it there).
"""

import asyncio

import pytest
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from condottiere_site.routing import websocket_urlpatterns
from games.lobby import tables as lobby
from tests.services import require_redis

pytestmark = pytest.mark.django_db(transaction=True)

FRAME_TIMEOUT = 5


@pytest.fixture(autouse=True)
def no_timers(monkeypatch):
    monkeypatch.setattr(lobby, "schedule_autofill", lambda pk, when: None)


async def open_lobby(user):
    communicator = WebsocketCommunicator(
        AuthMiddlewareStack(URLRouter(websocket_urlpatterns)), "/ws/lobby/"
    )
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def frame_where(communicator, predicate):
    """The first `tables` frame that satisfies `predicate` (several may come for one change)."""
    deadline = asyncio.get_running_loop().time() + FRAME_TIMEOUT
    while True:
        remaining = deadline - asyncio.get_running_loop().time()
        assert remaining > 0, "no lobby frame showed the change in time"
        frame = await communicator.receive_json_from(timeout=remaining)
        assert frame["type"] == "tables"
        if predicate(frame):
            return frame


def table_in(frame, game_id):
    return next((table for table in frame["tables"] if table["id"] == game_id), None)


async def check_the_lobby_follows_tables_live(make_user):
    alice, bob, carol = [await database_sync_to_async(make_user)(name) for name in "abc"]
    waiting = await database_sync_to_async(lobby.play_now)(alice, 3)

    socket = await open_lobby(bob)
    first = await socket.receive_json_from(timeout=FRAME_TIMEOUT)
    assert first["type"] == "tables"
    listed = table_in(first, waiting.pk)
    assert listed["status"] == "open" and listed["players"] == 3 and listed["taken"] == 1
    assert [seat["kind"] for seat in listed["seats"]] == ["human", "open", "open"]
    assert listed["seats"][0]["name"] == alice.public_name and not listed["you"]

    # Another player opens a table: it appears.
    opened = await database_sync_to_async(lobby.play_now)(carol, 4, {"hidden_cards": True})
    frame = await frame_where(socket, lambda f: table_in(f, opened.pk) is not None)
    assert table_in(frame, opened.pk)["options"] == ["hidden_cards"]

    # This socket's user joins a table: it shows them seated there.
    await database_sync_to_async(lobby.join_table)(waiting.pk, bob)
    frame = await frame_where(socket, lambda f: table_in(f, waiting.pk)["taken"] == 2)
    joined = table_in(frame, waiting.pk)
    assert joined["you"] and joined["seats"][1]["you"] and joined["seats"][1]["name"] == "b"

    # The last seat is taken: the table is listed as playing, with the game page as its link.
    await database_sync_to_async(lobby.join_table)(waiting.pk, carol)
    frame = await frame_where(socket, lambda f: table_in(f, waiting.pk)["status"] == "playing")
    assert table_in(frame, waiting.pk)["url"] == f"/games/{waiting.pk}/"
    await socket.disconnect()


async def test_the_lobby_socket_sends_the_tables_on_connect_and_after_each_change(make_user):
    await check_the_lobby_follows_tables_live(make_user)


async def test_the_lobby_socket_works_on_the_redis_channel_layer(make_user):
    require_redis()
    assert type(get_channel_layer()).__name__ == "RedisPubSubChannelLayer"
    await check_the_lobby_follows_tables_live(make_user)


async def test_anyone_may_watch_the_lobby_and_ask_for_the_list_again(make_user):
    alice = await database_sync_to_async(make_user)("alice")
    table = await database_sync_to_async(lobby.play_now)(alice, 2)
    socket = await open_lobby(AnonymousUser())
    first = await socket.receive_json_from(timeout=FRAME_TIMEOUT)
    assert table_in(first, table.pk)["you"] is False

    await socket.send_json_to({"type": "sync"})
    again = await socket.receive_json_from(timeout=FRAME_TIMEOUT)
    assert again["tables"] == first["tables"]
    # Anything else a client sends gets an error frame, and the socket stays open.
    await socket.send_to(text_data="not json")
    error = await socket.receive_json_from(timeout=FRAME_TIMEOUT)
    assert error["type"] == "error" and error["code"] == "malformed"
    await socket.send_json_to({"type": "sync"})
    assert (await socket.receive_json_from(timeout=FRAME_TIMEOUT))["type"] == "tables"
    await socket.disconnect()


async def test_visitors_share_one_read_of_the_tables_and_still_see_every_change(
    make_user, monkeypatch
):
    """Visitors who are not signed in all see the same list: their syncs and a change heard by
    all of them cost one read of the tables per change, not one per socket and per sync (a
    visitor's flood of syncs used to slow every page), and each change still reaches them."""
    from games.sockets import lobby as lobby_consumer

    reads = []
    read_tables = lobby_consumer.table_entries

    def counted(user_id=None):
        reads.append(user_id)
        return read_tables(user_id)

    # Every lobby change heard may cost one read. On Redis the lobby group is shared with every
    # process on the machine, so a notice sent by another one (a worker's sweep, say) may be heard
    # here too: the bound is one read per change heard, not an exact count.
    heard = set()
    hear_change = lobby_consumer.VisitorsTables.changed

    def heard_change(tables, change_id):
        heard.add(change_id)
        hear_change(tables, change_id)

    monkeypatch.setattr(lobby_consumer, "table_entries", counted)
    monkeypatch.setattr(lobby_consumer.VisitorsTables, "changed", heard_change)
    # Only changes may cause a read here, not the age limit (a loaded machine is slow).
    monkeypatch.setattr(lobby_consumer, "VISITORS_TABLES_SECONDS", 600)
    alice, bob = [await database_sync_to_async(make_user)(name) for name in ("alice", "bob")]
    first_table = await database_sync_to_async(lobby.play_now)(alice, 2)
    visitors = [await open_lobby(AnonymousUser()) for _ in range(3)]
    for visitor in visitors:
        assert table_in(await visitor.receive_json_from(timeout=FRAME_TIMEOUT), first_table.pk)
    for _ in range(5):
        await visitors[0].send_json_to({"type": "sync"})
        await visitors[0].receive_json_from(timeout=FRAME_TIMEOUT)
    assert set(reads) == {None}
    assert len(reads) <= 1 + len(heard), "three visitors and five syncs: one read per change"

    opened = await database_sync_to_async(lobby.play_now)(bob, 3)
    for visitor in visitors:
        await frame_where(visitor, lambda frame: table_in(frame, opened.pk) is not None)
    assert len(heard) >= 1
    assert len(reads) <= 1 + len(heard), "one change heard by three visitors: one more read"
    for visitor in visitors:
        await visitor.disconnect()


async def test_a_visitors_list_is_read_again_once_it_is_older_than_its_limit(
    make_user, monkeypatch
):
    """A process with no lobby socket hears no change: what it kept may be old, so the shared
    list also has an age limit."""
    from games.sockets import lobby as lobby_consumer

    monkeypatch.setattr(lobby_consumer, "VISITORS_TABLES_SECONDS", 0.0)
    visitor = await open_lobby(AnonymousUser())
    assert (await visitor.receive_json_from(timeout=FRAME_TIMEOUT))["tables"] == []
    alice = await database_sync_to_async(make_user)("alice")
    # A table opened with no notice heard (as if no lobby socket of this process was open).
    monkeypatch.setattr(lobby_consumer.VisitorsTables, "changed", lambda self, change_id: None)
    table = await database_sync_to_async(lobby.play_now)(alice, 2)
    await visitor.send_json_to({"type": "sync"})
    await frame_where(visitor, lambda frame: table_in(frame, table.pk) is not None)
    await visitor.disconnect()


async def test_a_finished_read_serves_the_next_visitor_before_its_first_waiter_resumes(monkeypatch):
    """A read that is done is the answer for its generation at once, not only once the socket
    that started it has resumed: under load another visitor may ask in between (CI saw two
    reads for one change)."""
    from games.sockets import lobby as lobby_consumer

    reads = []

    def counted(user_id=None):
        reads.append(user_id)
        return [], 0

    monkeypatch.setattr(lobby_consumer, "table_entries", counted)
    tables = lobby_consumer.VisitorsTables()
    first = asyncio.ensure_future(tables.read())
    await asyncio.sleep(0)  # the first visitor has started the read
    await tables.latest[2]  # the read is done; the first visitor has not resumed yet
    assert not first.done()
    assert await tables.read() == ([], 0)
    assert await first == ([], 0)
    assert reads == [None]
