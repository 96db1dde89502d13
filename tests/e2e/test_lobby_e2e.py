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


def test_the_lobby_says_how_many_open_tables_it_does_not_list_and_keeps_count_live(
    new_page, live_url, create_player, log_in
):
    """The lobby lists at most LOBBY_OPEN_TABLES_LISTED open tables besides your own (50): the
    rest are counted under the list, and the count follows new tables without a reload."""
    from django.conf import settings

    from games.lobby import tables as lobby
    from games.lobby.tables import SeatPlan

    listed = settings.LOBBY_OPEN_TABLES_LISTED
    hosts = [create_player(f"host{index}") for index in range(listed // 3 + 1)]
    for index in range(listed + 1):  # one more than the list holds; 3 waiting tables per host
        lobby.create_table(hosts[index // 3], 2, [SeatPlan("me"), SeatPlan("open")])
    watcher = log_in(new_page(), create_player("watcher"))
    watcher.goto(f"{live_url}/lobby/")
    more = watcher.get_by_test_id("more-open-tables")
    expect(more).to_have_text("Open tables not listed here: 1. Play now seats you at one.")
    expect(watcher.get_by_test_id("open-tables").locator("[data-table-id]")).to_have_count(listed)
    expect(watcher.locator("[data-live-status]")).to_have_text("Live")

    opener = log_in(new_page(), create_player("opener"))
    opener.goto(f"{live_url}/tables/new/")
    opener.locator('[name="players"]').select_option("2")
    opener.get_by_test_id("create-table-submit").click()
    expect(opener).to_have_url(re.compile(rf"{live_url}/tables/\d+/$"))
    expect(more).to_have_text("Open tables not listed here: 2. Play now seats you at one.")


def test_a_renaissance_table_is_opened_with_its_own_options_and_shown_live_as_one(
    new_page, live_url, create_player, log_in
):
    """Choosing Renaissance shows its options and hides Condottiere's (and matches for points);
    the nation that leaves is asked only of a game of 1454 for four players. Another browser's
    lobby shows the table as Renaissance's, and joining it leads to the game's page."""
    alice = create_player("alice", display_name="Alice")
    bob = create_player("bob", display_name="Bob")
    page_a = log_in(new_page(), alice)
    page_b = log_in(new_page(), bob)
    page_b.goto(f"{live_url}/lobby/")
    expect(page_b.locator("[data-live-status]")).to_have_text("Live")

    page_a.goto(f"{live_url}/tables/new/")
    renaissance = page_a.get_by_test_id("renaissance-options")
    expect(renaissance).to_be_hidden()
    page_a.locator('[name="game"]').select_option("renaissance")
    expect(renaissance).to_be_visible()
    expect(page_a.locator('[name="hidden_cards"]')).to_be_hidden()
    expect(page_a.locator('[name="play_for_points"]')).to_be_hidden()
    page_a.locator('[name="players"]').select_option("4")
    expect(page_a.locator('[name="remove"]')).to_be_visible()
    page_a.locator('[name="scenario"]').select_option("1494")
    expect(page_a.locator('[name="remove"]')).to_be_hidden()
    page_a.locator('[name="powers"]').check()
    for seat in (2, 3):
        page_a.locator(f'[name="seat_{seat}_kind"]').select_option("bot")
    page_a.get_by_test_id("create-table-submit").click()
    expect(page_a).to_have_url(re.compile(rf"{live_url}/tables/\d+/$"))
    table_id = int(page_a.url.rstrip("/").rsplit("/", 1)[1])

    card = page_b.get_by_test_id("open-tables").locator(f'[data-table-id="{table_id}"]')
    expect(card.locator('[data-ruleset="renaissance"]')).to_have_text("Renaissance")
    expect(card).to_contain_text("Scenario 1494")
    card.get_by_role("button", name="Join").click()
    expect(page_b).to_have_url(f"{live_url}/games/{table_id}/")
    expect(page_b.get_by_test_id("rn-table")).to_be_visible()  # the Renaissance table, live
    expect(page_b.locator("[data-rn-root][data-version]")).to_have_count(1)  # a frame came

    game = Game.objects.get(pk=table_id)
    assert game.ruleset == "renaissance" and game.status == Game.Status.PLAYING
    assert game.options == {"scenario": "1494", "powers": True}
