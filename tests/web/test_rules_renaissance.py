"""The Renaissance rules page (/rules/renaissance/): one whole page per language, written from
docs/renaissance/rules.md and rulings.md.

Three pages must say the same things: each language's page has the same sections (same ids) and,
section by section, the same numbers, so a translation that drifts (a price changed in one
language only, a line left out) fails. The key figures are checked against the engine's own
constants (games/renaissance/), so the page cannot drift from the game either.
"""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from games.renaissance import board
from games.renaissance.cards import BLUE, COPIES, KIND, NAMES, VALUE
from games.renaissance.flow import FORTIFICATION, INCOME
from games.renaissance.legal import (
    CARD_PRICE,
    CASTLE_PRICE,
    HAND_LIMIT,
    PALACE_PRICE,
    RAMPART_PRICE,
)
from games.renaissance.setup import CASTLES, GARRISONS, PALACES, RAMPARTS, START_DUCATS
from games.renaissance.state import YEARS

LANGUAGES = ("en", "fr", "it")
TITLES = {
    "en": "How to play Renaissance",
    "fr": "Comment jouer à Renaissance",
    "it": "Come si gioca a Renaissance",
}
RULES_WORD = {"en": "Rules", "fr": "Règles", "it": "Regole"}
CONDOTTIERE_TITLES = {
    "en": "How to play Condottiere",
    "fr": "Comment jouer à Condottiere",
    "it": "Come si gioca a Condottiere",
}
# The cards as each language names them: the French rulebook's names (docs/renaissance/rules.md)
# and the site's catalogues (games/history/renaissance_steps.py).
CARD_NAMES = {
    "en": {
        "pikemen": "Pikemen", "arquebusiers": "Arquebusiers", "knights": "Knights",
        "cannon": "Cannon", "swiss": "Swiss", "condottiere": "Condottiere",
        "engineer": "Engineer", "traitor": "Traitor", "sign_of_god": "Sign of God",
        "retreat": "Retreat", "raiders": "Raiders", "ambassador": "Ambassador",
        "marriage": "Marriage", "ride": "Ride", "artist_banker": "Artist or Banker",
    },
    "fr": {
        "pikemen": "Piquiers", "arquebusiers": "Arquebusiers", "knights": "Chevaliers",
        "cannon": "Canon", "swiss": "Suisses", "condottiere": "Condottiere",
        "engineer": "Ingénieur", "traitor": "Félon", "sign_of_god": "Signe de Dieu",
        "retreat": "Retraite", "raiders": "Pillards", "ambassador": "Ambassadeur",
        "marriage": "Mariage", "ride": "Chevauchée", "artist_banker": "Artiste ou Banquier",
    },
    "it": {
        "pikemen": "Picchieri", "arquebusiers": "Archibugieri", "knights": "Cavalieri",
        "cannon": "Cannone", "swiss": "Svizzeri", "condottiere": "Condottiere",
        "engineer": "Ingegnere", "traitor": "Traditore", "sign_of_god": "Segno di Dio",
        "retreat": "Ritirata", "raiders": "Razziatori", "ambassador": "Ambasciatore",
        "marriage": "Matrimonio", "ride": "Cavalcata", "artist_banker": "Artista / Banchiere",
    },
}  # fmt: skip
SECTIONS = (
    "aim", "setup", "turn", "vote", "purchases", "expansion", "combat", "cards", "diplomacy",
    "scoring", "scenarios", "powers", "map",
)  # fmt: skip


