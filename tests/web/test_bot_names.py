# ruff: noqa: F811  (the played_game fixture is imported from test_replay and used by name)
"""Each bot seat is a named condottiere with its level, e.g. "Colleoni (hard bot)": a different
one for each seat of a game, the same for that seat everywhere (pages, frames, record, replay),
the level in the reader's language; a game record names it in English, so the same game always
exports the same record, and records written before keep the names they hold."""

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise

from games.history.records import record_for
from games.models import Seat
from games.services.frames import seat_entry
from games.sockets.lobby import table_entry
from games.words.bot_names import CONDOTTIERI, LEVEL_DESCRIPTIONS, condottiere_name, level_name
from tests.web.test_replay import played_game  # noqa: F401  (a fixture)

LEVELS = ["random", "easy", "heuristic", "medium", "hard", "expert"]


def test_a_bot_seat_is_a_condottiere_with_its_level():
    with translation.override("en"):
        name = Seat(game_id=3, index=2, bot_level="hard").occupant_name()
    assert name == f"{condottiere_name(3, 2)} (hard bot)"
    assert condottiere_name(3, 2) in CONDOTTIERI


def test_the_level_is_in_the_reader_language():
    with translation.override("fr"):
        name = Seat(game_id=3, index=2, bot_level="medium").occupant_name()
    assert name.startswith(condottiere_name(3, 2)) and "moyen" in name


@pytest.mark.parametrize("game_id", range(1, 40))
def test_the_bot_seats_of_one_game_have_different_names(game_id):
    names = {condottiere_name(game_id, index) for index in range(6)}  # six seats at most
    assert len(names) == 6


def test_names_vary_from_game_to_game_and_are_stable():
    assert len({condottiere_name(game_id, 0) for game_id in range(1, 13)}) > 1
    assert condottiere_name(7, 1) == condottiere_name(7, 1)


@pytest.mark.django_db
def test_a_game_names_its_bots_the_same_on_the_page_the_frame_and_the_lobby(
    make_table, make_user, client
):
    host = make_user("host")
    game = make_table(4, people={0: host}, bots=dict(enumerate(LEVELS[1:4], start=1)))
    seats = list(game.seats.order_by("index"))
    with translation.override("en"):
        names = [seat.occupant_name() for seat in seats[1:]]
        frame_names = [seat_entry(seat, None)["name"] for seat in seats[1:]]
    assert len(set(names)) == 3
    assert frame_names == names
    lobby = table_entry(game, None)["seats"]
    assert [seat["name"] for seat in lobby[1:]] == [condottiere_name(game.pk, i) for i in (1, 2, 3)]

    client.force_login(host)
    page = client.get(reverse("table_detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    for name in names:
        assert name in html


@pytest.mark.django_db
def test_a_record_names_bot_seats_in_english_whatever_the_language(played_game):
    game = played_game(2, seed=5)
    game.seats.filter(index=1).update(user=None, bot_level="heuristic")

    with translation.override("fr"):
        seats = record_for(game)["seats"]

    assert seats[1]["name"] == f"{condottiere_name(game.pk, 1)} (solid bot)"
    assert seats[1]["level"] == "heuristic"


@pytest.mark.django_db
def test_an_old_record_keeps_the_bot_names_it_holds(played_game):
    # Records exported before seats had names say "Bot (Solid)": imported, they keep it.
    game = played_game(2, seed=5)
    game.seats.filter(index=1).update(user=None, bot_level="heuristic", record_name="Bot (Solid)")

    assert record_for(game)["seats"][1]["name"] == "Bot (Solid)"


# --- Each level described where it is chosen ---------------------------------------------------

DESCRIBED = {  # the words that say what each level does and how strong it is (docs/ai.md)
    "random": "at random, the weakest",
    "easy": "with frequent slips",
    "heuristic": "without slips",
    "medium": "under half a second a move",
    "hard": "1.5 seconds a move; strong",
    "expert": "up to 4 seconds a move; the strongest",
}


def level_options(html: str, field: str) -> dict[str, str]:
    select = re.search(rf'<select name="{field}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {field}"
    options = re.findall(r'<option value="(\w+)"[^>]*>(.*?)</option>', select.group(1), re.S)
    return {value: unescape(text) for value, text in options}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("page", "field"),
    [("play", "level"), ("table_new", "seat_1_level"), ("lobby", "autofill_level")],
)
def test_every_level_is_described_where_it_is_chosen(client, make_user, page, field):
    client.force_login(make_user())
    html = client.get(reverse(page), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    options = level_options(html, field)

    for level, words in DESCRIBED.items():
        assert options[level].startswith(level_name(level)), options[level]
        assert words in options[level], options[level]


def test_the_level_descriptions_are_translatable():
    # Lazy translations: each is looked up in the reader's language when the form is drawn.
    assert set(LEVEL_DESCRIPTIONS) == set(DESCRIBED)
    assert all(isinstance(text, Promise) for text in LEVEL_DESCRIPTIONS.values())
