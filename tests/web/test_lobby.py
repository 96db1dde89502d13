"""Matchmaking: tables, seats, invitations, "Play now", autofill and games against bots.

Written from the rules of the lobby: a user holds at most one seat per table; a reserved seat is
only for its invited player; a table starts when its last seat is taken; nobody leaves a started
game through the lobby; a refused request changes nothing and says why.
"""

import threading
from datetime import timedelta
from functools import partial

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.lobby import tables as lobby
from games.lobby.tables import LobbyError, SeatPlan
from games.models import Game, Seat
from tests.services import require_postgresql

pytestmark = pytest.mark.django_db
# The autouse fixture below replaces it; the scheduling test calls the real one.
REAL_SCHEDULE_AUTOFILL = lobby.schedule_autofill

ALL_OFF = {
    "draw_after_battle": False,
    "bigger_kingdoms": False,
    "capturing_regions": False,
    "hidden_cards": False,
}


@pytest.fixture(autouse=True)
def no_timers(monkeypatch):
    """Autofill timers are recorded, not started: the tests call the sweep themselves."""
    scheduled = []
    monkeypatch.setattr(lobby, "schedule_autofill", lambda pk, when: scheduled.append((pk, when)))
    return scheduled


@pytest.fixture
def users(django_user_model):
    def make(*names):
        # No password at all: hashing one is slow, and the tests log in with force_login.
        return [django_user_model.objects.create(username=name) for name in names]

    return make


def seat_table(game):
    """(user, bot level, reserved for) of each seat, in seat order."""
    return [
        (
            seat.user.username if seat.user else None,
            seat.bot_level,
            seat.reserved_for.username if seat.reserved_for else None,
        )
        for seat in Seat.objects.filter(game=game).select_related("user", "reserved_for")
    ]


def snapshot_of_tables():
    """Everything the lobby may change, to assert that a refused request changed nothing."""
    games = list(Game.objects.order_by("pk").values_list("pk", "status", "snapshot", "version"))
    seats = list(
        Seat.objects.order_by("game", "index").values_list(
            "game", "index", "user", "bot_level", "reserved_for"
        )
    )
    return games, seats


# --- Creating tables ----------------------------------------------------------------------------


def test_a_table_is_created_with_each_kind_of_seat(users):
    alice, bob = users("alice", "bob")
    plans = [SeatPlan("me"), SeatPlan("bot", level="random"), SeatPlan("invite", user=bob)]
    plans.append(SeatPlan("open"))
    game = lobby.create_table(alice, 4, plans, options={"hidden_cards": True}, turn_seconds=60)

    assert game.status == Game.Status.OPEN
    assert game.players == 4 and game.turn_seconds == 60 and game.created_by == alice
    assert game.options == {**ALL_OFF, "hidden_cards": True}
    assert seat_table(game) == [
        ("alice", "", None),
        (None, "random", None),
        (None, "", "bob"),
        (None, "", None),
    ]


