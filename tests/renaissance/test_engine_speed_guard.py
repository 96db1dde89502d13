"""The engine's speed work changes no game: fixed random games must replay exactly as recorded.

Each case plays a random game (fixed seed, fixed choice RNG, some with the powers and random
diplomacy) through the public API and hashes, at every step, the whole state (`to_json`), the
acting seats, every acting seat's legal list (in order), the diplomacy actions offered to a
random seat, and the chosen seat's view; then the scores and winners. The digests were recorded
from the engine before it was optimised: an optimisation that changes any state, list order,
view, random draw or result breaks them. (A deliberate rule change re-records them: run this
file with `RECORD_SPEED_GUARD=1` and paste the printed digests.)
"""

import hashlib
import json
import os
import random

import pytest

from games.renaissance import (
    acting_seats,
    apply_action,
    final_scores,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
    winners,
)
from games.renaissance.diplomacy import diplomacy_actions
from tests.renaissance.conftest import TINY

# (name, players, options, diplomacy share, board): three games per player count on the real
# board (plain, powers, powers with diplomacy), each scenario once, one game on the tiny board.
CASES = [
    (f"{players}p-{kind}", players, options, share, None)
    for players in (3, 4, 5, 6)
    for kind, options, share in (
        ("plain", None, 0.0),
        ("powers", {"powers": True}, 0.0),
        ("diplomacy", {"powers": True}, 0.1),
    )
] + [
    ("1494", 4, {"scenario": "1494"}, 0.0, None),
    ("1499", 5, {"scenario": "1499", "powers": True}, 0.05, None),
    ("1515", 6, {"scenario": "1515", "powers": True}, 0.1, None),
    ("tiny", 4, {"remove": "milan"}, 0.1, TINY),
]

RECORDED = {
    "3p-plain": "b576d05d8a68c01af21ffd7f7635075281c4f79b2a5f629c428153f607c9d85f",
    "3p-powers": "137cd58138212eba4f8d5c52ee1672f3a3817be49f11a843f14da65594082bfb",
    "3p-diplomacy": "e40647cd82d099c83f5fed246cd3b63b760c189ae4d11d05a3e65ad66c9ef80f",
    "4p-plain": "7ce5f8dd484dfa5642b1053bbf746577fa24a33bc9fc48ca0274a4aa2fd71a96",
    "4p-powers": "d4bad472ab3e836705a0780d8c64a287d93b3f1d2379257d8826ecd7654989f5",
    "4p-diplomacy": "dcbb6fdcf014ce0e90853734d08fb7046f9cf2d15419f49b5458ca45772262da",
    "5p-plain": "40d116501b31880b9721744c8b3cbf8dced212df3e7511005017df98f56c9f4b",
    "5p-powers": "434ecf9466cff0a59b2788d4f86138c4d7a317738ddab33a9e25cd9c365f990d",
    "5p-diplomacy": "24bcfff9c04d26feaf35493eaca923bb6c5429a79a8ee48935c9d1e89be735d2",
    "6p-plain": "f2265c4ceaaa6bb28dd0764fa3655fe3e2393a00e7b4ebbb5dc4be128ca6933a",
    "6p-powers": "b5db306c17fafe7bc00545361b24acfdb152e23a02bf2d4464faabcf9555ba03",
    "6p-diplomacy": "f6fde06df2e0447a3a8fca118c24f540ecb0caf81c1332c5aa718a42395763f5",
    "1494": "470c942aa705601b6329e12af375db74984750efaefe7fcf269eaec7bddef95a",
    "1499": "4a4d0fead74afb51fb20e7c70cf58ed755c781111716748b530dea500a8a979a",
    "1515": "26ff423d87779f333305728ca75b982bddd1c9e76eacc6448fda2d28f423a812",
    "tiny": "a95aadcaeb6e197a632333b5b4eda768ccee641ef30627655c97c786d123d646",
}


def _feed(digest, value):
    digest.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())


def game_digest(name, players, options, share, board):
    """sha256 of everything a game shows along the way (see the module docstring)."""
    seed = sum(map(ord, name))
    rng = random.Random(seed)
    state = new_game(players, seed, dict(options) if options else None, board=board)
    digest = hashlib.sha256()
    while not is_terminal(state):
        digest.update(state.to_json().encode())
        seats = sorted(acting_seats(state))
        _feed(digest, [seats] + [legal_actions(state, seat) for seat in seats])
        seat = rng.choice(seats)
        actions = legal_actions(state, seat)
        if share and rng.random() < share:
            other = rng.randrange(players)
            offered = diplomacy_actions(state, other)
            _feed(digest, offered)
            if offered:
                seat, actions = other, offered
        _feed(digest, view_for(state, seat))
        state = apply_action(state, seat, rng.choice(actions))
    digest.update(state.to_json().encode())
    _feed(digest, [final_scores(state), winners(state), view_for(state, None)])
    return digest.hexdigest()


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_random_games_replay_exactly_as_recorded(case):
    found = game_digest(*case)
    if os.environ.get("RECORD_SPEED_GUARD"):
        print(f"    {case[0]!r}: {found!r},")
        return
    assert found == RECORDED[case[0]]
