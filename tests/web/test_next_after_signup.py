"""Signing up or logging in from any page that needs an account lands the person on that page.

Every entry point a logged-out visitor can follow (an invitation link, "Play against bots",
"Create a table", a table's page, the lobby) sends them to the log-in page with `next`; the
"Create an account" link there, and the "Log in" link of the sign-up page, must carry it on, and
the sign-up must honour it. Each test walks the links a person would click, on the real views.
"""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "Sforza-of-Milan-1450"
User = get_user_model()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def table(make_user, make_table):
    return make_table(3, people={0: make_user("host")})


ENTRY_POINTS = {
    "an invitation link": lambda table: reverse("invite", args=[table.invite_code]),
    "play against bots": lambda table: reverse("play"),
    "create a table": lambda table: reverse("table_new"),
    "a table's page": lambda table: reverse("table_detail", args=[table.pk]),
    "the lobby": lambda table: reverse("lobby"),
}


def link_href(page: str, text: str) -> str:
    """The href of the form's aside link whose text is `text` (the header has its own links)."""
    page = page[page.index('class="panel__aside"') :]
    match = re.search(r'<a href="([^"]*)"[^>]*>\s*' + re.escape(text) + r"\s*</a>", page)
    assert match, f"no link {text!r} on the page"
    return unescape(match.group(1))


def hidden_next(page: str) -> str:
    match = re.search(r'<input type="hidden" name="next" value="([^"]*)"', page)
    return unescape(match.group(1)) if match else ""


def login_page_for(client, entry: str) -> str:
    """Where a logged-out visitor who opens `entry` is sent: the log-in page, with `next`."""
    response = client.get(entry)
    assert response.status_code == 302
    location = response["Location"]
    assert parse_qs(urlsplit(location).query)["next"] == [entry]
    return location


def sign_up_through(client, signup_url: str) -> str:
    page = client.get(signup_url).content.decode()
    data = {
        "username": "federico",
        "display_name": "Federico",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "next": hidden_next(page),
    }
    response = client.post(reverse("signup"), data)
    assert response.status_code == 302
    return response["Location"]


@pytest.mark.parametrize("entry_point", ENTRY_POINTS)
def test_signing_up_from_an_entry_point_lands_on_it(client, table, entry_point):
    entry = ENTRY_POINTS[entry_point](table)
    login_page = client.get(login_page_for(client, entry)).content.decode()

    signup_url = link_href(login_page, "Create an account")

    assert sign_up_through(client, signup_url) == entry
    assert client.get(entry).status_code == 200  # logged in, it opens


@pytest.mark.parametrize("entry_point", ENTRY_POINTS)
def test_the_sign_up_pages_log_in_link_keeps_where_you_were_going(
    client, table, entry_point, make_user
):
    entry = ENTRY_POINTS[entry_point](table)
    login_page = client.get(login_page_for(client, entry)).content.decode()
    signup_page = client.get(link_href(login_page, "Create an account")).content.decode()
    User.objects.create_user(username="colleoni", password=PASSWORD)

    login_url = link_href(signup_page, "Log in")
    page = client.get(login_url).content.decode()
    response = client.post(
        reverse("login"),
        {"username": "colleoni", "password": PASSWORD, "next": hidden_next(page)},
    )

    assert response.status_code == 302
    assert response["Location"] == entry


def test_a_sign_up_that_fails_keeps_next_for_the_second_try(client, table):
    entry = ENTRY_POINTS["an invitation link"](table)
    signup_url = f"{reverse('signup')}?next={entry}"
    data = {"username": "federico", "password1": PASSWORD, "password2": "different", "next": entry}

    page = client.post(signup_url, data).content.decode()

    assert hidden_next(page) == entry
    assert link_href(page, "Log in").endswith(f"?next={entry.replace('/', '%2F')}")


def test_a_next_to_another_site_is_neither_carried_nor_followed(client):
    signup_url = f"{reverse('signup')}?next=https://evil.example/"
    page = client.get(signup_url).content.decode()

    assert hidden_next(page) == ""
    assert link_href(page, "Log in") == reverse("login")
    assert sign_up_through(client, signup_url) == reverse("home")


def header_href(page: str, text: str) -> str:
    """The href of the site header's account link whose text is `text`."""
    page = page[page.index('class="account-nav"') :]
    match = re.search(r'<a (?:class="[^"]*" )?href="([^"]*)"[^>]*>\s*' + re.escape(text), page)
    assert match, f"no header link {text!r}"
    return unescape(match.group(1))


PUBLIC_PAGES = {
    "the leaderboard": lambda table: reverse("leaderboard"),
    "the rules": lambda table: reverse("rules"),
    "the history, page 2": lambda table: reverse("history") + "?page=2",
    "a game's page": lambda table: reverse("game", args=[table.pk]),
}


@pytest.mark.parametrize("page_name", PUBLIC_PAGES)
def test_the_headers_links_carry_the_page_they_were_followed_from(client, table, page_name):
    table.status = "playing"
    table.save(update_fields=["status"])
    entry = PUBLIC_PAGES[page_name](table)
    page = client.get(entry).content.decode()

    for text in ("Log in", "Sign up"):
        assert parse_qs(urlsplit(header_href(page, text)).query)["next"] == [entry]
    assert sign_up_through(client, header_href(page, "Sign up")) == entry


def test_the_headers_links_on_the_log_in_page_keep_its_next(client, table):
    entry = ENTRY_POINTS["an invitation link"](table)
    page = client.get(login_page_for(client, entry)).content.decode()

    assert parse_qs(urlsplit(header_href(page, "Sign up")).query)["next"] == [entry]
    assert parse_qs(urlsplit(header_href(page, "Log in")).query)["next"] == [entry]


def test_the_home_pages_header_links_are_plain(client):
    page = client.get(reverse("home")).content.decode()

    assert header_href(page, "Log in") == reverse("login")
    assert header_href(page, "Sign up") == reverse("signup")
