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
from tests.e2e.conftest import DEFAULT_PASSWORD
from tests.e2e.seen import on_screen_and_on_top

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


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_an_anonymous_spectator_gets_a_log_in_link_back_to_the_game_and_no_chat_form(
    new_page, live_url, game, size
):
    page = new_page(*size)
    game_path = f"/games/{game.pk}/"
    page.goto(f"{live_url}{game_path}")
    chat = page.locator("[data-chat]")
    expect(chat).to_be_visible()
    # Reading is open to all; posting needs an account, so there is nothing to type into.
    expect(chat.locator("form, input, textarea, button[type=submit]")).to_have_count(0)
    link = chat.locator("[data-chat-login] a")
    expect(link).to_have_count(1)
    assert on_screen_and_on_top(link, scroll=True), "the log-in link is off screen or covered"
    assert link.evaluate("(a) => new URL(a.href).pathname") == "/accounts/login/"
    assert link.evaluate("(a) => new URL(a.href).searchParams.get('next')") == game_path


def test_after_logging_in_from_the_chat_the_spectator_is_back_at_the_game_with_the_form(
    new_page, live_url, game, create_player
):
    create_player("carla")
    page = new_page(1280, 900)
    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("[data-chat]")).to_be_visible()
    page.locator("[data-chat-login] a").click()
    page.locator("input[name=username]").fill("carla")
    page.locator("input[name=password]").fill(DEFAULT_PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_url}/games/{game.pk}/")
    form = page.locator("[data-chat-form]")
    expect(form).to_be_visible()
    expect(page.locator("[data-chat-login]")).to_have_count(0)
    say(page, "Hello from the stands")
    expect(page.locator(".chat__text")).to_have_text(["Hello from the stands"])
