"""Bot accounts and their tokens: made, shown once, stored hashed, scoped, revoked; a bot never
logs in in a browser."""

import hashlib

import pytest
from django.test import Client
from django.urls import reverse

from games.accounts.deletion import delete_account
from games.botapi import accounts, tokens
from games.botapi.models import SCOPE_CHALLENGE, SCOPE_PLAY, AccessToken, BotAccount
from games.lobby.tables import play_against_bots


def test_a_token_is_stored_as_its_digest_and_shown_only_once(make_user, make_bot):
    owner = make_user("owner")
    bot = make_bot("robot", owner=owner)
    client = Client()
    client.force_login(owner)
    response = client.post(
        reverse("botapi_create_token", args=["robot"]),
        {"name": "laptop", "scopes": [SCOPE_PLAY]},
    )
    assert response.status_code == 200
    secret = response.context["new"].secret
    assert secret.startswith("cdt_") and len(secret) >= 40
    assert secret in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    token = AccessToken.objects.get(user=bot)
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {token.digest, token.prefix, token.name}
    assert token.scopes == [SCOPE_PLAY]
    # The profile lists it by its prefix, never whole.
    profile = client.get(reverse("profile")).content.decode()
    assert token.prefix in profile and secret not in profile


def test_only_the_owner_makes_or_revokes_a_bots_tokens(make_user, make_bot, make_token):
    bot = make_bot("robot", owner=make_user("owner"))
    secret = make_token(bot)
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    response = stranger.post(
        reverse("botapi_create_token", args=["robot"]), {"name": "x", "scopes": [SCOPE_PLAY]}
    )
    assert response.status_code == 404
    token = AccessToken.objects.get(user=bot)
    assert stranger.post(reverse("botapi_revoke_token", args=[token.pk])).status_code == 404
    assert tokens.token_for(secret, SCOPE_PLAY) == token


def test_the_owner_revokes_a_token_and_it_stops_working(make_user, make_bot, make_token, api):
    owner = make_user("owner")
    bot = make_bot("robot", owner=owner)
    secret = make_token(bot)
    assert api.call("GET", "/api/bot/account", secret)[0] == 200
    client = Client()
    client.force_login(owner)
    token = AccessToken.objects.get(user=bot)
    client.post(reverse("botapi_revoke_token", args=[token.pk]))
    status, body = api.call("GET", "/api/bot/account", secret)
    assert (status, body["error"]) == (401, "revoked_token")
    token.refresh_from_db()
    assert token.revoked_by == owner


def test_staff_revoke_tokens_from_the_admin(make_user, make_bot, make_token, api):
    bot = make_bot()
    secret = make_token(bot)
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    token = AccessToken.objects.get(user=bot)
    response = client.post(
        reverse("admin:botapi_accesstoken_changelist"),
        {"action": "revoke_tokens", "_selected_action": [token.pk]},
    )
    assert response.status_code == 302
    assert api.call("GET", "/api/bot/account", secret)[1]["error"] == "revoked_token"


@pytest.mark.parametrize(
    ("header", "code", "status"),
    [
        (None, "no_token", 401),
        ("Bearer cdt_not-a-real-token", "bad_token", 401),
        ("Bearer something-else", "bad_token", 401),
    ],
)
def test_a_request_without_a_good_token_is_refused_with_a_code(api, db, header, code, status):
    headers = {"Authorization": header} if header else {}
    response = api.get("/api/bot/account", headers=headers)
    assert response.status_code == status
    assert response.json()["error"] == code


# Committed: the event stream reads its token on a database thread of its own (on PostgreSQL),
# which sees only what is committed.
@pytest.mark.django_db(transaction=True)
def test_a_token_acts_only_within_its_scopes(make_bot, make_token, api):
    bot = make_bot()
    play_only = make_token(bot, [SCOPE_PLAY])
    status, body = api.call("POST", "/api/bot/table", play_only, {"seats": ["me", "random"]})
    assert (status, body["error"]) == (403, "missing_scope")
    tables_only = make_token(bot, [SCOPE_CHALLENGE])
    status, body = api.call("GET", "/api/bot/stream/event", tables_only)
    assert (status, body["error"]) == (403, "missing_scope")


def test_unknown_scopes_are_refused(make_bot):
    with pytest.raises(tokens.TokenRefused) as refused:
        tokens.create_token(make_bot(), "x", ["admin:everything"])
    assert refused.value.code == "invalid_scopes"


def test_a_bot_account_cannot_log_in_in_the_browser(make_bot, make_user):
    bot = make_bot("robot")
    browser = Client()
    response = browser.post(reverse("login"), {"username": "robot", "password": "anything"})
    assert "This is a bot account" in response.content.decode()
    assert "_auth_user_id" not in browser.session
    assert not bot.has_usable_password()
    # A person's log-in is not affected.
    person = make_user("person")
    person.set_password("Mercenary-Captain-1494")
    person.save()
    client = Client()
    client.post(reverse("login"), {"username": "person", "password": "Mercenary-Captain-1494"})
    assert client.session["_auth_user_id"] == str(person.pk)


def test_a_fresh_account_upgrades_itself_and_its_session_ends(make_user, api):
    user = make_user("fresh")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("botapi_upgrade"), {"confirm": "on"})
    assert response.status_code == 200
    secret = response.context["new"].secret
    assert BotAccount.objects.filter(user=user, owner=None).exists()
    assert client.get(reverse("profile")).status_code == 302  # logged out
    status, body = api.call("GET", "/api/bot/account", secret)
    assert (status, body["username"], body["bot"]) == (200, "fresh", True)


def test_an_account_that_played_cannot_become_a_bot(make_user):
    user = make_user("veteran")
    play_against_bots(user, 1, "random")
    with pytest.raises(accounts.BotAccountRefused) as refused:
        accounts.upgrade_to_bot(user)
    assert refused.value.code == "has_games"
    assert not BotAccount.objects.filter(user=user).exists()


def test_the_bot_is_marked_on_its_profile_and_a_person_may_challenge_it(make_bot, make_user):
    make_bot("robot")
    client = Client()
    client.force_login(make_user("person"))
    page = client.get(reverse("player", args=["robot"])).content.decode()
    assert 'data-testid="bot-badge"' in page and 'data-testid="challenge-bot"' in page
    person_page = client.get(reverse("player", args=["person"])).content.decode()
    assert 'data-testid="bot-badge"' not in person_page


def test_deleting_an_account_revokes_its_bots_tokens(make_user, make_bot, make_token):
    owner = make_user("owner")
    bot = make_bot("robot", owner=owner)
    other = make_bot("other")
    make_token(bot)
    make_token(other)
    delete_account(owner)
    assert not AccessToken.objects.filter(user=bot, revoked_at__isnull=True).exists()
    assert AccessToken.objects.filter(user=other, revoked_at__isnull=True).count() == 1
