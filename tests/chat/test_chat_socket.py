"""Table talk over the game and lobby sockets: the rooms (players apart from spectators, a
lobby table's room), the limits, mutes, staff deletion and silencing, hostile frames, and showing
cards (a versioned show whose cards only the recipient's view holds)."""

import random

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from games.chat.models import ChatMessage, ChatMute, ChatSilence
from games.engine import current_player, legal_actions
from games.models import Action, Game
from games.services import load_state, start_game, submit_action
from tests.services import require_redis
from tests.web.conftest import next_frame, state_at_least, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]

HANDS = [["m1", "m10", "winter"], ["m2", "m3", "spring"]]


@pytest.fixture(autouse=True)
def configured_layer():
    if settings.REDIS_URL:
        require_redis()


@pytest.fixture
def table(make_user, make_table, start_stacked):
    """alice (seat 0) and bob (seat 1) play on a stacked deal; carol (staff) and dave watch."""

    def build():
        alice, bob = make_user("alice"), make_user("bob")
        carol, dave = make_user("carol"), make_user("dave")
        carol.is_staff = True
        carol.save()
        game = start_stacked(make_table(2, people={0: alice, 1: bob}), hands=HANDS)
        return game, {"alice": alice, "bob": bob, "carol": carol, "dave": dave}

    return build


async def joined(game_id, user=None):
    """A game socket past its first state, in its chat room (the history read)."""
    socket = await ws_connect(f"/ws/games/{game_id}/", user)
    await next_frame(socket, "state")
    await socket.send_json_to({"type": "chat_join"})
    history = await next_frame(socket, "chat_history")
    return socket, history


async def everyone(game, people):
    sockets, histories = {}, {}
    for name in ("alice", "bob", "carol", "dave"):
        sockets[name], histories[name] = await joined(game.pk, people[name])
    sockets["anonymous"], histories["anonymous"] = await joined(game.pk)
    return sockets, histories


async def close_all(sockets):
    for socket in sockets.values():
        await socket.disconnect()


async def test_players_and_spectators_talk_in_separate_rooms(table):
    game, people = await database_sync_to_async(table)()
    sockets, histories = await everyone(game, people)
    assert histories["alice"]["room"] == "players" and histories["alice"]["can_post"]
    assert histories["dave"]["room"] == "spectators"
    assert histories["anonymous"]["can_post"] is False
    await sockets["alice"].send_json_to({"type": "chat", "text": "  Bob, <b>ally</b>   with me? "})
    for name in ("alice", "bob"):
        message = (await next_frame(sockets[name], "chat"))["message"]
        # Stored and sent as text, runs of spaces folded; the client sets it as text.
        assert message["text"] == "Bob, <b>ally</b> with me?"
        assert message["seat"] == 0 and message["user"] == people["alice"].pk
    await sockets["dave"].send_json_to({"type": "chat", "text": "Red will lose"})
    for name in ("carol", "dave", "anonymous"):
        assert (await next_frame(sockets[name], "chat"))["message"]["text"] == "Red will lose"
    # Nobody heard the other room.
    for name in ("alice", "bob"):
        assert await sockets[name].receive_nothing(timeout=0.3)
    for name in ("carol", "anonymous"):
        assert await sockets[name].receive_nothing(timeout=0.1)
    rooms = await database_sync_to_async(
        lambda: sorted(ChatMessage.objects.values_list("room", flat=True))
    )()
    assert rooms == ["players", "spectators"]
    # A newcomer to a room reads its history.
    late, history = await joined(game.pk, people["bob"])
    assert [m["text"] for m in history["messages"]] == ["Bob, <b>ally</b> with me?"]
    await late.disconnect()
    await close_all(sockets)


async def test_bad_chat_is_refused_with_a_clear_error_and_nothing_stored(table, settings):
    game, people = await database_sync_to_async(table)()
    sockets, _ = await everyone(game, people)
    alice = sockets["alice"]
    cases = [
        ({"type": "chat", "text": "x" * 301}, "chat_too_long"),
        ({"type": "chat", "text": "   \n "}, "chat_empty"),
        ({"type": "chat", "text": 42}, "malformed"),
        ({"type": "chat"}, "malformed"),
        ({"type": "chat_mute", "user": True, "on": True}, "malformed"),
        ({"type": "chat_mute", "user": people["alice"].pk, "on": True}, "chat_no_user"),
        ({"type": "chat_delete", "id": "1"}, "malformed"),
        ({"type": "chat_delete", "id": 1}, "chat_not_staff"),
    ]
    for frame, code in cases:
        await alice.send_json_to(frame)
        error = await next_frame(alice, "error")
        assert error["code"] == code and error["message"], frame
    await sockets["anonymous"].send_json_to({"type": "chat", "text": "hi"})
    assert (await next_frame(sockets["anonymous"], "error"))["code"] == "chat_login"
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    await close_all(sockets)


