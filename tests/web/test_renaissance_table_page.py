"""The Renaissance table's page (games/views/renaissance_table.py): the map, the containers, the
board's facts and the words, the same for a seat, a spectator and an anonymous visitor; never a
hand, a vote or a decision (those come over the socket only)."""

import html
import json
import random
import re

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Game
from games.rules_api import RENAISSANCE
from games.services import load_state, submit_action
from tests.web.renaissance_games import people_table

pytestmark = pytest.mark.django_db

CONTAINERS = (
    "data-rn-board",
    "data-rn-status",
    "data-rn-seats",
    "data-rn-hand",
    "data-rn-decision",
    "data-rn-log",
    "data-rn-chat",
    "data-rn-battle",
    "data-rn-diplomacy",
    "data-rn-end",
)


def json_script(page: str, element_id: str):
    pattern = rf'<script id="{element_id}" type="application/json">(.*?)</script>'
    match = re.search(pattern, page, re.S)
    assert match, f"no json_script {element_id}"
    return json.loads(match.group(1))


def table_part(page: str) -> str:
    """The page from the table's root to its scripts, without the CSRF token and the chat's way
    to post (a form, or a log-in link for a visitor): both depend on the account, not the game."""
    part = page[page.index("data-rn-root") : page.index('id="rn-log-labels"')]
    part = re.sub(r'<div class="chat__post" data-chat-post>.*?</div>', "", part, flags=re.S)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", part)


def play_to_a_vote_with_a_secret(game: Game) -> dict:
    """Random legal moves until seat 0 has voted and others have not: its vote is a secret."""
    rng = random.Random(7)
    while True:
        game.refresh_from_db()
        state = load_state(game)
        view = RENAISSANCE.view_for(state, 0)
        if view["phase"] == "vote" and view["vote"] is not None and view["acting_seats"]:
            return view
        seats = sorted(RENAISSANCE.acting_seats(state))
        seat = 0 if 0 in seats else rng.choice(seats)
        action = rng.choice(RENAISSANCE.legal_actions(state, seat))
        submit_action(game.pk, seat, action, game.version)


@pytest.fixture
def voting_game(make_user):
    people = [make_user(name) for name in ("ann", "ben", "cat")]
    game = people_table(people, seed=11)
    view = play_to_a_vote_with_a_secret(game)
    return game, people, view


def test_a_seat_gets_the_table_with_its_map_containers_and_words(client, voting_game):
    game, people, _view = voting_game
    client.force_login(people[0])
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    assert [template.name for template in response.templates][0] == "game/renaissance.html"
    page = response.content.decode()
    for container in CONTAINERS:
        assert container in page, container
    assert 'class="rn-map"' in page and 'data-city="Venezia"' in page
    assert json_script(page, "game-info") == {
        "id": game.pk,
        "wsPath": f"/ws/games/{game.pk}/",
        "protocol": 1,
        "ruleset": "renaissance",
    }
    facts = json_script(page, "rn-board")
    assert facts["cities"]["Venezia"]["province"] == "Repubblica di Venezia"
    assert facts["cities"]["Venezia"]["port"] is True
    labels = json_script(page, "rn-labels")
    assert labels["cards"]["swiss"]["strength"] == 7
    assert labels["cards"]["condottiere"]["strength"] is None
    assert labels["nations"]["milan"]["mark"]
    assert labels["ui"]["turn_title"]  # the turn cue's words
    for element_id in ("rn-battle-labels", "rn-log-labels"):
        assert isinstance(json_script(page, element_id), dict)
    assert "data-game-shell" not in page


