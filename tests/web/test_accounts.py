"""Accounts through the real URLs and templates: sign up, log in and out, passwords, profiles."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "Sforza-of-Milan-1450"
User = get_user_model()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """The real hasher is slow on purpose; these tests check accounts, not its cost."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def player():
    return User.objects.create_user(
        username="colleoni", password=PASSWORD, display_name="Bartolomeo"
    )


@pytest.fixture
def rival():
    return User.objects.create_user(username="hawkwood", password=PASSWORD, display_name="")


def logged_in_user(client):
    return client.get(reverse("home")).wsgi_request.user


def signup_data(**overrides):
    data = {
        "username": "federico",
        "display_name": "Federico da Montefeltro",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return data | overrides


# --- Sign up ----------------------------------------------------------------------------------


def test_sign_up_creates_the_user_and_logs_them_in(client):
    response = client.post(reverse("signup"), signup_data(), follow=True)

    user = User.objects.get(username="federico")
    assert user.display_name == "Federico da Montefeltro"
    assert user.check_password(PASSWORD)
    assert logged_in_user(client) == user
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Federico da Montefeltro" in response.content.decode()


def test_sign_up_follows_a_safe_next_but_not_an_outside_one(client):
    response = client.post(reverse("signup"), signup_data(next=reverse("lobby")))
    assert response.url == reverse("lobby")

    other = Client()
    response = other.post(
        reverse("signup"), signup_data(username="ludovico", next="https://evil.example/")
    )
    assert response.url == reverse("home")


def test_sign_up_rejects_mismatched_passwords_and_creates_nobody(client):
    response = client.post(reverse("signup"), signup_data(password2="something-else-entirely"))

    assert response.status_code == 200
    assert not User.objects.filter(username="federico").exists()
    assert 'class="errorlist' in response.content.decode()


def test_sign_up_rejects_a_taken_username(client, player):
    client.post(reverse("signup"), signup_data(username="colleoni"))
    assert User.objects.filter(username="colleoni").count() == 1


def test_sign_up_enforces_csrf():
    client = Client(enforce_csrf_checks=True)

    refused = client.post(reverse("signup"), signup_data())
    assert refused.status_code == 403
    assert not User.objects.filter(username="federico").exists()

    form_page = client.get(reverse("signup"))
    token = form_page.context["csrf_token"]
    assert f'name="csrfmiddlewaretoken" value="{token}"' in form_page.content.decode()
    accepted = client.post(reverse("signup"), signup_data(csrfmiddlewaretoken=token))
    assert accepted.status_code == 302
    assert User.objects.filter(username="federico").exists()


# --- Log in, log out --------------------------------------------------------------------------


def test_log_in_with_the_right_password(client, player):
    response = client.post(reverse("login"), {"username": "colleoni", "password": PASSWORD})

    assert response.status_code == 302
    assert logged_in_user(client) == player


def test_log_in_with_a_wrong_password_is_refused(client, player):
    response = client.post(reverse("login"), {"username": "colleoni", "password": "wrong"})

    assert response.status_code == 200
    assert not logged_in_user(client).is_authenticated


def test_log_out_is_a_post_and_ends_the_session(client, player):
    client.force_login(player)

    assert client.get(reverse("logout")).status_code == 405
    assert logged_in_user(client).is_authenticated

    response = client.post(reverse("logout"), follow=True)
    assert not logged_in_user(client).is_authenticated
    assert "You have logged out." in response.content.decode()


def test_the_header_logout_is_a_csrf_protected_form(client, player):
    client.force_login(player)
    html = client.get(reverse("home")).content.decode()

    form = re.search(rf'<form[^>]*action="{reverse("logout")}".*?</form>', html, re.S)
    assert form, "the header has a logout form"
    assert 'method="post"' in form.group(0)
    assert "csrfmiddlewaretoken" in form.group(0)


# --- Password change --------------------------------------------------------------------------


def test_password_change_replaces_the_password(client, player):
    client.force_login(player)
    new_password = "Condottiere-Gattamelata-1370"

    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
        follow=True,
    )

    player.refresh_from_db()
    assert player.check_password(new_password)
    assert response.redirect_chain[-1][0] == reverse("profile")
    assert logged_in_user(client) == player, "changing the password keeps the session"
    assert Client().login(username="colleoni", password=new_password)
    assert not Client().login(username="colleoni", password=PASSWORD)


