"""The harness reads a spectator's state frame by its opening alone (tests/load/clients.py,
`state_head`): it must read the frames the server writes today, and those of older commits,
which the harness measures with --root."""

import json

import pytest

from games.models import Game
from games.services import start_game
from games.services.frames import read_table
from tests.load.clients import state_head

pytestmark = pytest.mark.django_db


def test_the_head_of_the_server_s_own_state_frame_is_read(make_table):
    game = make_table(4, bots={seat: "random" for seat in range(4)})
    start_game(game.pk)
    table = read_table(game.pk)
    assert state_head(table.text_for(None)) == (0, Game.Status.PLAYING)
    # An older commit wrote frames with json.dumps, a space after each separator.
    assert state_head(json.dumps(table.frame_for(None))) == (0, Game.Status.PLAYING)
    assert state_head(json.dumps({"type": "error", "code": "stale"})) is None
