"""The end of a game in Chromium: Rematch, New game, Lobby and Replay appear live when the last
move is made (no reload), a rating change too small to show reads "0" (not "-0") and a
newcomer's is marked provisional, and Rematch opens a table of the same seats and settings. A
rematch offered by one player reaches the other's
page live, with Accept and Decline: Accept takes both to the new game, Decline is told to the one
who asked.

The test plays every seat itself through the one way in (games.services), with jobs announced
to nobody, so that no bot or timer moves behind its back; the page learns of each move over its
socket like any player's.
"""

import random
import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.engine import apply_action, current_player, is_terminal, legal_actions
from games.models import Game, Rating, RatingChange, Seat
from games.services import ServiceError, load_state, start_game, submit_action
from tests.e2e.seen import on_screen_and_on_top

pytestmark = pytest.mark.e2e

OPTIONS = {"bigger_kingdoms": True}
# Without a reload, the finished state must come over the socket. On the Redis channel layer the
# test's own move is pushed to the server's sockets, well within 20 s (the page's watchdog would
# only ask after 30 s). The embedded profile's in-memory layer cannot reach the server process
# from the test's, so there the page learns it from that watchdog's sync: still no reload.
LIVE_SECONDS = 20 if settings.REDIS_URL else 45


@pytest.fixture(autouse=True)
def no_jobs(monkeypatch):
    monkeypatch.setattr("games.jobs.later", lambda name, *args, delay=0.0: None)


@pytest.fixture
def game(create_player):
    """Alice (seat 0), a hard bot (seat 1), Bruno (seat 2); a timer and an optional rule."""
    game = Game.objects.create(players=3, options=OPTIONS, turn_seconds=120, seed=14)
    Seat.objects.create(game=game, index=0, user=create_player("alice"))
    Seat.objects.create(game=game, index=1, bot_level="hard")
    Seat.objects.create(game=game, index=2, user=create_player("bruno"))
    start_game(game.pk)
    return game


def play(game: Game, rng: random.Random, *, stop_before_the_end: bool) -> None:
    """Random legal moves for every seat until the game ends, or until one move is left."""
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        state = load_state(game)
        seat = current_player(state)
        action = rng.choice(legal_actions(state))
        if stop_before_the_end and is_terminal(apply_action(state, action)):
            return
        actor = "bot" if seat == 1 else "human"
        try:
            submit_action(game.pk, seat, action, game.version, actor=actor)
        except ServiceError:
            continue  # the game moved meanwhile (a sweep elsewhere): read it again


def a_tiny_rating_loss(game: Game) -> None:
    alice = Seat.objects.get(game=game, index=0).user
    rating = Rating.objects.create(user=alice, mu=24.997, sigma=8.0, games=1)
    RatingChange.objects.create(
        game=game, seat=0, rating=rating, mu_before=25.0, sigma_before=8.0,
        mu_after=24.997, sigma_after=8.0,
    )  # fmt: skip


