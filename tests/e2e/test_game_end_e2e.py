"""The end of a game in Chromium, seen live (no reload): the page shows what a reload shows
(rated or not, the replay link, "Request analysis"), the log's last line says who won and how
(the engine's result: by adjacent regions, by number of regions, most regions when the map ran
out, or the final battle), in the replay too; the turn cue's switches and the "show cards" box go
away. During play the status says whether the game is rated.

"Visible" is on screen and on top: the box inside the viewport and `document.elementFromPoint`
at its centre hits it (or a descendant). The test plays every seat itself through the one way in
(tests/e2e/test_rematch_e2e.py's `play`), with jobs announced to nobody.
"""

import random

import pytest
from playwright.sync_api import expect

from games.models import SEAT_COLOUR_LABELS, Game, Seat
from games.services import start_game
from tests.e2e.seen import on_screen_and_on_top
from tests.e2e.test_rematch_e2e import LIVE_SECONDS, play

pytestmark = pytest.mark.e2e

ROOT = "[data-game-root]"
# How the rules say a game is won (docs/engine.md), as the log words it.
HOW = {
    "adjacency": "by adjacent regions",
    "total": "by number of regions",
    "most_regions": "most regions when the map ran out",
    "final_battle": "by the final battle",
}


@pytest.fixture(autouse=True)
def no_jobs(monkeypatch):
    monkeypatch.setattr("games.jobs.later", lambda name, *args, delay=0.0: None)


def a_game(seats: dict) -> Game:
    """seats: index -> a user or a bot level."""
    game = Game.objects.create(players=len(seats), seed=14)
    for index, who in seats.items():
        if isinstance(who, str):
            Seat.objects.create(game=game, index=index, bot_level=who)
        else:
            Seat.objects.create(game=game, index=index, user=who)
    start_game(game.pk)
    return game


def win_line(game: Game) -> str:
    """The sentence the rules give for the game's result."""
    game.refresh_from_db()
    winners = [
        str(SEAT_COLOUR_LABELS[Seat.objects.get(game=game, index=i).colour])
        for i in game.result["winners"]
    ]
    how = HOW[game.result["reason"]]
    if len(winners) == 1:
        return f"{winners[0]} wins the game ({how})"
    return f"{', '.join(winners)} share the victory ({how})"


def end_facts(page) -> dict:
    header = page.locator(".game__status")
    return {
        "rated": header.locator("[data-rated]").get_attribute("data-rated"),
        "rated_text": header.locator("[data-rated]").inner_text(),
        "replay": header.get_by_role("link", name="Replay this game step by step").get_attribute(
            "href"
        ),
        "analysis": header.locator("[data-analysis-request]").inner_text(),
    }


def newest_log_line(page) -> str:
    return page.locator("[data-log] li").first.inner_text()


def test_the_end_seen_live_shows_what_a_reload_shows_and_says_how_the_game_was_won(
    page, new_page, live_url, log_in, create_player
):
    alice, bruno = create_player("alice"), create_player("bruno")
    game = a_game({0: alice, 1: "hard", 2: bruno})
    rng = random.Random(3)
    play(game, rng, stop_before_the_end=True)
    log_in(page, alice)
    page.goto(f"{live_url}/games/{game.pk}/")
    root = page.locator(ROOT)
    expect(root).to_have_attribute("data-state", "playing", timeout=10_000)
    # Two people play: the game is rated, and the status says so while it is played.
    rated = page.locator(".game__status [data-rated]")
    expect(rated).to_have_text("Rated game")
    assert on_screen_and_on_top(rated)
    assert on_screen_and_on_top(page.locator("[data-turn-cue]"))
    spectator = new_page()  # not logged in
    spectator.goto(f"{live_url}/games/{game.pk}/")
    expect(spectator.locator(ROOT)).to_have_attribute("data-state", "playing", timeout=10_000)

    play(game, rng, stop_before_the_end=False)

    expect(root).to_have_attribute("data-state", "finished", timeout=LIVE_SECONDS * 1000)
    request = page.locator(".game__status [data-analysis-request]")
    expect(request).to_have_text("Request analysis", timeout=10_000)
    assert on_screen_and_on_top(request)
    expect(rated).to_have_text("Rated game.")
    assert on_screen_and_on_top(rated)
    live = end_facts(page)
    line = win_line(game)
    expect(page.locator("[data-log] li").first).to_have_text(line)
    # Nothing of a game being played is left: no turn-cue switches, no "show cards" box.
    expect(page.locator("[data-turn-cue]")).to_be_hidden()
    expect(page.locator("[data-show]")).to_be_hidden()

    # A spectator's page reads the end's lines too, a few seconds later (spread out).
    expect(spectator.locator(".game__status [data-rated]")).to_have_text(
        "Rated game.", timeout=(LIVE_SECONDS + 15) * 1000
    )
    expect(spectator.locator(".game__status .game__replay-link")).to_be_visible()

    page.reload()
    expect(root).to_have_attribute("data-state", "finished", timeout=10_000)
    assert end_facts(page) == live
    expect(page.locator("[data-log] li").first).to_have_text(line)
    expect(page.locator("[data-turn-cue]")).to_be_hidden()
    expect(page.locator("[data-show]")).to_be_hidden()

    page.goto(f"{live_url}/games/{game.pk}/replay/")
    replay = page.locator("[data-replay-root]")
    expect(replay).to_have_attribute("data-state", "ready")
    page.click('[data-go="last"]')
    expect(replay).to_have_attribute("data-step", str(game.version))
    expect(page.locator("[data-log] li").first).to_have_text(line)


def test_a_game_against_bots_only_says_it_is_casual_while_it_is_played(
    page, live_url, log_in, create_player
):
    carla = create_player("carla")
    game = a_game({0: carla, 1: "random"})
    log_in(page, carla)

    page.goto(f"{live_url}/games/{game.pk}/")

    rated = page.locator(".game__status [data-rated]")
    expect(rated).to_have_text("Casual game (not rated)")
    expect(rated).to_have_attribute("data-rated", "no")
    assert on_screen_and_on_top(rated)
