"""The game page: who may look at it, what the server puts in it, and what it must never put in it.

The page is only the frame of the game: the map, the translated words and how to connect. Every
card reaches the browser over the websocket as that socket's own view, so the HTML must be the
same for a player and a spectator and must never carry a view, a hand or a snapshot.
"""

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.engine import GameState, view_for
from games.models import Game, Seat
from games.services import start_game

# The 17 regions as the rulings name them (written out here, not read from the code under test).
REGIONS = (
    "Torino", "Milano", "Venezia", "Genova", "Mantova", "Ferrara", "Parma", "Modena", "Bologna",
    "Lucca", "Firenze", "Siena", "Urbino", "Ancona", "Spoleto", "Roma", "Napoli",
)  # fmt: skip


class JsonScripts(HTMLParser):
    """Collects the `<script type="application/json" id=...>` blocks (Django's json_script)."""

    def __init__(self):
        super().__init__()
        self.blocks = {}
        self._current = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script" and attributes.get("type") == "application/json":
            self._current = attributes.get("id")
            self.blocks[self._current] = ""

    def handle_endtag(self, tag):
        if tag == "script":
            self._current = None

    def handle_data(self, data):
        if self._current is not None:
            self.blocks[self._current] += data


def json_scripts(html: str) -> dict:
    parser = JsonScripts()
    parser.feed(html)
    return {name: json.loads(text) for name, text in parser.blocks.items()}


@pytest.fixture
def players(django_user_model):
    return {
        # No password: hashing one is slow, and the tests log in with force_login.
        name: django_user_model.objects.create_user(username=name)
        for name in ("alice", "bruno", "carla")
    }


def make_game(creator, *, status_open=False, bots=2) -> Game:
    game = Game.objects.create(players=bots + 1, created_by=creator)
    Seat.objects.create(game=game, index=0, user=creator)
    for index in range(1, bots + 1):
        Seat.objects.create(game=game, index=index, bot_level="random")
    if not status_open:
        start_game(game.pk)
        game.refresh_from_db()
    return game


def page_of(client, game):
    return client.get(reverse("game", args=[game.pk]))


@pytest.mark.django_db
def test_it_renders_for_the_seated_player(client, players):
    game = make_game(players["alice"])
    client.force_login(players["alice"])
    response = page_of(client, game)
    assert response.status_code == 200
    assert "game/game.html" in [template.name for template in response.templates]


@pytest.mark.django_db
def test_it_renders_for_a_logged_in_spectator(client, players):
    game = make_game(players["alice"])
    client.force_login(players["bruno"])
    assert page_of(client, game).status_code == 200


@pytest.mark.django_db
def test_an_anonymous_visitor_may_watch(client, players):
    game = make_game(players["alice"])
    assert page_of(client, game).status_code == 200


@pytest.mark.django_db
def test_a_finished_game_still_shows_its_board(client, players):
    game = make_game(players["alice"])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert page_of(client, game).status_code == 200


@pytest.mark.django_db
def test_the_page_holds_the_board_with_its_17_regions(client, players):
    game = make_game(players["alice"])
    html = page_of(client, game).content.decode()
    found = re.findall(r'<g class="region"[^>]*data-region="([A-Za-z]+)"', html)
    assert sorted(found) == sorted(REGIONS)
    for region in REGIONS:
        assert re.search(rf'data-region="{region}"[^>]*data-marker-x="[\d.]+"', html)


@pytest.mark.django_db
def test_the_page_carries_the_translated_labels_and_how_to_connect(client, players):
    game = make_game(players["alice"])
    blocks = json_scripts(page_of(client, game).content.decode())
    labels = blocks["game-labels"]
    # Every card code the engine uses has a name, and special cards a one-line effect.
    for code in ("m1", "m2", "m3", "m4", "m5", "m6", "m10"):
        assert labels["cards"][code]["kind"] == "mercenary"
    for code in ("winter", "spring", "bishop", "courtesan", "drummer", "heroine", "scarecrow"):
        assert labels["cards"][code]["effect"]
    assert labels["cards"]["surrender"]["effect"]
    assert set(labels["regions"]) == set(REGIONS)
    for phase in ("choose_region", "battle", "discard_hand", "keep", "draw", "final_battle"):
        assert labels["phases"][phase]
    assert {"play", "pass", "choose_region", "battle_won"} <= set(labels["log"])
    assert blocks["game-info"] == {
        "id": game.pk,
        "wsPath": f"/ws/games/{game.pk}/",
        "protocol": 1,
        "status": "playing",  # as drawn: a game that ends later brings its end's lines live
    }


@pytest.mark.django_db
def test_labels_follow_the_language_of_the_request(client, players):
    game = make_game(players["alice"])
    response = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert '<html lang="fr"' in response.content.decode()


@pytest.mark.django_db
def test_an_open_table_redirects_to_its_table_page(client, players):
    game = make_game(players["alice"], status_open=True)
    client.force_login(players["alice"])
    response = page_of(client, game)
    assert response.status_code == 302
    assert response["Location"] == reverse("table_detail", args=[game.pk])


@pytest.mark.django_db
def test_a_game_that_does_not_exist_is_404(client):
    assert client.get(reverse("game", args=[999_999])).status_code == 404


def strip_per_request_bits(html: str) -> str:
    """What may differ between two visitors without being about the game: CSRF tokens, the
    content-security nonce (new on every response), the header's account links (names,
    profile URL) and how the chat lets them post (a form, or a log-in link for a visitor)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r' nonce="[^"]+"', "", html)
    html = re.sub(r'<div class="chat__post" data-chat-post>.*?</div>', "", html, flags=re.S)
    return re.sub(r'<header class="site-header".*?</header>', "", html, flags=re.S)


@pytest.mark.django_db
def test_the_page_never_carries_a_hand_or_a_view(client, players):
    game = make_game(players["alice"])
    state = GameState.from_json(game.snapshot)
    hand = view_for(state, 0)["hand"]
    assert hand, "seat 0 is dealt cards at the start"
    client.force_login(players["alice"])
    seated = page_of(client, game).content.decode()

    # No view is embedded: the only data blocks are how to connect and the translated words.
    blocks = json_scripts(seated)
    assert set(blocks) == {"game-info", "game-labels"}
    assert set(blocks["game-info"]) == {"id", "wsPath", "protocol", "status"}
    assert set(blocks["game-labels"]) == {
        "cards", "regions", "colours", "phases", "log", "reasons", "ui", "plurals"
    }  # fmt: skip
    # The hand, in the order dealt or sorted, appears nowhere as a list of codes.
    for cards in (hand, sorted(hand)):
        assert json.dumps(cards) not in seated
        assert ",".join(cards) not in seated
    assert game.snapshot not in seated

    # And the page the player gets is the very page an anonymous spectator gets.
    client.logout()
    anonymous = page_of(client, game).content.decode()
    assert strip_per_request_bits(seated) == strip_per_request_bits(anonymous)
