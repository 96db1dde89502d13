"""A match for points in Chromium: opened from "Play against bots" with "Play for points" and a
target of 5, played by a stand-in bot for the person (so that the test takes seconds, not
minutes) against a fast random bot. The game page's end box shows the match's standings and, once
a game ends without deciding the match, takes the player on to the next game (a seat with a
stand-in is always ready); at the end it says who won, and the match page lists every game's
replay and the result. The "Ready" button's own path is covered by tests/matches.
"""

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.matches.models import Match

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