async def test_a_burst_of_messages_is_cut_by_the_per_person_limit(table):
    game, people = await database_sync_to_async(table)()
    alice, _ = await joined(game.pk, people["alice"])
    for number in range(5):
        await alice.send_json_to({"type": "chat", "text": f"message {number}"})
        await next_frame(alice, "chat")
    await alice.send_json_to({"type": "chat", "text": "one too many"})
    assert (await next_frame(alice, "error"))["code"] == "chat_rate_limited"
    assert await database_sync_to_async(ChatMessage.objects.count)() == 5
    await alice.disconnect()


async def test_a_mute_hides_a_persons_messages_from_the_muter_only_and_lasts(table):
    game, people = await database_sync_to_async(table)()
    alice, _ = await joined(game.pk, people["alice"])
    bob, _ = await joined(game.pk, people["bob"])
    await alice.send_json_to({"type": "chat", "text": "first"})
    await next_frame(alice, "chat")
    await next_frame(bob, "chat")
    await bob.send_json_to({"type": "chat_mute", "user": people["alice"].pk, "on": True})
    history = await next_frame(bob, "chat_history")
    assert history["messages"] == [] and history["muted"] == [people["alice"].pk]
    await alice.send_json_to({"type": "chat", "text": "second"})
    assert (await next_frame(alice, "chat"))["message"]["text"] == "second"
    assert await bob.receive_nothing(timeout=0.3)
    await bob.disconnect()
    bob, history = await joined(game.pk, people["bob"])  # persisted
    assert history["messages"] == []
    assert await database_sync_to_async(ChatMute.objects.count)() == 1
    await bob.send_json_to({"type": "chat_mute", "user": people["alice"].pk, "on": False})
    history = await next_frame(bob, "chat_history")
    assert [m["text"] for m in history["messages"]] == ["first", "second"]
    await alice.disconnect()
    await bob.disconnect()


async def test_staff_delete_a_message_everywhere_and_silence_a_person(table):
    game, people = await database_sync_to_async(table)()
    sockets, histories = await everyone(game, people)
    assert histories["carol"]["staff"] is True and histories["dave"]["staff"] is False
    await sockets["dave"].send_json_to({"type": "chat", "text": "rude words"})
    message = (await next_frame(sockets["carol"], "chat"))["message"]
    await sockets["carol"].send_json_to({"type": "chat_delete", "id": message["id"]})
    for name in ("carol", "dave", "anonymous"):
        assert (await next_frame(sockets[name], "chat_deleted"))["id"] == message["id"]
    assert await database_sync_to_async(lambda: ChatMessage.objects.get(pk=message["id"]).deleted)()
    await database_sync_to_async(ChatSilence.objects.create)(user=people["dave"])
    await sockets["dave"].send_json_to({"type": "chat", "text": "again"})
    assert (await next_frame(sockets["dave"], "error"))["code"] == "chat_silenced"
    _, history = await joined(game.pk, people["dave"])
    assert history["messages"] == [] and history["can_post"] is False
    await close_all(sockets)


async def test_a_lobby_table_has_its_own_room_that_anyone_may_read(make_user, make_table):
    alice, bob = (
        await database_sync_to_async(make_user)(),
        await database_sync_to_async(make_user)(),
    )
    game = await database_sync_to_async(make_table)(3, people={0: alice})
    sockets = {}
    for name, user in (("alice", alice), ("bob", bob), ("anonymous", None)):
        socket = await ws_connect("/ws/lobby/", user)
        await next_frame(socket, "tables")
        # Before joining a table's room there is nowhere to talk.
        await socket.send_json_to({"type": "chat", "text": "hi"})
        assert (await next_frame(socket, "error"))["code"] == "chat_no_room"
        await socket.send_json_to({"type": "chat_join", "table": game.pk})
        assert (await next_frame(socket, "chat_history"))["room"] == "table"
        sockets[name] = socket
    await sockets["bob"].send_json_to({"type": "chat", "text": "room for one more?"})
    for socket in sockets.values():
        assert (await next_frame(socket, "chat"))["message"]["text"] == "room for one more?"
    await sockets["anonymous"].send_json_to({"type": "chat", "text": "me"})
    assert (await next_frame(sockets["anonymous"], "error"))["code"] == "chat_login"
    await sockets["bob"].send_json_to({"type": "chat_join", "table": 10**9})
    assert (await next_frame(sockets["bob"], "error"))["code"] == "chat_no_room"
    await sockets["bob"].send_json_to({"type": "chat_join", "table": "1"})
    assert (await next_frame(sockets["bob"], "error"))["code"] == "chat_no_room"
    await close_all(sockets)


