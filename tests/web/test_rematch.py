"""Rematch: after a game, any of its players asks and gets a new table of the same seats and
settings; the other people are invited to their seats, bots come back at their levels, and the
game has one rematch however many times it is asked for. The offer as the game page reads it
(each seat's answer), Decline, and the game socket's live `rematch` frame."""

import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games.engine import current_player, legal_actions
from games.models import Game, Seat
from games.services import load_state, start_game, submit_action
from tests.services import in_ci, require_postgresql, require_redis
from tests.web.conftest import next_frame, ws_connect

OPTIONS = {"bigger_kingdoms": True}


@pytest.fixture(autouse=True)
def production_services_in_ci(announced):
    """`announced`: bots' turns are recorded, not run; the test plays every seat itself."""
    if in_ci():
        require_redis()
        require_postgresql()


def play_to_the_end(game: Game) -> Game:
    """Every seat's moves at random through the one way in, bots' seats as bots."""
    start_game(game.pk)
    rng = random.Random(5)
    bots = set(game.seats.exclude(bot_level="").values_list("index", flat=True))
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        state = load_state(game)
        seat = current_player(state)
        actor = "bot" if seat in bots else "human"
        submit_action(game.pk, seat, rng.choice(legal_actions(state)), game.version, actor=actor)


@pytest.fixture
def people(make_user):
    return {name: make_user(name) for name in ("alice", "bruno", "carla", "outsider")}


@pytest.fixture
def finished(people, make_table):
    """Four seats: alice, a strong bot, bruno, a random bot; a timer and an optional rule."""
    game = make_table(
        4,
        people={0: people["alice"], 2: people["bruno"]},
        bots={1: "hard", 3: "random"},
        options=OPTIONS,
        turn_seconds=60,
    )
    return play_to_the_end(game)


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def ask_rematch(user, game: Game):
    return client_of(user).post(reverse("rematch", args=[game.pk]))


def the_rematch(game: Game) -> Game:
    return Game.objects.get(rematch_of=game)


@pytest.mark.django_db(transaction=True)
def test_a_player_gets_a_table_with_the_same_seats_and_settings(finished, people):
    response = ask_rematch(people["bruno"], finished)

    table = the_rematch(finished)
    assert response.status_code == 302
    assert response["Location"] == reverse("table_detail", args=[table.pk])
    assert table.status == Game.Status.OPEN  # alice is asked; nobody plays for her
    assert (table.players, table.turn_seconds) == (4, 60)
    assert table.options == finished.options and table.options["bigger_kingdoms"] is True
    assert table.created_by == people["bruno"]
    seats = {seat.index: seat for seat in Seat.objects.filter(game=table)}
    assert seats[2].user == people["bruno"]  # the one who asks takes their old seat
    assert (seats[0].user, seats[0].reserved_for) == (None, people["alice"])  # invited
    assert (seats[1].bot_level, seats[3].bot_level) == ("hard", "random")
    assert seats[1].user is None and seats[3].user is None


@pytest.mark.django_db(transaction=True)
def test_the_invited_player_takes_their_seat_and_the_rematch_starts(finished, people):
    ask_rematch(people["bruno"], finished)
    table = the_rematch(finished)

    response = client_of(people["alice"]).post(reverse("invite", args=[table.invite_code]))

    table.refresh_from_db()
    assert response.status_code == 302
    assert table.status == Game.Status.PLAYING
    assert Seat.objects.get(game=table, index=0).user == people["alice"]


@pytest.mark.django_db(transaction=True)
def test_asking_again_gives_the_same_table_and_asking_when_asked_accepts(finished, people):
    first = ask_rematch(people["bruno"], finished)
    again = ask_rematch(people["bruno"], finished)
    other = ask_rematch(people["alice"], finished)

    table = the_rematch(finished)
    assert Game.objects.filter(rematch_of=finished).count() == 1
    assert Game.objects.count() == 2
    assert first["Location"] == again["Location"] == reverse("table_detail", args=[table.pk])
    # alice was asked to it: asking too is saying yes, and her seat was the last one.
    assert Seat.objects.get(game=table, index=0).user == people["alice"]
    assert table.status == Game.Status.PLAYING
    assert other["Location"] == reverse("game", args=[table.pk])


@pytest.mark.django_db(transaction=True)
def test_a_game_against_bots_only_restarts_at_once(people, make_table):
    game = play_to_the_end(make_table(2, people={0: people["carla"]}, bots={1: "heuristic"}))

    response = ask_rematch(people["carla"], game)

    table = the_rematch(game)
    assert table.status == Game.Status.PLAYING
    assert response["Location"] == reverse("game", args=[table.pk])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["outsider", None])