def text(html: str) -> str:
    """Visible words, roughly: tags dropped, spaces (also non-breaking) folded."""
    return re.sub(r"[\s\u00a0\u202f]+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def article(html: str) -> str:
    """The rules themselves: the page's article, without the site's header and footer."""
    start = html.index('data-testid="rules"')
    return html[start : html.index("</article>", start)]


def sections(html: str) -> dict[str, str]:
    """Each h2's id -> the HTML from that h2 to the next; "intro" for what comes before."""
    parts = re.split(r'<h2 id="([^"]+)">', html)
    found = {"intro": parts[0]}
    found.update(zip(parts[1::2], parts[2::2], strict=True))
    return found


def numbers(html: str) -> list[int]:
    return sorted(int(n) for n in re.findall(r"\d+", text(html)))


def rows(html: str) -> list[list[str]]:
    """The body rows of the tables in `html`, as lists of cell texts."""
    bodies = re.findall(r"<tbody>(.*?)</tbody>", html, re.S)
    return [
        [text(cell) for cell in re.findall(r"<td>(.*?)</td>", row, re.S)]
        for body in bodies
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def cities_in(cell: str) -> set[str]:
    return {name for name in board.CITIES if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", cell)}


def page(client, language: str):
    response = client.get(reverse("rules_renaissance"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response


@pytest.fixture
def pages(client):
    return {language: article(page(client, language).content.decode()) for language in LANGUAGES}


# --- Each language gets its page ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_answers_in_the_visitors_language(client, language):
    response = page(client, language)
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    assert re.search(rf"<title>{RULES_WORD[language]} · Renaissance", html)
    assert TITLES[language] in text(html)
    others = set(LANGUAGES) - {language}
    assert not any(TITLES[other] in text(html) for other in others)


@pytest.mark.django_db
def test_the_language_switch_chooses_the_page(client):
    client.post(reverse("set_language"), {"language": "fr", "next": "/rules/renaissance/"})
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert TITLES["fr"] in text(client.get(reverse("rules_renaissance")).content.decode())
    client.post(reverse("set_language"), {"language": "it", "next": "/rules/renaissance/"})
    assert TITLES["it"] in text(client.get(reverse("rules_renaissance")).content.decode())


@pytest.mark.django_db
def test_an_unknown_language_gets_the_english_page(client):
    assert TITLES["en"] in text(page(client, "de").content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_two_rules_pages_link_to_each_other(client, language):
    renaissance = page(client, language).content.decode()
    condottiere = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert CONDOTTIERE_TITLES[language] in text(condottiere)
    assert f'href="{reverse("rules_renaissance")}"' in condottiere
    assert f'href="{reverse("rules")}"' in article(renaissance)


# --- The three pages say the same things --------------------------------------------------------


@pytest.mark.django_db
def test_every_language_has_the_same_sections_and_ids(pages):
    ids = {language: re.findall(r'\bid="([^"]+)"', html) for language, html in pages.items()}
    assert list(sections(pages["en"])) == ["intro", *SECTIONS]
    for language in ("fr", "it"):
        assert ids[language] == ids["en"], language
    # The table of contents leads to every section.
    for language, html in pages.items():
        toc = re.search(r'<nav class="rules__toc".*?</nav>', html, re.S).group(0)
        assert re.findall(r'href="#([^"]+)"', toc) == list(SECTIONS), language


@pytest.mark.django_db
def test_every_section_holds_the_same_numbers_in_every_language(pages):
    english = {name: numbers(html) for name, html in sections(pages["en"]).items()}
    for language in ("fr", "it"):
        for name, html in sections(pages[language]).items():
            assert numbers(html) == english[name], f"{language}: section {name!r} drifted"


@pytest.mark.django_db
def test_every_table_has_the_same_shape_in_every_language(pages):
    shapes = {lang: [len(row) for row in rows(html)] for lang, html in pages.items()}
    assert shapes["fr"] == shapes["en"] and shapes["it"] == shapes["en"]


# --- The key facts, from the engine's own figures -----------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_six_turns_from_1454_to_1494(pages, language):
    aim = text(sections(pages[language])["aim"])
    assert len(YEARS) == 6 and (YEARS[0], YEARS[-1]) == (1454, 1494)
    assert re.search(r"\b6\b", aim)
    assert re.findall(r"1[45]\d\d", aim)[:6] == [str(year) for year in YEARS]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_set_up_starting_pieces_and_cities(pages, language):
    setup = sections(pages[language])["setup"]
    for figure in (GARRISONS, START_DUCATS, RAMPARTS):
        assert re.search(rf"\b{figure}\b", text(setup)), figure
    starts = [cities_in(row[1]) for row in rows(setup) if len(row) == 2]
    assert sorted(map(sorted, starts)) == sorted(sorted(pair) for pair in board.STARTS.values())


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_peace_and_war_deal_what_the_rules_say(pages, language):
    peace, war = rows(sections(pages[language])["vote"])
    assert peace[1:3] == ["4", "4"]
    assert war[1] == "6" and not re.search(r"\d", war[2])


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_prices_and_the_12_card_limit(pages, language):
    purchases = sections(pages[language])["purchases"]
    prices = [int(re.match(r"\d+", row[1]).group(0)) for row in rows(purchases)]
    fortress = RAMPART_PRICE + CASTLE_PRICE
    assert (
        prices
        == [CARD_PRICE, PALACE_PRICE, RAMPART_PRICE, CASTLE_PRICE, fortress]
        == [2, 3, 4, 4, 8]
    )
    assert HAND_LIMIT == 12 and re.search(r"\b12\b", text(purchases))
    for figure in (RAMPARTS, CASTLES, PALACES):
        assert re.search(rf"\b{figure}\b", text(purchases))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_fortifications_and_the_condottiere_die(pages, language):
    combat = sections(pages[language])["combat"]
    assert [int(row[1]) for row in rows(combat)] == list(FORTIFICATION) == [2, 4, 6]
    die = re.search(r"rout|déroute|rotta", text(combat), re.I)
    assert die and "4, 5, 5" in text(combat)[die.start() :]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_its_name_and_its_count(pages, language):
    cards = sections(pages[language])["cards"]
    names = CARD_NAMES[language]
    blue = {row[0]: (int(row[1]), int(row[2])) for row in rows(cards)}
    for kind in BLUE:
        assert blue[names[NAMES[kind]]] == (VALUE[kind], COPIES[kind]), NAMES[kind]
    boxes = dict(re.findall(r'id="card-([a-z-]+)"><h3>(.*?)</h3>', cards))
    others = [name for name in NAMES if KIND[name] not in BLUE]
    assert sorted(boxes) == sorted(name.replace("_", "-") for name in others)
    for name in others:
        title = text(boxes[name.replace("_", "-")])
        assert title == f"{names[name]} ({COPIES[KIND[name]]})", title
    assert re.search(r"\b80\b", text(cards)) and sum(COPIES) == 80


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_scoring_income_and_tie_breaks(pages, language):
    scoring = sections(pages[language])["scoring"]
    points, income = rows(scoring)[:2], rows(scoring)[2:]
    assert [row[1] for row in points] == ["1", "1"]
    assert [int(row[1].split()[0]) for row in income[:3]] == list(INCOME) == [1, 2, 3]
    assert "1494" in text(scoring)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_scenarios_starts_are_the_engines(pages, language):
    scenarios = sections(pages[language])["scenarios"]
    tables = re.split(r"<h3>", scenarios)[1:]
    assert [re.match(r"\d+", table).group(0) for table in tables] == ["1494", "1499", "1515"]
    for year, table in zip(("1494", "1499", "1515"), tables, strict=True):
        data = board.SCENARIOS[year]
        page_rows = rows(table)
        expected = [{city for slot in slots for city in slot} for slots in data["starts"].values()]
        assert [cities_in(row[1]) for row in page_rows] == expected, year
        by_sea = [row[0].endswith("*") for row in page_rows]
        assert by_sea == [nation in data["two_sea_expansions"] for nation in data["starts"]], year


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_map_note_gives_the_boards_own_figures(pages, language):
    note = text(sections(pages[language])["map"])
    figures = (len(board.CITIES), len(board.PROVINCES), len(board.ROADS), len(board.PORTS))
    assert numbers(note) == sorted([*figures, 1454])
