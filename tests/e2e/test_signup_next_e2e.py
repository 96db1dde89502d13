"""A new player who opens an invitation link while logged out signs up and lands on that table,
in a real Chromium against the real ASGI server."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Seat

pytestmark = pytest.mark.e2e

PASSWORD = "Gonfalonier-of-Florence-1478"


@pytest.fixture
def invitation(create_player):
    """A three-seat table opened by its host, two seats free."""
    game = Game.objects.create(players=3)
    Seat.objects.create(game=game, index=0, user=create_player("host"))
    Seat.objects.create(game=game, index=1)
    Seat.objects.create(game=game, index=2)
    return game


def test_signing_up_from_an_invitation_link_lands_on_the_table(page, live_url, invitation):
    table_path = f"/invite/{invitation.invite_code}/"
    page.goto(f"{live_url}{table_path}")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))

    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("giovanna")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()

    expect(page).to_have_url(f"{live_url}{table_path}")
    expect(page.get_by_role("heading", name=f"Table {invitation.pk}")).to_be_visible()
    expect(page.get_by_role("button", name="Take my seat")).to_be_visible()