def test_the_end_of_a_game_offers_rematch_live_and_rematch_keeps_the_settings(
    page, live_url, log_in, game
):
    rng = random.Random(3)
    play(game, rng, stop_before_the_end=True)
    log_in(page, Seat.objects.get(game=game, index=0).user)
    page.goto(f"{live_url}/games/{game.pk}/")
    root = page.locator("[data-game-root]")
    expect(root).to_have_attribute("data-state", "playing", timeout=10_000)
    over = page.locator("[data-game-over]")
    expect(over).to_be_hidden()

    a_tiny_rating_loss(game)
    play(game, rng, stop_before_the_end=False)

    expect(root).to_have_attribute("data-state", "finished", timeout=LIVE_SECONDS * 1000)
    expect(over.get_by_role("button", name="Rematch")).to_be_visible()
    for name in ("New game", "Lobby", "Replay"):
        expect(over.get_by_role("link", name=name)).to_be_visible()
    expect(over.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"/games/{game.pk}/replay/"
    )
    # Not "-0"; and a newcomer's rating (sigma 8) is provisional: the leaderboard's "?" says so.
    delta = page.locator("[data-rating-delta]")
    expect(delta).to_have_text("0?")
    expect(delta.locator("abbr.provisional")).to_have_attribute(
        "title", "Provisional: too few rated games to trust this rating yet."
    )

    over.get_by_role("button", name="Rematch").click()

    # The one who asks stays on the game's page, where the others' answers arrive.
    expect(over.get_by_text("You offered a rematch.")).to_be_visible()
    expect(over.get_by_text("Waiting for bruno.")).to_be_visible()
    over.get_by_role("link", name="Go to the new table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    rematch = Game.objects.get(rematch_of=game)
    assert page.url == f"{live_url}/tables/{rematch.pk}/"
    assert (rematch.players, rematch.turn_seconds, rematch.status) == (3, 120, Game.Status.OPEN)
    assert rematch.options["bigger_kingdoms"] is True
    seats = {seat.index: seat for seat in Seat.objects.filter(game=rematch)}
    assert seats[0].user.username == "alice"
    assert seats[1].bot_level == "hard"
    assert seats[2].reserved_for.username == "bruno"


def test_new_game_opens_the_table_form_with_the_same_settings(page, live_url, log_in, game):
    play(game, random.Random(3), stop_before_the_end=False)
    log_in(page, Seat.objects.get(game=game, index=2).user)
    page.goto(f"{live_url}/games/{game.pk}/")

    page.locator("[data-game-over]").get_by_role("link", name="New game").click()

    expect(page).to_have_url(re.compile(r"/tables/new/\?players=3&"), timeout=10_000)
    expect(page.get_by_label(re.compile(r"^Players:?$"))).to_have_value("3")
    expect(page.get_by_label("Turn timer")).to_have_value("120")
    expect(page.locator("#id_bigger_kingdoms")).to_be_checked()
    expect(page.locator("#id_seat_2_kind")).to_have_value("me")
    expect(page.locator("#id_seat_1_kind")).to_have_value("bot")
    expect(page.locator("#id_seat_1_level")).to_have_value("hard")
    expect(page.locator("#id_seat_0_kind")).to_have_value("open")


# --- Two people: the offer, live on the other's page ---------------------------------------------


# bruno answers on a wide screen, or on a phone.
SCREENS = {"1280x800": {}, "375x812": {"width": 375, "height": 812, "touch": True}}


def both_at_the_end(new_page, log_in, live_url, game, bruno_screen=None):
    """alice's and bruno's pages on the finished game, its end box drawn."""
    play(game, random.Random(3), stop_before_the_end=False)
    pages = {}
    for index, name in ((0, "alice"), (2, "bruno")):
        screen = (bruno_screen or {}) if name == "bruno" else {}
        page = log_in(new_page(**screen), Seat.objects.get(game=game, index=index).user)
        page.goto(f"{live_url}/games/{game.pk}/")
        expect(page.locator("[data-game-over] [data-rematch]")).to_have_attribute(
            "data-rematch", "none"
        )
        pages[name] = page
    return pages["alice"], pages["bruno"]


@pytest.mark.parametrize("screen", SCREENS)
def test_an_offered_rematch_reaches_the_other_player_live_and_accepting_starts_it_for_both(
    new_page, log_in, live_url, game, screen
):
    alice, bruno = both_at_the_end(new_page, log_in, live_url, game, SCREENS[screen])

    alice.locator("[data-game-over]").get_by_role("button", name="Rematch").click()

    offer = bruno.locator("[data-game-over] [data-rematch]")
    expect(offer.get_by_text("alice offers a rematch.")).to_be_visible(timeout=LIVE_SECONDS * 1000)
    accept = offer.get_by_role("button", name="Accept")
    decline = offer.get_by_role("button", name="Decline")
    assert on_screen_and_on_top(accept) and on_screen_and_on_top(decline)
    assert on_screen_and_on_top(alice.locator("[data-game-over]").get_by_text("Waiting for bruno."))

    accept.click()

    rematch = Game.objects.get(rematch_of=game)
    new_game = re.compile(rf"/games/{rematch.pk}/$")
    expect(bruno).to_have_url(new_game)  # his seat was the last: the game started
    expect(alice).to_have_url(new_game, timeout=LIVE_SECONDS * 1000)  # told live, no click
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.PLAYING
    assert Seat.objects.get(game=rematch, index=2).user.username == "bruno"


def test_a_declined_rematch_is_told_to_the_player_who_offered_it(new_page, log_in, live_url, game):
    alice, bruno = both_at_the_end(new_page, log_in, live_url, game)
    alice.locator("[data-game-over]").get_by_role("button", name="Rematch").click()
    offer = bruno.locator("[data-game-over] [data-rematch]")
    expect(offer.get_by_role("button", name="Decline")).to_be_visible(timeout=LIVE_SECONDS * 1000)

    offer.get_by_role("button", name="Decline").click()

    expect(offer.get_by_text("You declined the rematch.")).to_be_visible()
    told = alice.locator("[data-game-over] [data-rematch-declined]")
    expect(told).to_have_text(
        "bruno declined the rematch: the seat is open to anyone.", timeout=LIVE_SECONDS * 1000
    )
    assert on_screen_and_on_top(told)
    seat = Seat.objects.get(game=Game.objects.get(rematch_of=game), index=2)
    assert (seat.user, seat.reserved_for) == (None, None)
