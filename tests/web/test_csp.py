"""Every page is served with the Content-Security-Policy, and obeys it.

The policy lets through only the site's own scripts and styles and the one inline script that
carries the response's nonce. So a page must hold no inline script without that nonce, no
inline <style>, no style attribute and no on* handler: any of them would be refused by the
browser (tests/e2e/test_csp_e2e.py watches a real one).
"""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import Game
from tests.web.test_replay import play_out

DATA_SCRIPT_TYPES = {"application/json", "application/ld+json"}


class InlineCode(HTMLParser):
    """Collects what the policy would refuse: inline scripts and styles without the nonce,
    style attributes and event-handler attributes."""

    def __init__(self, nonce: str):
        super().__init__()
        self.nonce = nonce
        self.refused: list[str] = []
        self.nonced_scripts = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name in attributes:
            if name == "style" or name.startswith("on"):
                self.refused.append(f"<{tag} {name}=...>")
        is_code = tag == "style" or (
            tag == "script"
            and "src" not in attributes
            and attributes.get("type") not in DATA_SCRIPT_TYPES
        )
        if is_code:
            if attributes.get("nonce") == self.nonce:
                self.nonced_scripts += 1
            else:
                self.refused.append(f"inline <{tag}> without the nonce")


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.strip().split() for part in header.split(";") if part.strip())
    return {words[0]: words[1:] for words in parts}


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_superuser(username="staff", password=None)
    client.force_login(staff)
    return client, staff


@pytest.fixture
def pages(staff_client, make_user, make_table):
    """Every kind of page: name -> URL, with a finished game and a game in play to show."""
    _client, staff = staff_client
    finished = play_out(make_table(2, people={0: staff, 1: make_user()}), seed=7)
    playing = make_table(2, people={0: staff, 1: make_user()})
    play_out(playing, seed=8, stop_after=3)
    open_table = make_table(3, people={0: staff})
    assert finished.status == Game.Status.FINISHED
    return {
        "home": reverse("home"),
        "lobby": reverse("lobby"),
        "play": reverse("play"),
        "new table": reverse("table_new"),
        "table": reverse("table_detail", args=[open_table.pk]),
        "game page": reverse("game", args=[playing.pk]),
        "replay": reverse("replay", args=[finished.pk]),
        "history": reverse("history"),
        "my games": reverse("my_games"),
        "record import": reverse("import_record"),
        "profile": reverse("profile"),
        "player": reverse("player", args=[staff.username]),
        "ratings": reverse("leaderboard"),
        "rules": reverse("rules"),
        "password change": reverse("password_change"),
        "staff dashboard": reverse("staff_dashboard"),
        "admin": reverse("admin:index"),
        "admin game list": reverse("admin:games_game_changelist"),
        "admin game": reverse("admin:games_game_change", args=[finished.pk]),
    }


def assert_obeys_the_policy(response, name: str) -> None:
    assert response.status_code == 200, name
    header = response.get("Content-Security-Policy")
    assert header, f"{name}: no Content-Security-Policy"
    policy = directives(header)
    assert policy["default-src"] == ["'self'"], name
    assert policy["frame-ancestors"] == ["'none'"], name
    assert "'unsafe-inline'" not in header, name
    assert policy["style-src"] == ["'self'"], name
    assert {"'self'", "ws://testserver", "wss://testserver"} <= set(policy["connect-src"]), name
    nonce_words = [word for word in policy["script-src"] if word.startswith("'nonce-")]
    nonce = re.fullmatch(r"'nonce-(.+)'", nonce_words[0]).group(1) if nonce_words else ""
    inline = InlineCode(nonce)
    inline.feed(response.content.decode())
    assert inline.refused == [], f"{name}: {inline.refused}"


def test_every_page_carries_the_policy_and_no_inline_code_without_its_nonce(staff_client, pages):
    client, _staff = staff_client
    for name, url in pages.items():
        assert_obeys_the_policy(client.get(url), name)


@pytest.mark.parametrize("name", ["login", "signup"])
def test_the_pages_of_a_visitor_carry_the_policy_too(client, name):
    assert_obeys_the_policy(client.get(reverse(name)), name)
    assert_obeys_the_policy(client.get(reverse("admin:login")), "admin login")


def test_the_nonce_is_new_for_every_response(client):
    first = directives(client.get(reverse("home"))["Content-Security-Policy"])
    second = directives(client.get(reverse("home"))["Content-Security-Policy"])
    assert first["script-src"] != second["script-src"]
    assert any(word.startswith("'nonce-") for word in first["script-src"])


def test_a_refused_log_in_is_under_the_policy_too(db, client):
    # A 429 page is a page like the others: same layout, same scripts.
    for _ in range(6):
        response = client.post(reverse("login"), {"username": "nobody", "password": "x"})
    assert response.status_code == 429
    assert response["Content-Security-Policy"]
