"""Chromium under the site's Content-Security-Policy: the main pages and a game page load and
work (scripts run, sockets connect, the menu opens) with no violation reported, neither as a
"securitypolicyviolation" event nor as a "Refused to ..." message on the console, and no
uncaught script error."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from games.models import Game, Seat
from tests.web.test_replay import play_out

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""


def games_of(username: str) -> tuple[Game, Game]:
    """A finished game and one in play, made in a thread of its own (Playwright's event loop
    runs in the test's thread, and the services' after-commit notices may not run inside it)."""

    def make() -> tuple[Game, Game]:
        try:
            user = get_user_model().objects.get(username=username)
            made = []
            for seed, stop_after in ((31, None), (32, 4)):
                rival = get_user_model().objects.create_user(f"rival{seed}")
                game = Game.objects.create(players=2, seed=seed)
                for index, player in enumerate((user, rival)):
                    Seat.objects.create(
                        game=game, index=index, user=player, joined_at=timezone.now()
                    )
                made.append(play_out(game, seed, stop_after=stop_after))
            return made[0], made[1]
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as executor:
        return executor.submit(make).result()


@pytest.fixture
def watched(new_page):
    """A page that records every CSP violation, console message about the policy, page error."""

    def make(width: int = 1280, height: int = 800):
        page = new_page(width=width, height=height)
        page.problems = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on(
            "console",
            lambda message: (
                page.problems.append(f"console: {message.text}")
                if "Content Security Policy" in message.text or "Refused to" in message.text
                else None
            ),
        )
        page.on("pageerror", lambda error: page.problems.append(f"page error: {error}"))
        return page

    return make


def visit(page, url: str, *, ours: bool = True) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    if ours:  # the site's layout (not the admin's): its nonce'd inline script in the head ran
        assert page.evaluate("document.documentElement.classList.contains('js')"), url


def problems_of(page) -> list[str]:
    return page.problems + page.evaluate("window.__cspViolations")


def test_the_main_pages_and_a_game_page_run_under_the_policy(
    live_url, watched, create_player, log_in
):
    player = create_player("bartolomeo")
    finished, playing = games_of(player.username)

    visitor = watched()
    for path in ("/", "/rules/", "/leaderboard/", "/accounts/login/", "/accounts/signup/"):
        visit(visitor, f"{live_url}{path}")
    visit(visitor, f"{live_url}/admin/login/", ours=False)

    page = log_in(watched(), player)
    for path in ("/", "/history/", "/history/mine/", "/accounts/profile/", "/tables/new/"):
        visit(page, f"{live_url}{path}")
    visit(page, f"{live_url}/lobby/")
    page.wait_for_selector("[data-live-status].is-live")  # the lobby socket connected
    visit(page, f"{live_url}/games/{finished.pk}/replay/")
    page.wait_for_selector("[data-replay-root][data-step]")
    visit(page, f"{live_url}/games/{playing.pk}/")
    page.wait_for_selector("[data-game-root][data-version]")  # a state frame came by socket

    phone = log_in(watched(width=375, height=740), player)
    visit(phone, f"{live_url}/")
    phone.click("[data-menu-button]")  # menu.js, the script that left base.html
    assert phone.get_attribute("[data-menu-button]", "aria-expanded") == "true"

    for each in (visitor, page, phone):
        assert problems_of(each) == []


def test_an_inline_script_without_the_nonce_is_refused_and_reported(live_url, watched):
    """The watch works: a script injected into the page without the nonce is refused, seen."""
    page = watched()
    visit(page, f"{live_url}/rules/")
    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.__injected = true";
          document.body.append(script);
        }"""
    )
    page.wait_for_function("() => window.__cspViolations.length > 0")
    assert page.evaluate("window.__injected") is None
    assert any("script-src" in problem for problem in problems_of(page))