def test_the_page_is_the_same_for_a_seat_a_spectator_and_a_visitor_and_holds_no_secret(
    client, make_user, voting_game
):
    game, people, view = voting_game
    pages = []
    client.force_login(people[0])
    pages.append(client.get(reverse("game", args=[game.pk])).content.decode())
    client.force_login(make_user("watcher"))
    pages.append(client.get(reverse("game", args=[game.pk])).content.decode())
    client.logout()
    pages.append(client.get(reverse("game", args=[game.pk])).content.decode())
    parts = [table_part(page) for page in pages]
    assert parts[0] == parts[1] == parts[2]  # the labels and the board's facts included
    markup = parts[0][: parts[0].index('id="game-info"')]
    assert view["vote"] is not None  # seat 0 has voted, and others have not: a secret
    for secret in ("legal_actions", "diplomacy_actions", "acting_seats", "data-card="):
        assert secret not in markup


@pytest.mark.parametrize(
    ("language", "pikemen", "your_turn"),
    [("fr", "Piquiers", "À vous de jouer"), ("en", "Pikemen", "Your turn")],
)
def test_the_words_are_in_the_visitors_language(client, make_user, language, pikemen, your_turn):
    game = people_table([make_user(name) for name in ("ann", "ben", "cat")], seed=3)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    labels = json_script(page, "rn-labels")
    assert labels["cards"]["pikemen"]["name"] == pikemen
    assert labels["ui"]["your_turn"] == your_turn


def test_a_condottiere_game_keeps_its_own_page(client, make_user, make_table):
    game = make_table(3)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "data-rn-root" not in page and "data-game-root" in page


def chips_of(page: str) -> dict:
    """The table's rule chips, by what each says (data-rule), with whether it says a default."""
    chip = r'<li class="rule-chip( rule-chip--plain)?" data-rule="(\w+)">([^<]+)</li>'
    return {key: (html.unescape(text), bool(plain)) for plain, key, text in re.findall(chip, page)}


@pytest.mark.parametrize(
    ("people", "options", "seconds", "expected"),
    [
        (
            3,
            {},
            None,
            {
                "game": ("Renaissance", False),
                "scenario": ("The game of 1454", True),
                "powers": ("No nations' powers", True),
                "timer": ("No timer", True),
            },
        ),
        (
            4,
            {"remove": "milan"},
            60,
            {
                "game": ("Renaissance", False),
                "scenario": ("The game of 1454", True),
                "powers": ("No nations' powers", True),
                "remove": ("Without Milan", False),
                "timer": ("60 s per decision", False),
            },
        ),
        (
            5,
            {"scenario": "1494", "powers": True},
            None,
            {
                "game": ("Renaissance", False),
                "scenario": ("Scenario 1494", False),
                "powers": ("Nations' powers", False),
                "timer": ("No timer", True),
            },
        ),
    ],
)
def test_the_tables_rules_are_chips_from_its_public_options(
    client, make_user, people, options, seconds, expected
):
    game = people_table([make_user(f"p{n}") for n in range(people)], options=options, seed=5)
    Game.objects.filter(pk=game.pk).update(turn_seconds=seconds)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert chips_of(page) == expected


def test_the_table_links_to_the_rules_and_names_its_map_in_the_visitors_language(client, make_user):
    game = people_table([make_user(name) for name in ("ann", "ben", "cat")], seed=3)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    link = re.search(r'<a href="([^"]+)" data-testid="rn-rules-link"', page)
    assert link and link.group(1) == reverse("rules_renaissance")
    # The map's accessible name (its <title>, which aria-labelledby points at) is translated.
    assert '<title id="rn-map-title">Map of Italy</title>' in page
    assert "Italia 1454</title>" not in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    french = client.get(reverse("game", args=[game.pk])).content.decode()
    title = re.search(r'<title id="rn-map-title">([^<]+)</title>', french).group(1)
    assert html.unescape(title) == json_script(french, "rn-labels")["ui"]["map"]


def test_with_the_powers_every_nation_has_its_power_in_words(client, make_user):
    game = people_table(
        [make_user(f"p{n}") for n in range(6)], options={"scenario": "1494", "powers": True}
    )
    labels = json_script(client.get(reverse("game", args=[game.pk])).content.decode(), "rn-labels")
    for nation in labels["nations"]:
        power = labels["powers"][nation]
        assert power["short"] and len(power["full"]) > len(power["short"]), nation
