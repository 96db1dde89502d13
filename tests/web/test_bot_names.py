# ruff: noqa: F811  (the played_game fixture is imported from test_replay and used by name)
"""A bot's seat is named in the reader's language; a game record names it in English, so the
same game always exports the same record."""

import pytest
from django.utils import translation

from games.models import Seat
from games.records import record_for
from tests.web.test_replay import played_game  # noqa: F401  (a fixture)


@pytest.mark.parametrize(
    "language, name",
    [("en", "Bot (Medium)"), ("fr", "Bot (Moyen)"), ("it", "Bot (Medio)")],
)
def test_a_bot_seat_is_named_in_the_reader_language(language, name):
    with translation.override(language):
        assert Seat(bot_level="medium").occupant_name() == name


@pytest.mark.django_db
def test_a_record_names_bot_seats_in_english_whatever_the_language(played_game):
    game = played_game(2, seed=5)
    game.seats.filter(index=1).update(user=None, bot_level="heuristic")

    with translation.override("fr"):
        seats = record_for(game)["seats"]

    assert seats[1]["name"] == "Bot (Solid)"
    assert seats[1]["level"] == "heuristic"
