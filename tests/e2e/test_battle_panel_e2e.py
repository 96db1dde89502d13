"""The battle-result panel in Chromium: a game against a bot is played by clicking until a battle
concludes; the panel shows that battle's region and every seat's strength as the view's
`last_battle` gives them, stays while the next region is chosen, and closes on demand."""

import re
import time

from tests.e2e.test_game_e2e import (
    ROOT,
    SEAT_COLOURS,
    log_in,
    record_frames,
    screenshot,
    take_one_decision,
)

PANEL = "[data-battle-panel]"


def page_predicate(condition: str) -> str:
    """A page function returning `condition`, over `panel`, `finished` and `myTurn` (the player
    has a decision and no action of theirs is in flight)."""
    return f"""() => {{
  const root = document.querySelector('{ROOT}');
  const panel = document.querySelector('{PANEL}');
  const finished = root.dataset.state === 'finished';
  const myTurn = root.classList.contains('is-my-turn') && root.dataset.busy === 'false';
  return {condition};
}}"""


MY_TURN_OR_RESULT = page_predicate("!panel.hidden || finished || myTurn")
# The player's own decision is pending: the game waits for it, so the panel cannot close under
# the test's feet.
WAITS_FOR_ME = page_predicate("myTurn")
RESULT_GONE_OR_MY_TURN = page_predicate("panel.hidden || finished || myTurn")

MOVED_ON = f"""version => {{
  const root = document.querySelector('{ROOT}');
  return root.dataset.version !== version || !document.querySelector('{PANEL}').hidden;
}}"""


def play_until_a_battle_concludes(page, seconds=120):
    """Click until a battle's result is up and the next decision is the player's. When the bot
    decides what follows a battle (it won it, took the token and picks the next region at once), the
    next battle starts and closes the panel: that result is let go and play goes on."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page.wait_for_function(MY_TURN_OR_RESULT, timeout=30_000)
        assert page.locator(ROOT).get_attribute("data-state") != "finished"
        if page.locator(PANEL).is_visible():
            if page.evaluate(WAITS_FOR_ME):
                return
            page.wait_for_function(RESULT_GONE_OR_MY_TURN, timeout=30_000)
            continue
        version = page.locator(ROOT).get_attribute("data-version")
        take_one_decision(page)
        page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    raise AssertionError("no battle concluded in time")


def last_battle_shown(frames, version: int) -> dict:
    states = [f for f in frames if f.get("type") == "state" and f["version"] == version]
    assert states, f"no frame of version {version} was received"
    return states[-1]["view"]["last_battle"]


def test_the_result_of_a_battle_stays_in_view_until_closed(server, new_page, django_user_model):
    user = django_user_model.objects.create_user(username="brancaleone")
    page = new_page(1280, 800)
    log_in(page, user, server)
    frames = record_frames(page)
    page.goto(f"{server}/play/")
    page.select_option("#id_bots", "1")
    page.select_option("#id_level", "random")
    page.locator("[data-testid=start-bots-game]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector(f"{ROOT}[data-version]")

    play_until_a_battle_concludes(page)

    panel = page.locator(PANEL)
    version = int(page.locator(ROOT).get_attribute("data-version"))
    battle = last_battle_shown(frames, version)
    assert battle is not None
    assert panel.get_attribute("role") == "dialog"
    region = battle["region"]
    assert panel.get_attribute("data-region") == (region or "")
    if region:
        assert region in panel.locator(".battle-panel__title").inner_text()
    shown = {
        int(item.get_attribute("data-seat")): int(item.get_attribute("data-strength"))
        for item in panel.locator(".battle-panel__seat").all()
    }
    assert shown == dict(enumerate(battle["strengths"]))
    for seat, strength in shown.items():
        item = panel.locator(f".battle-panel__seat[data-seat='{seat}']")
        assert f"Strength {strength}" in item.inner_text()
    winner_text = panel.locator(".battle-panel__winner").inner_text()
    winner = battle["winner"]
    assert winner_text == (
        "Nobody wins: a tie" if winner is None else f"{SEAT_COLOURS[winner]} wins"
    )
    screenshot(page, "battle-panel-1280")

    # The result stays while the game moves on to the next region (until a battle is on).
    phase = page.locator(ROOT).get_attribute("data-phase")
    assert phase not in ("battle", "final_battle") and panel.is_visible()
    # Keyboard: the close button is reachable and Escape closes the panel.
    close = panel.get_by_role("button", name="Close")
    close.focus()
    assert page.evaluate("() => document.activeElement.classList.contains('battle-panel__close')")
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    # Frames that follow with the same result do not bring it back.
    page.wait_for_timeout(500)
    assert panel.is_hidden()
