"""A whole game played with the keyboard alone (#14, accessibility), against a random bot that
answers at once: every decision is reached with Tab and taken with Enter or Space, and after
every move the focus is on a control of the game (never the page's body), so that a keyboard
player never has to find their place again.

Only the pressing is the player's; the test decides what to press for (a region, a Mercenary,
the cards to keep, else the prompt's first button) and Tabs until that control has the focus.
"""

import re
import time

from tests.e2e.test_feedback_e2e import (
    ACTIVE_CONTROL,
    MOVED_ON,
    my_last_mercenary,
    start_game_against_a_bot,
)
from tests.e2e.test_game_e2e import ROOT, WAIT_FOR_TURN, screenshot

GAME_SECONDS = 240
MOST_TABS = 150  # more stops than the page has at a decision: past them, Tab wrapped for nothing


def has_focus(locator) -> bool:
    return locator.evaluate("element => element === document.activeElement")


def tab_to(page, locator):
    """Press Tab until `locator` has the focus (Shift+Tab would do as well: Tab is enough)."""
    for _ in range(MOST_TABS):
        if has_focus(locator):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {locator}")


def wanted_control(page):
    """What a plain player does now, as a control: a region, a Mercenary, or the prompt."""
    if page.locator("g.region.is-choosable").count():
        return page.locator("g.region.is-choosable").first, "Enter"
    if page.locator("[data-phase='keep']").count():
        return None, "keep"
    if card := my_last_mercenary(page):
        return card, "Enter"
    return page.locator("[data-prompt] button:not([disabled])").first, "Enter"


def keep_one_card(page):
    """Keep step: Space marks the first card, then the Keep button confirms."""
    card = page.locator(".hand button.card:not([disabled])").first
    if card.count():
        tab_to(page, card)
        page.keyboard.press("Space")
    button = page.locator(
        "[data-prompt] button[data-focus-key='keep']:not([disabled]), "
        "[data-prompt] button[data-focus-key='keep-none']"
    ).first
    tab_to(page, button)
    page.keyboard.press("Enter")


def decide_by_keyboard(page):
    control, key = wanted_control(page)
    if key == "keep":
        keep_one_card(page)
        return
    tab_to(page, control)
    page.keyboard.press(key)


def test_a_whole_game_by_keyboard_keeps_the_focus_on_a_control(server, new_page, django_user_model):
    page = new_page(1280, 800)
    user = django_user_model.objects.create_user("lucrezia")
    start_game_against_a_bot(page, server, user)
    deadline = time.monotonic() + GAME_SECONDS
    decisions = 0
    while time.monotonic() < deadline:
        page.wait_for_function(WAIT_FOR_TURN, timeout=30_000)
        if page.locator(ROOT).get_attribute("data-state") == "finished":
            break
        # At each decision the focus already waits on one of its controls.
        assert page.evaluate(ACTIVE_CONTROL) == "control", f"decision {decisions}"
        version = page.locator(ROOT).get_attribute("data-version")
        decide_by_keyboard(page)
        decisions += 1
        page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
        # Right after the move, while the bot thinks, the focus has not fallen to the body.
        assert page.evaluate(ACTIVE_CONTROL) != "body", f"after decision {decisions}"
    else:
        raise AssertionError(f"no end within {GAME_SECONDS} s ({decisions} decisions)")
    assert decisions >= 5
    result = page.locator("[data-result]").inner_text()
    assert re.search(r"wins|win", result), result
    # The end leaves the focus on a control too: the end-of-game choices (Rematch, ...).
    assert page.evaluate("() => document.activeElement !== document.body")
    screenshot(page, "keyboard-game-over-1280")
