"""The replay page in Chromium: a finished game stepped through with the buttons, the keys and
the slider, autoplayed, with the hands toggle; and screenshots of the history and the replay at
1280 and 375 px (test-artifacts/replay/)."""

from concurrent.futures import ThreadPoolExecutor

from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from games.models import Game, Seat
from tests.e2e.conftest import ARTIFACTS
from tests.web.test_replay import play_out

SHOTS = ARTIFACTS / "replay"
ROOT = "[data-replay-root]"


def finished_game(players: int = 3, seed: int = 21) -> Game:
    """Played through the services in a thread of its own: Playwright's event loop runs in the
    test's thread, and the services' after-commit notices may not run inside it."""
    with ThreadPoolExecutor(1) as executor:
        return executor.submit(play_new_game, players, seed).result()


def play_new_game(players: int, seed: int) -> Game:
    users = [get_user_model().objects.create_user(f"replayer{seat}") for seat in range(players)]
    game = Game.objects.create(players=players, seed=seed, options={"hidden_cards": True})
    for seat, user in enumerate(users):
        Seat.objects.create(game=game, index=seat, user=user, joined_at=timezone.now())
    try:
        return play_out(game, seed)
    finally:
        connections.close_all()


def step_of(page) -> int:
    return int(page.locator(ROOT).get_attribute("data-step"))


def wait_step(page, step: int) -> None:
    page.wait_for_selector(f'{ROOT}[data-step="{step}"]')


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_step_through_a_finished_game(live_url, new_page):
    game = finished_game()
    last = game.version
    page = new_page(1280, 900)
    page.goto(f"{live_url}/games/{game.pk}/replay/")
    page.wait_for_selector(f'{ROOT}[data-state="ready"]')

    assert step_of(page) == 0
    assert page.locator(f"{ROOT}").get_attribute("data-total") == str(last)
    # The deal: nobody controls a region yet.
    assert page.locator(".control-marker").count() == 0

    page.click('[data-go="forward"]')
    wait_step(page, 1)
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.keyboard.press("ArrowLeft")
    wait_step(page, 1)
    page.click('[data-go="back"]')
    wait_step(page, 0)
    assert page.locator('[data-go="back"]').is_disabled()

    page.keyboard.press("End")
    wait_step(page, last)
    assert page.locator("[data-slider]").input_value() == str(last)
    # By the end someone controls regions: their markers are on the board.
    assert page.locator(".control-marker").count() > 0
    assert page.locator(".log__entry").count() > 0
    page.keyboard.press("Home")
    wait_step(page, 0)
    page.click('[data-go="last"]')
    wait_step(page, last)
    page.click('[data-go="first"]')
    wait_step(page, 0)

    # The slider: focused, an arrow key moves it, and the board follows.
    page.locator("[data-slider]").focus()
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    assert page.locator("[data-slider]").input_value() == "1"
    assert page.locator("[data-label]").inner_text().strip()

    # Autoplay at the fastest speed, then pause.
    page.locator("[data-speed]").select_option("120")
    page.click('[data-go="play"]')
    page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.step >= 4")
    page.click('[data-go="play"]')
    paused_at = step_of(page)
    page.wait_for_timeout(400)
    assert step_of(page) == paused_at

    # Hands: hidden by default (the spectator's view), shown by the toggle, one per seat.
    assert page.locator("[data-hands-section]").is_hidden()
    page.keyboard.press("Home")
    wait_step(page, 0)
    page.check("[data-show-hands]")
    assert page.locator("[data-hands-section]").is_visible()
    assert page.locator(".replay__hand").count() == 3
    assert page.locator(".replay__hand").first.locator("button").count() == 10  # the deal
    shoot(page, "replay-1280")
    page.uncheck("[data-show-hands]")
    assert page.locator("[data-hands-section]").is_hidden()


def test_screenshots_of_history_and_replay_on_a_phone_and_a_desktop(live_url, new_page):
    game = finished_game(players=2, seed=9)
    desktop = new_page(1280, 900)
    desktop.goto(f"{live_url}/history/")
    assert desktop.locator(f'[data-game="{game.pk}"]').is_visible()
    shoot(desktop, "history-1280")

    phone = new_page(375, 800)
    phone.goto(f"{live_url}/history/")
    assert phone.locator(f'[data-game="{game.pk}"]').is_visible()
    shoot(phone, "history-375")
    row = phone.locator(f'[data-game="{game.pk}"]')
    row.get_by_role("link", name="Replay", exact=True).click()
    phone.wait_for_selector(f'{ROOT}[data-state="ready"]')
    phone.keyboard.press("End")
    wait_step(phone, game.version)
    phone.check("[data-show-hands]")
    shoot(phone, "replay-375")
    # Nothing sticks out sideways on a phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
