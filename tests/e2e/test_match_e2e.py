"""A match for points in Chromium: opened from "Play against bots" with "Play for points" and a
target of 5, played by a stand-in bot for the person (so that the test takes seconds, not
minutes) against a fast random bot. The game page's end box shows the match's standings and, once
a game ends without deciding the match, takes the player on to the next game (a seat with a
stand-in is always ready); at the end it says who won, and the match page lists every game's
replay and the result. The "Ready" button's own path is covered by tests/matches.

Between two games of a match the end box's one filled button is "Ready for the next game" (no
Rematch: it would leave the match), the bots of the next game keep their names, and the match page
lists every game under the names it was played by.
"""

import random
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import current_player, legal_actions
from games.lobby.tables import SeatPlan, join_table
from games.matches.models import Match
from games.matches.services import advance, create_match, create_match_against_bots
from games.models import Game, Seat
from games.services import ServiceError, load_state, submit_action
from tests.e2e.seen import on_screen_and_on_top

pytestmark = pytest.mark.e2e

ROOT = "[data-game-root]"
MATCH_SECONDS = 90


def log_in(page, user, base_url):
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url}]
    )


def test_a_match_to_five_points_against_a_random_bot(server, page, create_player):
    log_in(page, create_player("mattia"), server)
    page.goto(f"{server}/play/")
    page.select_option("#id_bots", "1")
    page.select_option("#id_level", "random")
    expect(page.get_by_text("advises against Capturing Regions")).to_be_visible()
    page.get_by_label("Play for points").check()
    page.get_by_label("Target score").fill("5")
    page.locator("[data-testid=start-bots-game]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    match = Match.objects.get()
    assert match.target == 5

    page.wait_for_selector(f"{ROOT}[data-version]")
    page.locator("[data-standin] button").click()  # a bot plays for the person from now on

    box = page.locator("[data-match-box]")
    expect(box).to_have_attribute("data-match-status", "finished", timeout=MATCH_SECONDS * 1000)
    expect(box).to_contain_text("won the match")
    match.refresh_from_db()
    games = list(match.entries.order_by("number"))
    assert match.status == Match.Status.FINISHED and match.result["winners"]
    assert max(match.result["points"]) >= 5 or games[-1].decider
    # The page followed the match to its last game.
    assert page.url.endswith(f"/games/{games[-1].game_id}/")
    expect(box.locator("tbody tr")).to_have_count(len(games))

    box.get_by_role("link", name="Match to 5 points").click()
    page.wait_for_url(f"{server}/matches/{match.pk}/")
    expect(page.get_by_test_id("match-result")).to_contain_text("won the match")
    for entry in games:
        expect(page.locator(f'a[href="/games/{entry.game_id}/replay/"]')).to_be_visible()
    expect(page.get_by_test_id("match-record")).to_be_visible()


# --- Between two games: the next game is the main action, and the bots keep their names --------


def play_out(game: Game, rng: random.Random) -> None:
    """Random legal moves for every seat through the one way in, until the game ends."""
    bots = set(game.seats.exclude(bot_level="").values_list("index", flat=True))
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        state = load_state(game)
        seat = current_player(state)
        actor = "bot" if seat in bots else "human"
        try:
            submit_action(
                game.pk, seat, rng.choice(legal_actions(state)), game.version, actor=actor
            )
        except ServiceError:
            continue  # a bot of the server's moved meanwhile: read the game again


def bot_names(game_id: int) -> list[str]:
    seats = Seat.objects.filter(game_id=game_id).exclude(bot_level="").order_by("index")
    return [seat.occupant_name() for seat in seats]


SCREENS = {"1280x800": {}, "375x812": {"width": 375, "height": 812, "touch": True}}


@pytest.mark.parametrize("screen", SCREENS)
def test_between_two_games_ready_is_the_main_action_and_the_bots_keep_their_names(
    live_url, new_page, create_player, monkeypatch, screen
):
    # The test moves game 1 itself: no job of its process may move it behind its back.
    monkeypatch.setattr("games.jobs.later", lambda name, *args, delay=0.0: None)
    page = new_page(**SCREENS[screen])
    mattia = create_player("mattia")
    match = create_match_against_bots(mattia, 2, "random", target=30)
    first = match.entries.get().game
    names = bot_names(first.pk)
    log_in(page, mattia, live_url)
    page.goto(f"{live_url}/games/{first.pk}/")
    page.wait_for_selector(f"{ROOT}[data-version]")

    play_out(first, random.Random(8))
    advance(first.pk)  # the job "match_next_game": scores it and sets the next game's timer

    over = page.locator("[data-game-over]")
    ready = over.get_by_role("button", name="Ready for the next game")
    expect(ready).to_be_visible(timeout=60_000)
    # The next game is the one filled button, first in the box, on screen; no Rematch (it would
    # leave the match).
    assert on_screen_and_on_top(ready)
    assert "button--secondary" not in ready.get_attribute("class")
    filled = over.locator(".button:not(.button--secondary)")
    expect(filled).to_have_count(1)
    expect(over.get_by_role("button", name="Rematch")).to_have_count(0)
    assert "button--secondary" in over.get_by_role("link", name="New game").get_attribute("class")

    ready.click()

    page.wait_for_url(
        lambda url: re.search(r"/games/\d+/$", url) and not url.endswith(f"/games/{first.pk}/")
    )
    second = match.entries.get(number=2).game
    assert page.url == f"{live_url}/games/{second.pk}/"
    assert bot_names(second.pk) == names
    for name in names:
        expect(page.locator("[data-lines]")).to_contain_text(name)

    page.goto(f"{live_url}/matches/{match.pk}/")
    standings = page.get_by_test_id("match-standings")
    for name in names:
        expect(standings.locator("thead")).to_contain_text(name)
    expect(standings.locator("tbody tr")).to_have_count(2)
    # Every game was played under the names the header shows.
    expect(standings.locator("[data-played-by]")).to_have_count(0)


def test_a_player_ready_whose_next_game_is_late_can_start_it(
    live_url, page, create_player, monkeypatch
):
    """The next game's timer ran out and its job is late: the box says the game is starting, not
    "0 s" forever, and offers the player who is ready to start it."""
    monkeypatch.setattr("games.jobs.later", lambda name, *args, delay=0.0: None)
    alice, bruno = create_player("alice"), create_player("bruno")
    match = create_match(alice, 2, [SeatPlan("me"), SeatPlan("invite", user=bruno)], target=30)
    first = match.entries.get().game
    join_table(first.pk, bruno)
    log_in(page, alice, live_url)
    page.goto(f"{live_url}/games/{first.pk}/")
    page.wait_for_selector(f"{ROOT}[data-version]")
    play_out(first, random.Random(8))
    advance(first.pk)
    box = page.locator("[data-game-over] [data-match-box]")
    box.get_by_role("button", name="Ready for the next game").click(timeout=60_000)
    expect(box.get_by_text("You are ready. Waiting for the others…")).to_be_visible()

    Match.objects.filter(pk=match.pk).update(next_game_at=timezone.now() - timedelta(seconds=5))

    expect(box.get_by_text("Starting the next game…")).to_be_visible(timeout=10_000)
    start = box.get_by_role("button", name="Start the next game")
    expect(start).to_be_visible()
    assert on_screen_and_on_top(start)
    start.click()
    page.wait_for_url(
        lambda url: re.search(r"/games/\d+/$", url) and not url.endswith(f"/games/{first.pk}/")
    )
    assert page.url.endswith(f"/games/{match.entries.get(number=2).game_id}/")