def test_password_change_needs_the_old_password(client, player):
    client.force_login(player)
    client.post(
        reverse("password_change"),
        {"old_password": "not-it", "new_password1": "Xy-new-9876", "new_password2": "Xy-new-9876"},
    )
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


# --- Profiles ---------------------------------------------------------------------------------


def test_own_profile_shows_display_name_member_since_and_games_played(client, player):
    client.force_login(player)
    response = client.get(reverse("profile"))
    html = response.content.decode()

    assert response.status_code == 200
    assert "Bartolomeo" in html
    assert "Member since" in html
    assert f'datetime="{player.date_joined.isoformat()}"' in html
    assert "Games played" in html
    assert re.search(r'data-testid="games-played">\s*0\s*<', html)


def test_the_owner_renames_themselves(client, player):
    client.force_login(player)
    response = client.post(reverse("profile"), {"display_name": "Il Capitano"}, follow=True)

    player.refresh_from_db()
    assert player.display_name == "Il Capitano"
    assert "Il Capitano" in response.content.decode()


def test_a_display_name_too_long_is_refused(client, player):
    client.force_login(player)
    response = client.post(reverse("profile"), {"display_name": "x" * 41})

    assert response.status_code == 400
    player.refresh_from_db()
    assert player.display_name == "Bartolomeo"


def test_the_profile_edit_only_ever_changes_the_logged_in_player(client, player, rival):
    client.force_login(rival)
    client.post(reverse("profile"), {"display_name": "Sir John", "username": "colleoni"})

    player.refresh_from_db()
    rival.refresh_from_db()
    assert player.display_name == "Bartolomeo"
    assert rival.display_name == "Sir John"
    assert rival.username == "hawkwood"


def test_an_anonymous_visitor_cannot_edit_a_profile(client, player):
    response = client.post(reverse("profile"), {"display_name": "Hacked"})

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    player.refresh_from_db()
    assert player.display_name == "Bartolomeo"


def test_another_players_profile_is_visible_without_an_edit_form(client, player, rival):
    client.force_login(rival)
    response = client.get(reverse("player", args=["colleoni"]))
    html = response.content.decode()

    assert response.status_code == 200
    assert "Bartolomeo" in html and "@colleoni" in html
    assert "Games played" in html
    assert 'name="display_name"' not in html


def test_a_player_sees_the_edit_form_on_their_own_public_page(client, player):
    client.force_login(player)
    html = client.get(reverse("player", args=["colleoni"])).content.decode()
    assert 'name="display_name"' in html


def test_a_player_without_display_name_is_shown_by_username(client, rival):
    html = client.get(reverse("player", args=["hawkwood"])).content.decode()
    assert re.search(r'data-testid="profile-name">\s*hawkwood\s*<', html)


def test_an_unknown_player_is_not_found(client):
    assert client.get(reverse("player", args=["nobody"])).status_code == 404


# --- Pages that play need an account ----------------------------------------------------------


@pytest.mark.parametrize("name", ["play", "lobby", "my_games", "profile", "password_change"])
def test_pages_that_play_send_anonymous_visitors_to_log_in(client, name):
    response = client.get(reverse(name))

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse(name)}"


@pytest.mark.parametrize("name", ["play", "lobby", "my_games"])
def test_pages_that_play_open_for_a_logged_in_player(client, player, name):
    client.force_login(player)
    assert client.get(reverse(name)).status_code == 200


def test_the_public_history_needs_no_account(client):
    """The history of finished games is public, like a chess site's game archive."""
    assert client.get(reverse("history")).status_code == 200


# --- Header -----------------------------------------------------------------------------------


def test_the_header_shows_admin_only_to_staff(client, player):
    admin_link = f'href="{reverse("admin:index")}"'

    assert admin_link not in client.get(reverse("home")).content.decode()
    client.force_login(player)
    assert admin_link not in client.get(reverse("home")).content.decode()

    player.is_staff = True
    player.save()
    assert admin_link in client.get(reverse("home")).content.decode()


def test_the_header_offers_log_in_and_sign_up_to_visitors_and_the_profile_to_players(
    client, player
):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("login")}"' in html and f'href="{reverse("signup")}"' in html
    assert f'href="{reverse("profile")}"' not in html

    client.force_login(player)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("profile")}"' in html
    assert f'href="{reverse("signup")}"' not in html