def test_only_a_player_of_the_game_may_ask(finished, people, who):
    response = ask_rematch(people[who] if who else None, finished)

    if who is None:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 403
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_game_still_being_played_has_no_rematch(people, make_table):
    game = make_table(2, people={0: people["alice"], 1: people["bruno"]})
    start_game(game.pk)

    response = ask_rematch(people["alice"], game)

    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.pk])
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_rematch_is_asked_by_post_only(finished, people):
    response = client_of(people["alice"]).get(reverse("rematch", args=[finished.pk]))

    assert response.status_code == 405
    assert Game.objects.count() == 1


# --- The offer, its answers and Decline --------------------------------------------------------


def ask_as_page(user, game: Game):
    """The game page's own request: JSON in, the offer out."""
    url = reverse("rematch", args=[game.pk])
    return client_of(user).post(url, headers={"accept": "application/json"})


def decline(user, game: Game):
    url = reverse("rematch_decline", args=[game.pk])
    return client_of(user).post(url, headers={"accept": "application/json"})


def answers(offer: dict) -> list[str]:
    return [seat["answer"] for seat in offer["seats"]]


@pytest.mark.django_db(transaction=True)
def test_the_page_asking_gets_the_offer_with_every_seats_answer(finished, people):
    response = ask_as_page(people["bruno"], finished)

    offer = response.json()["rematch"]
    table = the_rematch(finished)
    assert response.status_code == 200
    assert (offer["type"], offer["table"], offer["status"]) == ("rematch", table.pk, "open")
    assert offer["offered_by"] == 2  # bruno's seat in the finished game
    assert answers(offer) == ["waiting", "bot", "accepted", "bot"]
    assert offer["url"] == reverse("table_detail", args=[table.pk])
    assert offer["join_url"] == reverse("table_join", args=[table.pk])


@pytest.mark.django_db(transaction=True)
def test_declining_frees_the_seat_for_anyone_and_the_offer_says_so(finished, people):
    ask_as_page(people["bruno"], finished)

    response = decline(people["alice"], finished)

    table = the_rematch(finished)
    seat = Seat.objects.get(game=table, index=0)
    assert response.status_code == 200
    assert answers(response.json()["rematch"]) == ["declined", "bot", "accepted", "bot"]
    assert (seat.user, seat.reserved_for) == (None, None)
    assert table.status == Game.Status.OPEN


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["bruno", "outsider"])
def test_only_a_person_still_asked_may_decline(finished, people, who):
    ask_as_page(people["bruno"], finished)

    response = decline(people[who], finished)

    assert response.status_code == 400
    assert response.json()["error"] == "not_asked"
    assert Seat.objects.get(game=the_rematch(finished), index=0).reserved_for == people["alice"]


@pytest.mark.django_db(transaction=True)
def test_nothing_to_decline_before_anyone_asks(finished, people):
    response = decline(people["alice"], finished)

    assert response.status_code == 400
    assert response.json()["error"] == "no_rematch"
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_the_game_socket_sends_the_offer_on_connect_and_each_answer_live(finished, people):
    await database_sync_to_async(ask_as_page)(people["bruno"], finished)
    alice = await ws_connect(f"/ws/games/{finished.pk}/", people["alice"])
    bruno = await ws_connect(f"/ws/games/{finished.pk}/", people["bruno"])

    on_connect = await next_frame(alice, "rematch")
    await next_frame(bruno, "rematch")
    await database_sync_to_async(decline)(people["alice"], finished)
    told = await next_frame(bruno, "rematch")
    await alice.disconnect()
    await bruno.disconnect()

    assert answers(on_connect) == ["waiting", "bot", "accepted", "bot"]
    assert answers(told) == ["declined", "bot", "accepted", "bot"]


# --- New game: the table form pre-filled with a game's settings ----------------------------------


def test_the_new_table_form_is_pre_filled_from_the_link(client, people):
    client.force_login(people["alice"])
    query = (
        "players=4&turn_seconds=60&bigger_kingdoms=on"
        "&seat_0_kind=open&seat_1_kind=me&seat_2_kind=bot&seat_2_level=hard"
    )

    page = client.get(f"{reverse('table_new')}?{query}").content.decode()

    form = page[page.index("<form") :]
    assert '<option value="4" selected>' in form
    assert '<option value="60" selected>' in form
    assert re.search(r'<input type="checkbox" name="bigger_kingdoms"[^>]* checked>', form)
    selected = lambda name: form.split(f'name="{name}"')[1].split("</select>")[0]  # noqa: E731
    assert '<option value="me" selected>' in selected("seat_1_kind")
    assert '<option value="bot" selected>' in selected("seat_2_kind")
    assert '<option value="hard" selected>' in selected("seat_2_level")
