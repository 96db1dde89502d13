"""What a password change, a log-out everywhere and a deletion end: the account's open sockets
close at once (error frame, close 4401) and nothing they send afterwards is applied. On the
configured channel layer: Redis under the production profile (CI), where the close notice
crosses from the request's thread through Redis."""

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from games.accounts.deletion import delete_account
from games.chat.models import ChatMessage
from games.engine import current_player
from games.models import Action, Game, User
from games.services import load_state
from games.services.table_talk import ChatRefused, post_message
from tests.services import require_redis
from tests.web.conftest import ended_by, next_frame, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]
PASSWORD = "an old pass phrase 41"


@pytest.fixture(autouse=True)
def configured_layer():
    if settings.REDIS_URL:
        require_redis()


@pytest.fixture
def seated_game(make_user, make_table, start_stacked):
    """A game where alice (who has a password) is to act, at seat 0, against bob."""

    def build():
        alice = User.objects.create_user("alice", password=PASSWORD)
        game = start_stacked(make_table(2, people={0: alice, 1: make_user("bob")}), first=0)
        assert current_player(load_state(game)) == 0
        return game, alice

    return build


async def alices_socket(game, alice):
    socket = await ws_connect(f"/ws/games/{game.pk}/", alice)
    frame = await next_frame(socket, "state")
    action = frame["view"]["legal_actions"][0]
    return socket, {"type": "action", "action": action, "expected_version": frame["version"]}


async def nothing_applied_after(socket, action_frame, game) -> None:
    """The action the socket sends now is never read: no answer, nothing in the log."""
    await socket.send_json_to(action_frame)
    assert await socket.receive_nothing(timeout=1)
    assert await database_sync_to_async(Action.objects.filter(game=game).count)() == 0


def signed_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def a_new_password_closes_alices_socket(seated_game, set_password) -> None:
    """`set_password(alice)`, run while alice's game socket is open, ends that socket as a
    password change, and nothing it sends afterwards is applied."""
    game, alice = await database_sync_to_async(seated_game)()
    socket, action = await alices_socket(game, alice)
    await database_sync_to_async(set_password)(alice)
    await ended_by(socket, "password_changed")
    await nothing_applied_after(socket, action, game)


async def test_a_password_change_closes_the_other_sessions_game_socket(seated_game):
    def change_password(alice):
        answer = signed_in_client(alice).post(
            "/accounts/password/change/",
            {
                "old_password": PASSWORD,
                "new_password1": "a new pass phrase 42",
                "new_password2": "a new pass phrase 42",
            },
        )
        assert answer.status_code == 302

    await a_new_password_closes_alices_socket(seated_game, change_password)


async def test_log_out_everywhere_closes_the_sockets_and_ends_the_other_sessions(seated_game):
    game, alice = await database_sync_to_async(seated_game)()
    socket, action = await alices_socket(game, alice)
    here = await database_sync_to_async(signed_in_client)(alice)
    other = await database_sync_to_async(signed_in_client)(alice)

    def log_out_everywhere():
        answer = here.post("/accounts/logout/everywhere/", {"sessions-password": PASSWORD})
        assert answer.status_code == 302
        assert here.get("/accounts/profile/").status_code == 200, "this session stays"
        assert other.get("/accounts/profile/").status_code == 302, "the other one is logged out"

    await database_sync_to_async(log_out_everywhere)()
    await ended_by(socket, "logged_out")
    await nothing_applied_after(socket, action, game)


def test_log_out_everywhere_with_a_wrong_password_changes_nothing(make_user):
    alice = User.objects.create_user("alice", password=PASSWORD)
    client, other = signed_in_client(alice), signed_in_client(alice)
    stored = alice.password
    answer = client.post("/accounts/logout/everywhere/", {"sessions-password": "wrong"})
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert alice.password == stored
    assert other.get("/accounts/profile/").status_code == 200


async def test_a_deleted_accounts_sockets_close_and_cannot_chat(
    make_user, make_table, start_stacked
):
    def set_up():
        game = make_table(2, people={0: make_user(), 1: make_user()})
        start_stacked(game)
        return game, User.objects.create_user("carol", password=PASSWORD)

    game, carol = await database_sync_to_async(set_up)()
    watching = await ws_connect(f"/ws/games/{game.pk}/", carol)
    await next_frame(watching, "state")
    lobby = await ws_connect("/ws/lobby/", carol)
    await next_frame(lobby, "tables")

    def delete():
        answer = signed_in_client(carol).post("/accounts/delete/", {"password": PASSWORD})
        assert answer.status_code == 302

    await database_sync_to_async(delete)()
    for socket in (watching, lobby):
        await ended_by(socket, "account_deleted")
    await watching.send_json_to({"type": "chat", "text": "still here"})
    assert await watching.receive_nothing(timeout=1)
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0


def test_the_chat_service_refuses_a_deleted_account_read_before_its_deletion(
    make_user, make_table, start_stacked
):
    game = start_stacked(make_table(2, people={0: make_user(), 1: make_user()}))
    carol = make_user("carol")
    as_read_by_a_socket = User.objects.get(pk=carol.pk)
    delete_account(carol)
    with pytest.raises(ChatRefused) as refused:
        post_message(game.pk, as_read_by_a_socket, None, "spectators", "still here")
    assert refused.value.code == "chat_account_closed"
    assert not ChatMessage.objects.exists()
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


async def test_a_password_set_anywhere_else_closes_the_sockets_too(seated_game):
    """A reset link, the admin, `changepassword`: each saves a new password on the account."""

    def set_by_staff(alice):
        account = User.objects.get(pk=alice.pk)
        account.set_password("set by the staff 43")
        account.save()

    await a_new_password_closes_alices_socket(seated_game, set_by_staff)


async def test_saving_the_account_without_a_new_password_leaves_the_sockets_open(seated_game):
    game, alice = await database_sync_to_async(seated_game)()
    socket, _ = await alices_socket(game, alice)

    def rename():
        account = User.objects.get(pk=alice.pk)
        account.display_name = "Alice"
        account.save()

    await database_sync_to_async(rename)()
    assert await socket.receive_nothing(timeout=1)
    await socket.disconnect()
