"""The lobby in Chromium against the real ASGI server: two people meet at a table and play.

A creates a 3-player table with a bot seat; B, already looking at the lobby, sees it appear
without reloading (the lobby socket), joins, and both browsers land on the game page.
"""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game

pytestmark = pytest.mark.e2e


def test_a_table_created_in_one_browser_appears_live_in_another_and_both_reach_the_game(
    new_page, live_url, create_player, log_in
):
    alice = create_player("alice", display_name="Alice")
    bob = create_player("bob", display_name="Bob")
    page_a = log_in(new_page(), alice)
    page_b = log_in(new_page(), bob)

    page_b.goto(f"{live_url}/lobby/")
    open_tables = page_b.get_by_test_id("open-tables")
    expect(open_tables).to_contain_text("No open table right now")
    expect(page_b.locator("[data-live-status]")).to_have_text("Live")

    page_a.goto(f"{live_url}/lobby/")
    page_a.get_by_test_id("create-table").click()
    expect(page_a).to_have_url(f"{live_url}/tables/new/")
    page_a.locator('[name="players"]').select_option("3")
    page_a.locator('[name="seat_1_kind"]').select_option("bot")
    page_a.locator('[name="seat_1_level"]').select_option("random")
    expect(page_a.locator('[name="seat_2_kind"]')).to_have_value("open")
    expect(page_a.locator('[data-seat-row="3"]')).to_be_hidden()
    page_a.get_by_test_id("create-table-submit").click()
    expect(page_a).to_have_url(re.compile(rf"{live_url}/tables/\d+/$"))
    table_id = int(page_a.url.rstrip("/").rsplit("/", 1)[1])
    expect(page_a.get_by_test_id("seats")).to_contain_text("Open seat")

    # B's lobby shows the new table without a reload.
    card = open_tables.locator(f'[data-table-id="{table_id}"]')
    expect(card).to_contain_text("2 of 3 seats taken")
    expect(card).to_contain_text("Alice")
    card.get_by_role("button", name="Join").click()

    game_url = f"{live_url}/games/{table_id}/"
    expect(page_b).to_have_url(game_url)
    # A's table page follows its table and moves on to the board when the game starts.
    expect(page_a).to_have_url(game_url, timeout=15_000)

    game = Game.objects.get(pk=table_id)
    assert game.status in {Game.Status.PLAYING, Game.Status.FINISHED}
    seats = list(game.seats.order_by("index"))
    assert [seat.user_id for seat in seats] == [alice.pk, None, bob.pk]
    assert seats[1].bot_level == "random"