def test_the_create_table_page_opens_a_table_and_shows_its_invite_link(client, users):
    alice, bob = users("alice", "bob")
    client.force_login(alice)
    response = client.post(
        reverse("table_new"),
        {
            "players": 3,
            "seat_0_kind": "me",
            "seat_1_kind": "invite",
            "seat_1_username": "Bob",
            "seat_2_kind": "bot",
            "seat_2_level": "easy",
            "capturing_regions": "on",
            "turn_seconds": "30",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("table_detail", args=[game.pk])
    assert seat_table(game) == [("alice", "", None), (None, "", "bob"), (None, "easy", None)]
    assert game.options["capturing_regions"] is True and game.turn_seconds == 30

    page = client.get(response.url).content.decode()
    assert reverse("invite", args=[game.invite_code]) in page
    assert "bob" in page


def test_the_create_table_page_refuses_an_unknown_invited_player(client, users):
    (alice,) = users("alice")
    client.force_login(alice)
    response = client.post(
        reverse("table_new"),
        {"players": 2, "seat_0_kind": "me", "seat_1_kind": "invite", "seat_1_username": "nobody"},
    )
    assert response.status_code == 400
    assert "There is no player called" in response.content.decode()
    assert not Game.objects.exists()


def test_a_creator_takes_at_most_one_seat(users):
    (alice,) = users("alice")
    with pytest.raises(LobbyError) as error:
        lobby.create_table(alice, 2, [SeatPlan("me"), SeatPlan("me")])
    assert error.value.code == "invalid"
    assert not Game.objects.exists()


# --- Joining and leaving ------------------------------------------------------------------------


def test_anyone_logged_in_joins_through_the_invite_link(client, users):
    alice, carol = users("alice", "carol")
    game = lobby.create_table(alice, 3, [SeatPlan("me"), SeatPlan("open"), SeatPlan("open")])
    client.force_login(carol)
    invite_url = reverse("invite", args=[game.invite_code])

    page = client.get(invite_url)
    assert page.status_code == 200 and "Take my seat" in page.content.decode()
    assert seat_table(game)[1] == (None, "", None)  # looking is not joining

    response = client.post(invite_url)
    assert response.status_code == 302
    assert seat_table(game)[1] == ("carol", "", None)


def test_the_invite_link_needs_a_login(client, users):
    (alice,) = users("alice")
    game = lobby.create_table(alice, 2, [SeatPlan("me"), SeatPlan("open")])
    response = client.get(reverse("invite", args=[game.invite_code]))
    assert response.status_code == 302 and reverse("login") in response.url


def test_a_reserved_seat_is_only_for_the_invited_player(users):
    alice, bob, mallory = users("alice", "bob", "mallory")
    game = lobby.create_table(
        alice, 3, [SeatPlan("me"), SeatPlan("invite", user=bob), SeatPlan("open")]
    )
    with pytest.raises(LobbyError):
        lobby.join_table(game.pk, mallory, index=1)
    # Without a seat number, mallory gets the open seat, never bob's.
    assert lobby.join_table(game.pk, mallory).index == 2
    before = snapshot_of_tables()
    with pytest.raises(LobbyError) as error:
        lobby.join_table(game.pk, users("dave")[0])
    assert error.value.code == "reserved"
    assert snapshot_of_tables() == before
    # The invited player, with no seat number, is led to the seat kept for them.
    assert lobby.join_table(game.pk, bob).index == 1


def test_leaving_before_the_start_frees_the_seat(client, users):
    alice, bob = users("alice", "bob")
    game = lobby.create_table(alice, 3, [SeatPlan("me"), SeatPlan("open"), SeatPlan("open")])
    lobby.join_table(game.pk, bob)
    client.force_login(bob)

    response = client.post(reverse("table_leave", args=[game.pk]))
    assert response.status_code == 302
    assert [row[0] for row in seat_table(game)] == ["alice", None, None]
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_a_table_everyone_left_closes(users):
    (alice,) = users("alice")
    game = lobby.create_table(alice, 2, [SeatPlan("me"), SeatPlan("open")])
    lobby.leave_table(game.pk, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert lobby.compatible_tables(users("bob")[0], 2, lobby.normalize_options({})) == []


def test_nobody_leaves_a_started_game_through_the_lobby(client, users):
    alice, bob = users("alice", "bob")
    game = lobby.create_table(alice, 2, [SeatPlan("me"), SeatPlan("open")])
    lobby.join_table(game.pk, bob)
    before = snapshot_of_tables()

    with pytest.raises(LobbyError) as error:
        lobby.leave_table(game.pk, bob)
    assert error.value.code == "started"
    client.force_login(bob)
    client.post(reverse("table_leave", args=[game.pk]))
    assert snapshot_of_tables() == before


def test_a_second_seat_at_the_same_table_is_refused_and_changes_nothing(client, users):
    alice, bob = users("alice", "bob")
    game = lobby.create_table(alice, 3, [SeatPlan("me"), SeatPlan("open"), SeatPlan("open")])
    lobby.join_table(game.pk, bob)
    before = snapshot_of_tables()

    with pytest.raises(LobbyError) as error:
        lobby.join_table(game.pk, bob)
    assert error.value.code == "already_seated"
    client.force_login(bob)
    response = client.post(reverse("table_join", args=[game.pk]), follow=True)
    assert "You already have a seat at this table." in response.content.decode()
    assert snapshot_of_tables() == before


def test_joining_a_table_that_has_started_is_refused_and_changes_nothing(client, users):
    alice, bob, carol = users("alice", "bob", "carol")
    game = lobby.create_table(alice, 2, [SeatPlan("me"), SeatPlan("open")])
    lobby.join_table(game.pk, bob)
    before = snapshot_of_tables()

    with pytest.raises(LobbyError) as error:
        lobby.join_table(game.pk, carol)
    assert error.value.code == "started"
    client.force_login(carol)
    response = client.post(reverse("table_join", args=[game.pk]), follow=True)
    assert "This table is no longer open." in response.content.decode()
    assert snapshot_of_tables() == before


def test_a_full_table_starts(users):
    alice, bob, carol = users("alice", "bob", "carol")
    game = lobby.create_table(
        alice, 3, [SeatPlan("me"), SeatPlan("open"), SeatPlan("invite", user=carol)]
    )
    lobby.join_table(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.snapshot == ""

    lobby.join_table(game.pk, carol)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.snapshot  # the engine's state, written by start_game
    assert game.version == 0 and game.started_at is not None


# --- Play now -----------------------------------------------------------------------------------


def test_play_now_joins_a_compatible_table(client, users):
    alice, bob = users("alice", "bob")
    waiting = lobby.play_now(alice, 3, {"bigger_kingdoms": True})
    client.force_login(bob)

    response = client.post(reverse("play_now"), {"players": 3, "bigger_kingdoms": "on"})
    assert Game.objects.count() == 1
    assert [row[0] for row in seat_table(waiting)] == ["alice", "bob", None]
    assert response.url == reverse("table_detail", args=[waiting.pk])


def test_play_now_opens_a_table_when_none_is_compatible(users):
    alice, bob, carol, dave = users("alice", "bob", "carol", "dave")
    other_count = lobby.play_now(alice, 4)
    other_rules = lobby.play_now(bob, 3, {"hidden_cards": True})
    started = lobby.create_table(carol, 2, [SeatPlan("me"), SeatPlan("bot", level="random")])
    kept = lobby.create_table(
        carol, 3, [SeatPlan("me"), SeatPlan("invite", user=alice), SeatPlan("invite", user=bob)]
    )
    assert started.status == Game.Status.PLAYING

    mine = lobby.play_now(dave, 3)
    assert mine.pk not in {other_count.pk, other_rules.pk, started.pk, kept.pk}
    assert seat_table(mine) == [("dave", "", None), (None, "", None), (None, "", None)]
    assert mine.options == ALL_OFF and mine.status == Game.Status.OPEN


def test_play_now_does_not_seat_you_twice_at_your_own_table(users):
    (alice,) = users("alice")
    first = lobby.play_now(alice, 3)
    second = lobby.play_now(alice, 3)
    assert first.pk != second.pk
    assert Seat.objects.filter(user=alice).count() == 2


def test_play_now_fills_a_table_and_starts_it(users):
    alice, bob = users("alice", "bob")
    table = lobby.play_now(alice, 2)
    joined = lobby.play_now(bob, 2)
    assert joined.pk == table.pk
    assert joined.status == Game.Status.PLAYING


# --- Autofill -----------------------------------------------------------------------------------


def test_autofill_fills_the_open_seats_with_bots_when_due_and_not_before(
    users, no_timers, django_capture_on_commit_callbacks
):
    alice, bob = users("alice", "bob")
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.play_now(alice, 4, autofill_level="random", autofill_seconds=30)
    lobby.join_table(game.pk, bob)
    assert no_timers == [(game.pk, game.autofill_at)]
    assert game.autofill_at - game.created_at == pytest.approx(
        timedelta(seconds=30), abs=timedelta(seconds=1)
    )

    assert lobby.autofill_due_tables(now=game.autofill_at - timedelta(seconds=1)) == []
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    assert [row[1] for row in seat_table(game)] == ["", "", "", ""]

    assert lobby.autofill_due_tables(now=game.autofill_at + timedelta(seconds=1)) == [game.pk]
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.snapshot
    assert seat_table(game) == [
        ("alice", "", None),
        ("bob", "", None),
        (None, "random", None),
        (None, "random", None),
    ]
    # A second sweep finds nothing left to do.
    assert lobby.autofill_due_tables(now=timezone.now() + timedelta(hours=1)) == []


def test_play_now_without_autofill_waits_for_people(users, no_timers):
    (alice,) = users("alice")
    game = lobby.play_now(alice, 3)
    assert game.autofill_at is None and no_timers == []
    assert lobby.autofill_due_tables(now=timezone.now() + timedelta(days=1)) == []


# --- Play against bots --------------------------------------------------------------------------


def test_play_against_bots_starts_at_once_and_redirects_to_the_game(client, users):
    (alice,) = users("alice")
    client.force_login(alice)
    response = client.post(
        reverse("play"), {"bots": 3, "level": "random", "draw_after_battle": "on"}
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == f"/games/{game.pk}/"
    assert game.status == Game.Status.PLAYING and game.snapshot
    assert game.players == 4
    assert game.options == {**ALL_OFF, "draw_after_battle": True}
    assert seat_table(game) == [("alice", "", None)] + [(None, "random", None)] * 3


def test_play_against_bots_refuses_a_level_that_does_not_exist(client, users):
    (alice,) = users("alice")
    client.force_login(alice)
    response = client.post(reverse("play"), {"bots": 2, "level": "grandmaster"})
    assert response.status_code == 400
    assert not Game.objects.exists()


# --- Pages --------------------------------------------------------------------------------------


def test_pages_that_play_need_a_login(client):
    for url in [reverse("lobby"), reverse("play"), reverse("table_new")]:
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response.url
    response = client.post(reverse("play_now"), {"players": 3})
    assert response.status_code == 302 and reverse("login") in response.url
    assert not Game.objects.exists()


def test_the_lobby_lists_open_tables_games_in_progress_and_your_own(client, users):
    alice, bob, carol = users("alice", "bob", "carol")
    open_table = lobby.play_now(bob, 5)
    playing = lobby.play_against_bots(carol, 2, "random")
    mine = lobby.play_now(alice, 4)
    client.force_login(alice)

    page = client.get(reverse("lobby")).content.decode()
    own, rest = page.split('data-list="open"')
    open_list, in_progress = rest.split('data-list="playing"')
    assert f'data-table-id="{mine.pk}"' in own
    assert f'data-table-id="{open_table.pk}"' in open_list
    assert f'data-table-id="{playing.pk}"' in in_progress
    assert "1 of 5 seats taken" in open_list


def test_a_started_table_page_leads_to_the_game(client, users):
    (alice,) = users("alice")
    game = lobby.play_against_bots(alice, 1, "random")
    client.force_login(alice)
    response = client.get(reverse("table_detail", args=[game.pk]))
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"


def test_opening_the_lobby_fills_a_table_whose_wait_is_over(client, users):
    """The sweep also runs on page views, so a timer lost in a restart cannot strand a table."""
    alice, bob = users("alice", "bob")
    game = lobby.play_now(alice, 3, autofill_level="random", autofill_seconds=0)
    client.force_login(bob)
    client.get(reverse("lobby"))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert [row[1] for row in seat_table(game)] == ["", "random", "random"]


# --- Concurrency (PostgreSQL: real row locks, real parallel transactions) -----------------------


def race(calls):
    """Run the calls at the same moment, each on its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            outcomes[index] = call()
        except LobbyError as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_many_people_racing_for_the_last_seat_get_it_once(django_user_model):
    require_postgresql()
    host = django_user_model.objects.create(username="host")
    rivals = [django_user_model.objects.create(username=f"rival{n}") for n in range(6)]
    game = lobby.create_table(host, 2, [SeatPlan("me"), SeatPlan("open")])

    outcomes = race([partial(lobby.join_table, game.pk, rival) for rival in rivals])
    seated = [outcome for outcome in outcomes if isinstance(outcome, Seat)]
    assert len(seated) == 1
    assert all(isinstance(outcome, LobbyError) for outcome in outcomes if outcome not in seated)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert Seat.objects.filter(game=game, user__isnull=False).count() == 2


@pytest.mark.django_db(transaction=True)
def test_one_person_joining_twice_at_once_gets_one_seat(django_user_model):
    require_postgresql()
    host = django_user_model.objects.create(username="host")
    eager = django_user_model.objects.create(username="eager")
    game = lobby.create_table(host, 4, [SeatPlan("me")] + [SeatPlan("open")] * 3)

    outcomes = race([partial(lobby.join_table, game.pk, eager) for _ in range(4)])
    assert sum(isinstance(outcome, Seat) for outcome in outcomes) == 1
    assert Seat.objects.filter(game=game, user=eager).count() == 1


# --- Announcing the autofill -------------------------------------------------------------------


def test_the_autofill_is_announced_for_just_after_the_wait(announced):
    REAL_SCHEDULE_AUTOFILL(1, timezone.now() + timedelta(seconds=30))
    [(name, args, delay)] = announced
    assert (name, args) == ("autofill", (1,)) and 30 <= delay <= 31


def test_the_autofill_job_fills_only_the_table_it_names(users, announced):
    [host, other] = users("host", "other")
    waiting = lobby.play_now(host, 2, ALL_OFF, autofill_level="random", autofill_seconds=0)
    other_table = lobby.play_now(other, 3, ALL_OFF, autofill_level="random", autofill_seconds=0)
    assert lobby.autofill_table(waiting.pk) is True
    assert lobby.autofill_table(waiting.pk) is False  # done already: safe to run twice
    assert Game.objects.get(pk=waiting.pk).status == Game.Status.PLAYING
    assert Game.objects.get(pk=other_table.pk).status == Game.Status.OPEN


def test_celery_workers_know_the_autofill_job():
    from condottiere_site.celery import app

    app.loader.import_default_modules()
    assert "games.autofill" in app.tasks


@pytest.mark.django_db
def test_the_lobby_page_counts_the_open_tables_it_does_not_list(client, make_user, settings):
    settings.LOBBY_OPEN_TABLES_LISTED = 1
    for host in [make_user() for _ in range(3)]:
        lobby.create_table(host, 2, [SeatPlan("me"), SeatPlan("open")])
    client.force_login(make_user("watcher"))
    page = client.get(reverse("lobby")).content.decode()
    assert "Open tables not listed here: 2." in page
    settings.LOBBY_OPEN_TABLES_LISTED = 50
    page = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="more-open-tables" hidden' in page
