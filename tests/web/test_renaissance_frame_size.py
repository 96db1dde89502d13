"""A Renaissance state frame stays within its documented size (docs/operations.md, "Renaissance
state frames").

Every socket of a game is sent a whole state frame at every version (docs/protocol.md, `state`):
the seat's view and the last 100 public log entries. A six-player Renaissance game's frames are
the largest the site sends, and they grow with the game (the log fills, the cities change hands,
a seat's diplomacy list grows with the others' cities and its own purse). Over whole six-player
games of heuristic bots with random diplomacy beside them, in the game of 1454 and in a scenario
with the nations' powers, every frame of every version, for each seat and for the spectators,
must stay within the bound. Sizes only: the build time is measured by `make bench`
(tests/bench/bench_frames.py), never asserted on a shared machine.
"""

import pytest

from games.rules_api import RENAISSANCE
from games.services.frames import LOG_LENGTH
from tests.bench import renaissance_frames as frames

# docs/operations.md, "Renaissance state frames": the largest frames measured were about 78 KB
# for a seat (most of it the seat's diplomacy list and the log) and 31 KB for the spectators.
SEAT_FRAME_BOUND = 128 * 1024
SPECTATOR_FRAME_BOUND = 64 * 1024


@pytest.mark.parametrize(
    "options",
    [{}, {"scenario": "1515", "powers": True}],
    ids=["1454", "1515-powers"],
)
def test_every_frame_of_a_six_player_game_stays_within_the_bound(options):
    played = frames.play(options, seed=2, diplomacy=True)

    for version in range(played.last_version + 1):
        sizes = frames.frame_sizes(played, version)
        spectator = sizes.pop(None)
        assert spectator <= SPECTATOR_FRAME_BOUND, (version, spectator)
        assert max(sizes.values()) <= SEAT_FRAME_BOUND, (version, sizes)

    # The frames checked are those of a whole game, its log full: not a short or empty one.
    assert RENAISSANCE.is_terminal(played.states[-1])
    assert len(played.logs[-1]) == LOG_LENGTH
