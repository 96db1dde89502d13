"""Languages in Chromium: the header's switcher turns the site French, then Italian; a game
against bots opened in Italian shows the Italian rulebook's card names in the hand; the rules
page in each language (screenshots in test-artifacts/languages/ to look at)."""

import re

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS

SHOTS = ARTIFACTS / "languages"
ITALIAN_SPECIALS = {
    "Inverno",
    "Primavera",
    "Vescovo",
    "Cortigiana",
    "Tamburino",
    "Eroina",
    "Spaventapasseri",
    "Resa",
}
ENGLISH_SPECIALS = {
    "Winter",
    "Spring",
    "Bishop",
    "Courtesan",
    "Drummer",
    "Heroine",
    "Scarecrow",
    "Surrender",
}


def switch_language(page, code: str, label: str, button: str):
    """Use the header's switcher as a visitor would: pick the language, press the button."""
    page.get_by_label(label, exact=True).select_option(code)
    page.get_by_role("button", name=button).click()
    expect(page.locator("html")).to_have_attribute("lang", code)


def test_the_switcher_turns_the_site_french_then_italian(page, live_url, create_player, log_in):
    log_in(page, create_player("beatrice"))
    page.goto(f"{live_url}/")
    expect(page.get_by_role("link", name="Rules", exact=True)).to_be_visible()

    switch_language(page, "fr", "Language", "Change language")
    expect(page).to_have_url(f"{live_url}/")
    expect(page.get_by_role("link", name="Règles", exact=True)).to_be_visible()
    expect(page.get_by_test_id("cta-play")).to_have_text("Jouer contre des bots")

    switch_language(page, "it", "Langue", "Changer de langue")
    expect(page.get_by_role("link", name="Regole", exact=True)).to_be_visible()
    expect(page.get_by_test_id("cta-play")).to_have_text("Gioca contro i bot")

    # The choice sticks while browsing: the lobby is Italian too.
    page.get_by_role("navigation", name="Principale").get_by_role("link", name="Sala").click()
    expect(page.get_by_role("heading", name="Trova una partita")).to_be_visible()


def test_a_game_against_bots_in_italian_names_the_cards_in_italian(
    new_page, live_url, create_player, log_in
):
    page = log_in(new_page(1280, 900), create_player("ottavio"))
    page.goto(f"{live_url}/")
    switch_language(page, "it", "Language", "Change language")

    page.goto(f"{live_url}/play/")
    page.select_option("#id_bots", "2")
    page.select_option("#id_level", "random")
    page.get_by_role("button", name="Inizia la partita").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))

    hand = page.locator("[data-hand] .card")
    expect(hand.first).to_be_visible(timeout=15_000)
    expect(page.get_by_role("heading", name="La tua mano")).to_be_visible()
    special_names = set(page.locator("[data-hand] .card__name").all_text_contents())
    mercenary_labels = set(page.locator("[data-hand] .card__label").all_text_contents())
    assert special_names | mercenary_labels, "the hand shows no card name"
    assert special_names <= ITALIAN_SPECIALS, special_names
    assert mercenary_labels <= {"Mercenario"}, mercenary_labels
    assert not ENGLISH_SPECIALS & set(
        re.findall(r"\w+", page.locator("[data-hand]").text_content())
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "game-it.png"))


def test_the_rules_page_in_each_language(new_page, live_url):
    page = new_page(1280, 900)
    headings = {
        "en": "How to play Condottiere",
        "fr": "Comment jouer à Condottiere",
        "it": "Come si gioca a Condottiere",
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    for code, heading in headings.items():
        page.context.add_cookies([{"name": "django_language", "value": code, "url": live_url}])
        page.goto(f"{live_url}/rules/")
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        expect(page.locator("[data-testid=rules] .rules__card")).to_have_count(8)
        page.screenshot(path=str(SHOTS / f"rules-{code}.png"), full_page=True)
