"""Golden playthroughs: each recorded game replays to the identical end.

A failure here means the engine now plays some recorded game differently. If a rule changed on
purpose, regenerate with ``python -m tests.engine.make_playthroughs`` and say why in the commit.
"""

import json
from pathlib import Path

import pytest

from games.engine import is_terminal

from .make_playthroughs import DIRECTORY, GAMES, replay, result_of

FILES = sorted(Path(DIRECTORY).glob("*.json"))


def test_every_listed_playthrough_is_recorded():
    assert {path.stem for path in FILES} == {name for name, *_ in GAMES}


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_playthrough_replays_to_the_recorded_result(path):
    record = json.loads(path.read_text())
    state = replay(record)
    assert is_terminal(state)
    assert result_of(state) == record["result"]
