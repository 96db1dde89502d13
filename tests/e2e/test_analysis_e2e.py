"""The computer analysis in Chromium: a logged-in visitor asks for the analysis of a finished
short game on its replay, waits for it (the job runs in the server's in-process pool with a tiny
budget), and sees the win-chance graph, the accuracies, and the marks with "best was ..." on the
log; the game's page then shows each player's accuracy. The graph has its axes (moves; chance of
winning in %) and a legend naming each player's line, and "Previous mistake" / "Next mistake"
step the replay to the marked moves. An analysis made by an older search says so and is analysed
again on request.

"Visible" is on screen and on top: the box inside the viewport and `document.elementFromPoint`
at its centre hitting the element or a descendant."""

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from ai.analysis import SEARCH_VERSION
from games.analysis.models import Analysis
from games.engine import current_player, legal_actions
from games.models import Game, Seat
from games.services import load_state, start_game, submit_action
from tests.e2e.conftest import ARTIFACTS, daphne_server, prepare_fast_bots_server
from tests.e2e.seen import on_screen_and_on_top

ROOT = "[data-replay-root]"
SECTION = "[data-analysis]"
SHOTS = ARTIFACTS / "analysis"


def analysis_json(page, url: str, game_id: int) -> dict:
    return page.request.get(f"{url}/games/{game_id}/analysis.json").json()


def shown_step(page) -> int:
    return int(page.locator(ROOT).get_attribute("data-step"))


def prepare_tiny_analysis_server(database_name: str):
    prepare_fast_bots_server(database_name)  # jobs in-process
    settings.ANALYSIS_ITERATIONS = 20


@pytest.fixture(scope="module")
def analysis_server(django_db_setup, django_db_blocker):
    with daphne_server(django_db_blocker, prepare_tiny_analysis_server) as url:
        yield url


@pytest.fixture
def server_url(analysis_server, transactional_db):
    return analysis_server


def in_thread(function, *args):
    """Database work off Playwright's event loop thread (Django refuses it there)."""

    def run():
        try:
            return function(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as executor:
        return executor.submit(run).result()


def play_new_game(seed: int) -> Game:
    users = [get_user_model().objects.create_user(f"analyst{seat}") for seat in range(2)]
    game = Game.objects.create(players=2, seed=seed)
    for seat, user in enumerate(users):
        Seat.objects.create(game=game, index=seat, user=user, joined_at=timezone.now())
    rng = random.Random(seed)
    start_game(game.pk)
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING:
        state = load_state(game)
        submit_action(
            game.pk, current_player(state), rng.choice(legal_actions(state)), game.version
        )
        game.refresh_from_db()
    return game


def finished_game(seed: int = 5) -> Game:
    return in_thread(play_new_game, seed)


def log_in(page, url: str, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": url}])


def test_request_an_analysis_and_read_it_on_the_replay(server_url, new_page):
    game = finished_game()
    page = new_page(1280, 900)
    log_in(page, server_url, Seat.objects.get(game=game, index=0).user)
    page.goto(f"{server_url}/games/{game.pk}/replay/")
    page.wait_for_selector(f'{ROOT}[data-state="ready"]')
    page.wait_for_selector(f'{SECTION}[data-state="none"]')

    page.get_by_role("button", name="Request analysis").click()
    page.wait_for_selector(f'{SECTION}[data-state="done"]', timeout=30000)

    # One win-chance line per seat, the marked moves as dots, the step's cursor.
    assert page.locator(f"{SECTION} svg .analysis-graph__line").count() == 2
    assert page.locator(f"{SECTION} svg .analysis-graph__mark").count() >= 1
    assert page.locator(f"{SECTION} [data-accuracy]").count() == 2
    assert page.get_by_role("button", name="Request analysis").is_hidden()
    # At the last step the whole log is shown: marked lines say what the best move was.
    page.keyboard.press("End")
    page.wait_for_selector(f'{ROOT}[data-step="{game.version}"]')
    marked = page.locator("[data-log] li[data-mark]")
    assert marked.count() >= 1
    assert "best was" in marked.first.inner_text()
    # A click on the graph moves the replay to that point of the game.
    page.locator(f"{SECTION} svg").click(position={"x": 5, "y": 50})
    last = game.version
    page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.step !== '{last}'")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-with-analysis.png"), full_page=True)

    page.goto(f"{server_url}/games/{game.pk}/")
    assert page.locator('[data-game-analysis="done"] li[data-accuracy]').count() == 2


