"""The Renaissance table's page (games/views/renaissance_table.py): the map, the containers, the
board's facts and the words, the same for a seat, a spectator and an anonymous visitor; never a
hand, a vote or a decision (those come over the socket only)."""

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
    """The page from the table's root to its scripts, without the CSRF token (per visitor)."""
    part = page[page.index("data-rn-root") : page.index('id="rn-log-labels"')]
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
