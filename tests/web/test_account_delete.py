"""Deleting one's account: the person's data goes, their games stay under "Deleted player",
nobody else's rating moves, and the account can never log in again."""

import datetime
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Presence, Rating, RatingChange

pytestmark = pytest.mark.django_db

PASSWORD = "Sforza-of-Milan-1450"
BACKEND = "games.limits.throttles.ThrottledModelBackend"
User = get_user_model()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def own_throttle_counters(settings):
    settings.RATELIMIT_CACHE_PREFIX = f"rl:account-delete:{uuid.uuid4().hex}:"


@pytest.fixture
def player(client):
    user = User.objects.create_user(
        username="colleoni",
        password=PASSWORD,
        display_name="Bartolomeo",
        first_name="Bartolomeo",
        last_name="Colleoni",
        email="colleoni@bergamo.it",
        pending_email="bartolomeo@bergamo.it",
    )
    client.force_login(user, backend=BACKEND)
    return user


@pytest.fixture
def rival():
    return User.objects.create_user(username="hawkwood", password=PASSWORD, display_name="John")


@pytest.fixture
def rated_game(make_table, player, rival):
    """A finished game of the two, with both people's ratings and their changes."""
    game = make_table(2, people={0: player, 1: rival})
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        finished_at=timezone.now() - datetime.timedelta(hours=1),
        version=42,
        result={"winners": [1], "regions": [2, 6], "reason": "total"},
    )
    for seat, (user, mu) in enumerate([(player, 23.0), (rival, 27.0)]):
        rating = Rating.objects.create(user=user, mu=mu, sigma=7.5, games=1)
        RatingChange.objects.create(
            game=game,
            seat=seat,
            rating=rating,
            mu_before=25.0,
            sigma_before=8.3,
            mu_after=mu,
            sigma_after=7.5,
        )
    return game


def delete(client, password=PASSWORD):
    return client.post(reverse("account_delete"), {"password": password})


def ratings_of(user) -> list[tuple]:
    return list(
        RatingChange.objects.filter(rating__user=user).values_list(
            "game_id", "seat", "mu_before", "mu_after", "rating__mu", "rating__sigma"
        )
    )


def test_deleting_scrubs_the_person_and_keeps_their_games(client, player, rival, rated_game):
    Presence.objects.create(channel_name="specific.abc", user=player, game=rated_game)
    others_before = ratings_of(rival)
    other_session = Client()
    other_session.force_login(player, backend=BACKEND)

    response = delete(client)

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.username == f"deleted-{player.pk}"
    assert (player.display_name, player.first_name, player.last_name) == ("", "", "")
    assert (player.email, player.pending_email) == ("", "")
    assert not player.has_usable_password()
    assert not player.is_active and player.deleted_at is not None
    assert not Presence.objects.filter(user=player).exists()
    # Logged out here and everywhere else.
    assert client.get(reverse("profile")).status_code == 302
    assert other_session.get(reverse("profile")).status_code == 302
    # The game keeps its seat, under the anonymous name; the rival's rating is as it was.
    assert rated_game.seats.get(index=0).user_id == player.pk
    assert ratings_of(rival) == others_before
    history = Client().get(reverse("history")).content.decode()
    assert "Deleted player" in history and "John" in history
    assert "colleoni" not in history and "Bartolomeo" not in history


def test_a_deleted_account_cannot_log_in_and_its_username_is_free(client, player):
    delete(client)

    answer = Client().post(reverse("login"), {"username": "colleoni", "password": PASSWORD})
    assert answer.status_code == 200
    assert "Please enter a correct username and password" in answer.content.decode()
    # Nothing of the person stays in a session row.
    for session in Session.objects.all():
        assert session.get_decoded().get("_auth_user_id") != str(player.pk)

    newcomer = Client()
    newcomer.post(
        reverse("signup"),
        {"username": "colleoni", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert User.objects.filter(username="colleoni", is_active=True).exists()


def test_the_old_address_leads_nowhere_and_the_new_one_says_deleted(client, player):
    delete(client)
    player.refresh_from_db()

    assert Client().get(reverse("player", args=["colleoni"])).status_code == 404
    page = Client().get(reverse("player", args=[player.username]))
    assert page.status_code == 200
    assert "deleted their account" in page.content.decode()


def test_a_wrong_password_deletes_nothing(client, player):
    response = delete(client, "not-my-password")

    assert response.status_code == 400
    assert "That is not your password." in response.content.decode()
    player.refresh_from_db()
    assert player.username == "colleoni" and player.is_active and player.email


def test_wrong_passwords_are_throttled_like_log_ins(client, player, settings):
    settings.LOGIN_FAILURES_PER_USERNAME_AND_IP = 2

    answers = [delete(client, "guess").status_code for _ in range(3)]

    assert answers == [400, 400, 429]
    assert "Too many attempts" in delete(client).content.decode()
    player.refresh_from_db()
    assert player.is_active


@pytest.mark.parametrize("status", [Game.Status.OPEN, Game.Status.PLAYING])
def test_an_unfinished_game_blocks_the_deletion(client, player, make_table, status):
    game = make_table(2, people={0: player})
    Game.objects.filter(pk=game.pk).update(status=status)

    response = delete(client)

    assert response.status_code == 400
    assert "finish your games before deleting" in response.content.decode()
    assert f"Game #{game.pk}" in response.content.decode()
    player.refresh_from_db()
    assert player.is_active and player.username == "colleoni"


def test_an_invitation_to_an_open_table_is_freed(client, player, rival, make_table):
    game = make_table(2, people={0: rival})
    game.seats.filter(index=1).update(reserved_for=player)

    delete(client)

    assert game.seats.get(index=1).reserved_for_id is None


def test_deleting_needs_a_post_and_a_login(player):
    assert Client().post(reverse("account_delete"), {"password": PASSWORD}).status_code == 302
    logged_in = Client()
    logged_in.force_login(player, backend=BACKEND)
    assert logged_in.get(reverse("account_delete")).status_code == 405
    player.refresh_from_db()
    assert player.is_active
