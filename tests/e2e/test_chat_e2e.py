"""Table talk in Chromium: two players chat at their table, one shows a card to the other, who
sees it; a spectator reads only the spectators' room and never sees the shown card. Everything
goes through the pages and the real sockets of the live server."""

import re

import pytest
from playwright.sync_api import expect

from games.board.words import card_labels
from games.engine import view_for
from games.models import Game, Seat
from games.services import load_state, start_game

pytestmark = pytest.mark.e2e


@pytest.fixture
def game(create_player):
    game = Game.objects.create(players=2, seed=21)
    Seat.objects.create(game=game, index=0, user=create_player("alice"))
    Seat.objects.create(game=game, index=1, user=create_player("bruno"))
    start_game(game.pk)
    return Game.objects.get(pk=game.pk)


def open_game(new_page, log_in, live_url, game, user=None):
    page = new_page(1280, 900)
    if user is not None:
        log_in(page, user)
    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("[data-chat]")).to_be_visible()
    return page


def say(page, text):
    page.locator("[data-chat-input]").fill(text)
    page.locator("[data-chat-input]").press("Enter")


def test_players_chat_and_show_a_card_and_the_spectator_sees_neither(
    new_page, log_in, live_url, game, create_player
):
    alice = Seat.objects.get(game=game, index=0).user
    bruno = Seat.objects.get(game=game, index=1).user
    red = open_game(new_page, log_in, live_url, game, alice)
    blue = open_game(new_page, log_in, live_url, game, bruno)
    watcher = open_game(new_page, log_in, live_url, game, create_player("carla"))

    say(red, "Blue, <b>shall we</b> share Milano?")
    # Shown as text: the markup is visible as typed, never made into an element.
    expect(blue.locator(".chat__text")).to_have_text(["Blue, <b>shall we</b> share Milano?"])
    expect(blue.locator(".chat__text b")).to_have_count(0)
    say(watcher, "Red is bluffing")
    expect(watcher.locator(".chat__text")).to_have_text(["Red is bluffing"])
    expect(red.locator(".chat__text")).to_have_text(["Blue, <b>shall we</b> share Milano?"])
    expect(watcher.locator(".chat__text")).to_have_count(1)  # never the players' message

    # Red shows its first card to Blue.
    first = view_for(load_state(game), 0)["hand"][0]
    title = card_labels()[first]["title"]
    red.locator("[data-show-form] summary").click()
    red.locator("[data-show-card]").first.check()
    red.locator("[data-show-to]").select_option("1")
    red.locator("[data-show-submit]").click()
    expect(blue.get_by_test_id("shown-cards")).to_have_text(re.compile(f"showed you: {title}"))
    expect(red.get_by_test_id("shown-cards")).to_have_text(re.compile(f"You showed .*{title}"))
    expect(watcher.locator("[data-log]")).to_contain_text("showed 1 card to")
    expect(watcher.get_by_test_id("shown-cards")).to_be_hidden()
