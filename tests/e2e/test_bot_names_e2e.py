"""A bot seat's name in the lobby is the same whether the server drew the card or the lobby
socket's live update did: the seat's condottiere with its level, e.g. "Sforza (random bot)"."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.words.bot_names import condottiere_name

pytestmark = pytest.mark.e2e


def test_a_bot_seat_is_named_the_same_live_and_on_a_reload(
    new_page, live_url, create_player, log_in
):
    alice = create_player("alice", display_name="Alice")
    bob = create_player("bob", display_name="Bob")
    page_a = log_in(new_page(), alice)
    page_b = log_in(new_page(), bob)
    page_b.goto(f"{live_url}/lobby/")
    expect(page_b.locator("[data-live-status]")).to_have_text("Live")

    page_a.goto(f"{live_url}/tables/new/")
    page_a.locator('[name="players"]').select_option("3")
    page_a.locator('[name="seat_1_kind"]').select_option("bot")
    page_a.locator('[name="seat_1_level"]').select_option("random")
    page_a.get_by_test_id("create-table-submit").click()
    expect(page_a).to_have_url(re.compile(rf"{live_url}/tables/\d+/$"))
    game = Game.objects.latest("pk")
    name = f"{condottiere_name(game.pk, 1)} (random bot)"

    # Drawn by lobby.js from the socket's table entry, without a reload.
    expect(page_b.get_by_test_id("open-tables")).to_contain_text(name)
    # Drawn by the server (templates/lobby/_seat.html) on the table's own page.
    expect(page_a.locator(".seat-chip__name").nth(1)).to_have_text(name)
    page_b.reload()
    expect(page_b.get_by_test_id("open-tables")).to_contain_text(name)
