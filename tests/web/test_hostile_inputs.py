"""Hostile values of the seat a person asks for when joining a table: each is refused with a
message on the table page (a redirect), never a 500, and changes nothing."""

import pytest
from django.urls import reverse

from games.lobby import tables as lobby
from games.lobby.tables import SeatPlan
from games.models import Action, Game, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_timers(monkeypatch):
    monkeypatch.setattr(lobby, "schedule_autofill", lambda pk, when: None)


def everything():
    games = list(Game.objects.order_by("pk").values_list("pk", "status", "version"))
    seats = list(Seat.objects.order_by("pk").values_list("pk", "user", "bot_level"))
    return games, seats, Action.objects.count()


@pytest.fixture
def table(make_user):
    alice = make_user("alice")
    return lobby.create_table(alice, 3, [SeatPlan("me"), SeatPlan("open"), SeatPlan("open")])


@pytest.mark.parametrize("seat", ["²", "-1", "99", "1.5", "1e3", " 1", "٣", "9" * 5_000])
@pytest.mark.parametrize("route", ["table_join", "invite"])
def test_joining_with_a_seat_that_is_no_seat_is_refused_and_changes_nothing(
    client, make_user, table, seat, route
):
    client.force_login(make_user("bob"))
    before = everything()
    args = [table.pk] if route == "table_join" else [table.invite_code]

    response = client.post(reverse(route, args=args), {"seat": seat})

    assert response.status_code == 302
    assert response["Location"] == reverse("table_detail", args=[table.pk])
    page = client.get(response["Location"]).content.decode()
    assert "There is no such seat at this table." in page
    assert everything() == before


def test_joining_a_taken_seat_is_refused_and_changes_nothing(client, make_user, table):
    client.force_login(make_user("bob"))
    before = everything()

    response = client.post(reverse("table_join", args=[table.pk]), {"seat": "0"}, follow=True)

    assert response.status_code == 200
    assert "That seat is not free for you." in response.content.decode()
    assert everything() == before


@pytest.mark.parametrize("data", [{"seat": ""}, {}])
def test_joining_without_a_seat_takes_a_free_one(client, make_user, table, data):
    bob = make_user("bob")
    client.force_login(bob)

    response = client.post(reverse("table_join", args=[table.pk]), data)

    assert response.status_code == 302
    assert Seat.objects.get(game=table, user=bob).index == 1


def test_joining_a_chosen_free_seat_takes_it(client, make_user, table):
    bob = make_user("bob")
    client.force_login(bob)

    response = client.post(reverse("table_join", args=[table.pk]), {"seat": "2"})

    assert response.status_code == 302
    assert Seat.objects.get(game=table, user=bob).index == 2
