"""The hint in Chromium (#16, analysis): in an unrated game against the site's bots, the seated
player asks and reads the search's move for the decision in front of them, a legal one; a
spectator of the same game is not offered the button."""

from tests.e2e.test_feedback_e2e import start_game_against_a_bot, wait_for_my_turn
from tests.e2e.test_game_e2e import ROOT


def test_the_player_gets_a_hint_and_a_spectator_no_button(server, new_page, django_user_model):
    page = new_page(1280, 800)
    user = django_user_model.objects.create_user("isabella")
    start_game_against_a_bot(page, server, user)
    wait_for_my_turn(page)
    hint = page.locator("[data-hint]")
    assert hint.is_visible()
    version = page.locator(ROOT).get_attribute("data-version")
    page.locator("[data-hint-button]").click()
    page.wait_for_function(
        "() => document.querySelector('[data-hint]').dataset.hintVersion !== undefined"
        " || /could|moved/.test(document.querySelector('[data-hint-text]').textContent)",
        timeout=30_000,
    )
    assert hint.get_attribute("data-hint-version") == version
    assert page.locator("[data-hint-text]").inner_text().startswith("The search suggests:")

    spectator = new_page(1280, 800)
    spectator.goto(page.url)
    spectator.wait_for_selector(f"{ROOT}[data-version]")
    assert spectator.locator("[data-hint]").is_hidden()
