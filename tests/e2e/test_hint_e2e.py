"""The hint in Chromium (#16, analysis): in an unrated game against the site's bots, the seated
player asks and reads the search's move for the decision in front of them, said to them ("Play
the Courtesan") with a short reason, the card it names marked in their hand, on screen and on
top; a spectator of the same game is not offered the button.

"Visible" is on screen and on top: the box inside the viewport and `document.elementFromPoint`
at its centre hitting the element or a descendant."""

from games.board.words import card_labels
from tests.e2e.seen import on_screen_and_on_top
from tests.e2e.test_feedback_e2e import (
    MOVED_ON,
    play_until,
    start_game_against_a_bot,
    take_a_plain_decision,
    wait_for_my_turn,
)
from tests.e2e.test_game_e2e import ROOT

HINT_READ = (
    "() => document.querySelector('[data-hint]').dataset.hintVersion !== undefined"
    " || /could|moved/.test(document.querySelector('[data-hint-text]').textContent)"
)
# Decisions at which a hint is asked before one suggests a card (a hint may say "Pass").
ATTEMPTS = 3


def can_play_a_card(frame) -> bool:
    return any(action["type"] == "play" for action in frame["view"].get("legal_actions") or [])


def ask_for_a_hint(page) -> str:
    version = page.locator(ROOT).get_attribute("data-version")
    page.locator("[data-hint-button]").click()
    page.wait_for_function(HINT_READ, timeout=30_000)
    assert page.locator("[data-hint]").get_attribute("data-hint-version") == version
    return page.locator("[data-hint-text]").inner_text()


def test_the_player_gets_a_hint_and_a_spectator_no_button(server, new_page, django_user_model):
    page = new_page(1280, 800)
    user = django_user_model.objects.create_user("isabella")
    start_game_against_a_bot(page, server, user)
    wait_for_my_turn(page)
    hint = page.locator("[data-hint]")
    assert hint.is_visible()
    text = ask_for_a_hint(page)
    # Said to the player, with its reason after a colon; never "Red plays ...".
    assert text.split()[0] in {"Play", "Pass", "Send", "Discard", "Keep"}, text
    assert ": " in text, "a hint gives its reason"

    spectator = new_page(1280, 800)
    spectator.goto(page.url)
    spectator.wait_for_selector(f"{ROOT}[data-version]")
    assert spectator.locator("[data-hint]").is_hidden()


def test_a_hinted_card_is_marked_in_the_hand(server, new_page, django_user_model):
    page = new_page(1280, 900)
    user = django_user_model.objects.create_user("lucrezia")
    frames = start_game_against_a_bot(page, server, user)
    for _ in range(ATTEMPTS):
        play_until(page, frames, can_play_a_card)
        text = ask_for_a_hint(page)
        if text.startswith("Play "):
            break
        version = page.locator(ROOT).get_attribute("data-version")
        take_a_plain_decision(page)  # the hint said to pass: ask again at the next decision
        page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    assert text.startswith("Play "), f"no card suggested in {ATTEMPTS} decisions: {text}"
    assert "costs your" in text

    marked = page.locator("[data-hand] .is-hinted")
    assert marked.count() == 1
    card = card_labels()[marked.get_attribute("data-card")]
    assert str(card.get("title") or card["name"]) in text.split(":")[0], "the card named is marked"
    assert on_screen_and_on_top(marked), "the hinted card is not on screen and on top"
    assert marked.evaluate("element => getComputedStyle(element).outlineStyle") == "solid"

    # The game moves on: the mark goes with the hint.
    version = page.locator(ROOT).get_attribute("data-version")
    take_a_plain_decision(page)
    page.wait_for_function(MOVED_ON, arg=version, timeout=30_000)
    assert page.locator(".is-hinted").count() == 0
