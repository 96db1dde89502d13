"""Text contrast of at least 4.5:1 (3:1 for large text) on every page of the site, not only the
table (#14, accessibility: "contrast ≥ 4.5:1 everywhere"), at a desktop and a phone width.

The measure is the table layout test's (CONTRASTS: each visible text's colour, with its
ancestors' opacity, against the first opaque background or gradient stop behind it).
"""

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Seat
from tests.e2e.test_table_layout_e2e import CONTRASTS

SIZES = ((1280, 800), (375, 812))


@pytest.fixture
def site(live_url, create_player, log_in):
    """A staff player with an open table of their own, so the pages have something to show."""
    player = create_player("bianca", is_staff=True)
    table = Game.objects.create(players=3, status=Game.Status.OPEN)
    Seat.objects.create(game=table, index=0, user=player)
    return player, table


def pages(table, player):
    return {
        "home": "/",
        "play against bots": "/play/",
        "lobby": "/lobby/",
        "new table": "/tables/new/",
        "a table": f"/tables/{table.pk}/",
        "history": "/history/",
        "my games": "/history/mine/",
        "import a record": "/games/import/",
        "leaderboard": "/leaderboard/",
        "rules": "/rules/",
        "profile": "/accounts/profile/",
        "a player's page": f"/players/{player.username}/",
        "staff dashboard": "/staff/dashboard/",
    }


def test_every_page_keeps_text_contrast_at_both_widths(live_url, site, new_page, log_in):
    player, table = site
    failures = {}
    for width, height in SIZES:
        page = new_page(width, height)
        log_in(page, player)
        for name, path in pages(table, player).items():
            page.goto(f"{live_url}{path}")
            page.wait_for_load_state("load")
            low = page.evaluate(CONTRASTS)
            if low:
                failures[f"{name} at {width}"] = low
    assert failures == {}


def test_the_log_in_and_sign_up_pages_keep_text_contrast(live_url, new_page):
    page = new_page(1280, 800)
    for path in ("/accounts/login/", "/accounts/signup/"):
        page.goto(f"{live_url}{path}")
        assert page.evaluate(CONTRASTS) == [], path
    assert get_user_model().objects.count() == 0  # looked at, nothing submitted