async def test_a_show_reaches_the_recipients_view_only_and_counts_as_a_version(table):
    game, people = await database_sync_to_async(table)()
    sockets = {}
    for name in ("alice", "bob", "dave"):
        sockets[name] = await ws_connect(f"/ws/games/{game.pk}/", people[name])
        await next_frame(sockets[name], "state")
    # bob shows while it is alice's turn: any seat, at any time.
    await sockets["bob"].send_json_to(
        {"type": "show", "to": 0, "cards": ["m3", "spring"], "expected_version": 0}
    )
    frames = {name: await state_at_least(socket, 1) for name, socket in sockets.items()}
    assert frames["alice"]["view"]["players"][1]["shown_to_you"] == ["m3", "spring"]
    assert frames["bob"]["view"]["shown_by_you"] == [{"to": 0, "cards": ["m3", "spring"]}]
    assert frames["dave"]["view"]["players"][1]["shown_to_you"] == []
    entry = frames["dave"]["log"][-1]
    assert entry == {"type": "show", "to": 0, "count": 2, "seq": 1, "seat": 1}
    assert frames["alice"]["view"]["current_player"] == 0  # the turn did not move
    # A stale show, cards not held, a spectator's show: refused, nothing changes.
    refusals = [
        ("bob", {"type": "show", "to": 0, "cards": ["m3"], "expected_version": 0}, "stale"),
        ("bob", {"type": "show", "to": 0, "cards": ["m10"], "expected_version": 1}, "illegal"),
        ("bob", {"type": "show", "to": 1, "cards": ["m3"], "expected_version": 1}, "illegal"),
        ("bob", {"type": "show", "to": "0", "cards": ["m3"], "expected_version": 1}, "malformed"),
        ("bob", {"type": "show", "to": 0, "cards": "m3", "expected_version": 1}, "malformed"),
        ("dave", {"type": "show", "to": 0, "cards": ["m3"], "expected_version": 1}, "not_seated"),
    ]
    for name, frame, code in refusals:
        await sockets[name].send_json_to(frame)
        error = await next_frame(sockets[name], "error")
        assert error["code"] == code and error["message"], frame
    version, shows = await database_sync_to_async(
        lambda: (Game.objects.get(pk=game.pk).version, Action.objects.filter(game=game).count())
    )()
    assert (version, shows) == (1, 1)
    stored = await database_sync_to_async(lambda: Action.objects.get(game=game).action)()
    assert stored == {"type": "show", "to": 0, "cards": ["m3", "spring"]}
    for socket in sockets.values():
        await socket.disconnect()


def test_bots_say_good_game_when_a_game_with_people_ends(make_user, make_table, announced):
    """The bot's jobs are only recorded (`announced`): the test plays its seat itself."""
    person = make_user()
    game = make_table(2, people={0: person}, bots={1: "random"})
    start_game(game.pk)
    game.refresh_from_db()
    rng = random.Random(2)
    while game.status == Game.Status.PLAYING:
        state = load_state(game)
        seat = current_player(state)
        actor = "bot" if seat == 1 else "human"
        submit_action(game.pk, seat, rng.choice(legal_actions(state)), game.version, actor=actor)
        game.refresh_from_db()
    messages = list(ChatMessage.objects.filter(game=game))
    assert [(m.room, m.seat, m.phrase, m.user) for m in messages] == [
        ("players", 1, "good_game", None)
    ]


async def test_a_game_socket_hears_its_room_unasked_and_the_page_reads_the_history(table):
    """The socket joins its room before its first state and sends no history unasked (the page
    reads it over HTTP: the same content, the same rooms)."""
    game, people = await database_sync_to_async(table)()
    bob = await ws_connect(f"/ws/games/{game.pk}/", people["bob"])
    await next_frame(bob, "state")
    assert await bob.receive_nothing(timeout=0.2)
    alice, _ = await joined(game.pk, people["alice"])
    await alice.send_json_to({"type": "chat", "text": "hello"})
    assert (await next_frame(bob, "chat"))["message"]["text"] == "hello"

    def read(user):
        from django.test import Client

        client = Client()
        if user is not None:
            client.force_login(user)
        return client.get(f"/games/{game.pk}/chat.json").json()

    for name, room, texts in (("bob", "players", ["hello"]), ("dave", "spectators", [])):
        page = await database_sync_to_async(read)(people[name])
        assert page["room"] == room and [m["text"] for m in page["messages"]] == texts
    anonymous = await database_sync_to_async(read)(None)
    assert anonymous["room"] == "spectators" and anonymous["can_post"] is False
    await alice.disconnect()
    await bob.disconnect()
