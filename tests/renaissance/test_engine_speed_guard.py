"""The engine's speed work changes no game: fixed random games must replay exactly as recorded.

Each case plays a random game (fixed seed, fixed choice RNG, some with the powers and random
diplomacy) through the public API and hashes, at every step, the whole state (`to_json`), the
acting seats, every acting seat's legal list (in order), the diplomacy actions offered to a
random seat, and the chosen seat's view; then the scores and winners. The digests were recorded
from the engine before it was optimised: an optimisation that changes any state, list order,
view, random draw or result breaks them. (A deliberate rule change re-records them: run this
file with `RECORD_SPEED_GUARD=1` and paste the printed digests.)

Views were recorded when they listed every gift and exchange offer in `diplomacy_actions`; they
now describe those in `diplomacy_forms`. Each view is hashed as it was shaped then, its forms
expanded back into the list (`all_diplomacy`): the recorded digests then also prove that the
forms hold exactly what the list held.
"""

import hashlib
import json
import os
import random

import pytest

import games.renaissance as renaissance
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
    "3p-plain": "930260cdc1b70146adaa15f72f57014f45bd4fb9cd5765ef20608d84ae682075",
    "3p-powers": "72171a99b4c4556ee56f69482e04f559a22042e6a64a90b2d6e696e23bd56397",
    "3p-diplomacy": "16e5cac311b5fc96cf12a86e030c3dbe3b3d8fc378d89d7f8147719bf2bdbf88",
    "4p-plain": "e0b1e6b0186a37376b8eed78a32888b3f884085ac1039c7003ffcd3ac3f0530a",
    "4p-powers": "266687c5d6cb9dee2adab8ffd9ff6dec09456df44a741d7dce7ee3d77a3bc9d4",
    "4p-diplomacy": "418e80b39a956894deb2689a80a6d58c9a5d6b6032a01bb0af5ac84b1cccf6c6",
    "5p-plain": "9774aa84d2c701f26ff864408551d83f480e92906922c7343dd0648b4c08b16b",
    "5p-powers": "3a0dda92f5c5543bbae3db02b93c275c58f7d0cac973fb74f04b2c37780244bc",
    "5p-diplomacy": "b9470a3d867b334aee4d4ad9a771975f147bae0aefd2eed66b374e07ecb804e4",
    "6p-plain": "50b19572c9a804569367918c58041c16ea6a26d8b0725fe79f51748df47c76b6",
    "6p-powers": "b66680a01012e380b540c6184eaaa027c273a31f5deefd14c171659ac1265691",
    "6p-diplomacy": "9c6eebc05c8956b131cc74440c399897937422a2bc3b77a42d75fe9d0bbb207d",
    "1494": "6f85dcebe923b0d96186d91fd1fe1b77e30db25582fc363562cf410cb1d912c8",
    "1499": "61cf1fd13c78b7a3cbdd8648855c6174c068fe523ecf6b9f2ebbba44403b23cd",
    "1515": "fc3af184dd1cf6b3d1951ab38575616a85b0208370ea54a40a7d56d69b31456a",
    "tiny": "734a474e5868c92e9d6964f57450a8da889fb4df50ec2ede3d024c469585f1bc",
}


def _feed(digest, value):
    digest.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())


def as_recorded(view):
    """The view in the shape the digests were recorded with: every diplomacy action listed."""
    shaped = {key: value for key, value in view.items() if key != "diplomacy_forms"}
    shaped["diplomacy_actions"] = renaissance.all_diplomacy(view)
    return shaped


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
        _feed(digest, as_recorded(view_for(state, seat)))
        state = apply_action(state, seat, rng.choice(actions))
    digest.update(state.to_json().encode())
    _feed(digest, [final_scores(state), winners(state), as_recorded(view_for(state, None))])
    return digest.hexdigest()


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_random_games_replay_exactly_as_recorded(case):
    found = game_digest(*case)
    if os.environ.get("RECORD_SPEED_GUARD"):
        print(f"    {case[0]!r}: {found!r},")
        return
    assert found == RECORDED[case[0]]
