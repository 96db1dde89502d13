"""Accounts in a real Chromium against the real ASGI server: what a new player goes through."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

PASSWORD = "Gonfalonier-of-Florence-1478"


def header_name(page):
    return page.get_by_test_id("header-name")


def account_link(page, name):
    return page.get_by_role("navigation", name="Account").get_by_role("link", name=name)


def test_sign_up_log_out_log_in_and_rename_yourself(page, live_url):
    page.goto(f"{live_url}/")
    account_link(page, "Sign up").click()
    expect(page).to_have_url(f"{live_url}/accounts/signup/")

    page.get_by_label("Username").fill("lorenzo")
    page.get_by_label("Display name").fill("Lorenzo")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()

    # Landed logged in, on the home page, greeted.
    expect(page).to_have_url(f"{live_url}/")
    expect(page.get_by_role("status")).to_contain_text("Welcome, Lorenzo!")
    expect(header_name(page)).to_have_text("Lorenzo")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("status")).to_contain_text("You have logged out.")
    expect(header_name(page)).to_have_count(0)

    account_link(page, "Log in").click()
    page.get_by_label("Username").fill("lorenzo")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(header_name(page)).to_have_text("Lorenzo")

    header_name(page).click()
    expect(page).to_have_url(f"{live_url}/accounts/profile/")
    expect(page.get_by_test_id("profile-name")).to_have_text("Lorenzo")
    expect(page.get_by_test_id("games-played")).to_have_text("0")
    expect(page.get_by_text("Member since")).to_be_visible()

    page.get_by_label("Display name").fill("Il Magnifico")
    page.get_by_role("button", name="Save display name").click()
    expect(page.get_by_role("status")).to_contain_text("Il Magnifico")
    expect(page.get_by_test_id("profile-name")).to_have_text("Il Magnifico")
    expect(header_name(page)).to_have_text("Il Magnifico")

    # Everyone else sees the new name at the player's address.
    page.goto(f"{live_url}/players/lorenzo/")
    expect(page.get_by_test_id("profile-name")).to_have_text("Il Magnifico")


def test_a_visitor_who_wants_to_play_logs_in_and_arrives_where_they_were_going(
    page, live_url, create_player
):
    create_player("giovanni", password=PASSWORD, display_name="Giovanni")

    page.goto(f"{live_url}/")
    page.get_by_role("link", name="Play against bots").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/play/$"))

    page.get_by_label("Username").fill("giovanni")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{live_url}/play/")
    expect(header_name(page)).to_have_text("Giovanni")


def overflows_horizontally(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def test_at_360_pixels_the_header_collapses_behind_a_menu_button(
    new_page, live_url, create_player, log_in
):
    page = new_page(width=360, height=740)
    page.goto(f"{live_url}/")
    menu_button = page.get_by_role("button", name="Menu")
    log_in_link = account_link(page, "Log in")

    expect(menu_button).to_be_visible()
    expect(menu_button).to_have_attribute("aria-expanded", "false")
    expect(log_in_link).to_be_hidden()
    assert not overflows_horizontally(page)

    menu_button.click()
    expect(menu_button).to_have_attribute("aria-expanded", "true")
    expect(log_in_link).to_be_visible()
    expect(page.get_by_label("Language")).to_be_visible()
    page.keyboard.press("Escape")
    expect(log_in_link).to_be_hidden()

    page.goto(f"{live_url}/accounts/signup/")
    assert not overflows_horizontally(page)

    log_in(page, create_player("bartolomeo_colleoni_of_bergamo", display_name="Bartolomeo"))
    page.goto(f"{live_url}/accounts/profile/")
    expect(page.get_by_test_id("profile-name")).to_have_text("Bartolomeo")
    assert not overflows_horizontally(page)


def test_the_skip_link_is_the_first_stop_and_moves_focus_to_the_content(page, live_url):
    page.goto(f"{live_url}/")
    page.keyboard.press("Tab")
    skip_link = page.get_by_role("link", name="Skip to main content")
    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()

    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()


def test_the_language_switcher_changes_the_page_language(page, live_url):
    page.goto(f"{live_url}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    page.get_by_label("Language").select_option("fr")
    page.get_by_role("button", name="Change language").click()

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page).to_have_url(f"{live_url}/")