def test_the_graph_has_axes_a_legend_and_steps_to_the_marked_moves(server_url, new_page):
    game = finished_game(seed=11)
    page = new_page(1280, 900)
    log_in(page, server_url, Seat.objects.get(game=game, index=0).user)
    page.goto(f"{server_url}/games/{game.pk}/replay/")
    page.wait_for_selector(f'{ROOT}[data-state="ready"]')
    page.get_by_role("button", name="Request analysis").click()
    page.wait_for_selector(f'{SECTION}[data-state="done"]', timeout=30000)
    data = analysis_json(page, server_url, game.pk)
    marked = sorted(entry["seq"] for entry in data["decisions"] if entry["mark"])
    assert marked, "a random game analysed has marked moves"

    # The axes: their titles, and the chance of winning in % from 0 to 100.
    texts = page.locator(f"{SECTION} svg text").all_text_contents()
    assert "Move" in texts and "Chance of winning (%)" in texts
    assert {"0%", "50%", "100%"} <= set(texts)
    # The legend names each player's line, in the line's colour, with the chance in %.
    page.keyboard.press("Home")
    page.wait_for_selector(f'{ROOT}[data-step="0"]')
    legend = page.locator(f"{SECTION} [data-legend-seat]")
    assert legend.count() == 2
    for seat in range(2):
        item = page.locator(f'{SECTION} [data-legend-seat="{seat}"]')
        assert on_screen_and_on_top(item, scroll=True)
        own = [e for e in data["decisions"] if e["seat"] == seat]
        assert item.inner_text().endswith(f"{round(own[0]['before'] * 100)}%")
        swatch = item.locator(".analysis__swatch")
        line = page.locator(f"{SECTION} svg .analysis-graph__line.seat-{seat}")
        assert swatch.evaluate("e => getComputedStyle(e).borderTopColor") == line.evaluate(
            "e => getComputedStyle(e).stroke"
        )
        assert line.locator("title").text_content() in item.inner_text()

    # "Next mistake" steps the replay to each marked move in turn (the step just after it, so
    # its line is the log's newest, with its mark); "Previous mistake" steps back.
    previous = page.get_by_role("button", name="Previous mistake")
    following = page.get_by_role("button", name="Next mistake")
    assert on_screen_and_on_top(following, scroll=True)
    assert previous.is_disabled()
    for seq in marked[:3]:
        following.click()
        page.wait_for_selector(f'{ROOT}[data-step="{seq}"]')
        assert on_screen_and_on_top(page.locator("[data-log] li[data-mark]").first, scroll=True)
        assert page.locator("[data-mark-where]").get_attribute("data-mark-seq") == str(seq)
    if len(marked) >= 2:
        at = shown_step(page)
        previous.click()
        earlier = max(seq for seq in marked if seq < at)
        page.wait_for_selector(f'{ROOT}[data-step="{earlier}"]')
    page.keyboard.press("End")
    page.wait_for_selector(f'{ROOT}[data-step="{game.version}"]')
    if marked[-1] < game.version:
        assert following.is_disabled()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(SECTION).screenshot(path=str(SHOTS / "graph-axes-legend.png"))


def made_by_older_search(game_id: int) -> None:
    Analysis.objects.filter(game_id=game_id).update(search_version=SEARCH_VERSION - 1)


def stored_search_version(game_id: int) -> int:
    return Analysis.objects.get(game_id=game_id).search_version


def test_an_outdated_analysis_says_so_and_is_analysed_again(server_url, new_page):
    game = finished_game(seed=8)
    page = new_page(1280, 900)
    log_in(page, server_url, Seat.objects.get(game=game, index=1).user)
    page.goto(f"{server_url}/games/{game.pk}/replay/")
    page.wait_for_selector(f'{SECTION}[data-state="none"]')
    page.get_by_role("button", name="Request analysis").click()
    page.wait_for_selector(f'{SECTION}[data-state="done"]', timeout=30000)
    in_thread(made_by_older_search, game.pk)

    page.reload()
    # The graph is drawn once both the analysis and the replay's game have loaded, in either
    # order: waiting for the analysis alone raced the game's load on a busy machine.
    page.wait_for_selector(f'{ROOT}[data-state="ready"]')
    page.wait_for_selector(f'{SECTION}[data-state="done"]')
    assert "older version" in page.locator("[data-analysis-status]").inner_text()
    expect(page.locator(f"{SECTION} svg .analysis-graph__line")).to_have_count(2)  # still shown
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(SECTION).screenshot(path=str(SHOTS / "outdated-analysis.png"))
    again = page.get_by_role("button", name="Analyse again")
    again.click()
    # Asked again: queued (the answer to the request), the old graph gone at once; then today's
    # search fills it anew.
    page.wait_for_selector(f'{SECTION}[data-state="queued"]')
    assert page.locator(f"{SECTION} [data-analysis-graph]").is_hidden()
    page.wait_for_selector(f'{SECTION}[data-state="done"]', timeout=30000)
    assert "older version" not in page.locator("[data-analysis-status]").inner_text()
    assert page.locator(f"{SECTION} svg .analysis-graph__line").count() == 2
    assert again.is_hidden()
    assert in_thread(stored_search_version, game.pk) == SEARCH_VERSION
