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
    "3p-plain": "6bb86199dcb35b870f569dcbfa582d59b5a958966a5a4f2f9e94ce959576669d",
    "3p-powers": "6773bbd93b56666c17347858f57d123afc3acfb356d249baa20f2e07ff9def5f",
    "3p-diplomacy": "d1ff3dc14162a7c2b6820df57d98489c1fea8cb65046f3eb1455adaa9995c9b9",
    "4p-plain": "4488e6d7bd9c7f51b0e9d1f16c2fb1635c62c939dcadfcc333320660ec9de0ed",
    "4p-powers": "779069256644e5d6b16940b87af9d5b6a9aca63fb95b9bdc2d981e3b9afdb0bb",
    "4p-diplomacy": "6f5ae740d79cfb3232a19c36c0fdd84838691e4b3f2ed096276c36f761a51536",
    "5p-plain": "271beb6120522a1f643413c99b9d4aaf9822614ffc23d6e9c5ca981fee0d47fc",
    "5p-powers": "daf0a3e8c3a104ab3e5bc241753adf1cc1d976fea8d366671e7d4d9d978fdf21",
    "5p-diplomacy": "e7df216f9b1437633a58cb9c2e96df2a2ea81759842761de2de79ba26263773e",
    "6p-plain": "bda5b462f56ea48b075a60e9922ad44e8587f27226f85f2fc195d2605e3a0439",
    "6p-powers": "37547cd698a11024306a89330e877ea573cd5bf07fef259ae5fb80a142ea0df2",
    "6p-diplomacy": "5c28bbead248f28b53a7b0a54138f09fbfeecc2bd0a4c34ab6702c92b2f338da",
    "1494": "e43d5ab7a636d8bf491a95468269d8fe28d0a04a3e76066f0ce6b192a4eb197b",
    "1499": "648ce9c54168835ee0ddb8005759cb5fc404f5b8bf1e5f111f3a95c942b88611",
    "1515": "13f761cf1b0e1a585fef8a28719950e4c3151e4159efd84704a723d2ca7322df",
    "tiny": "734a474e5868c92e9d6964f57450a8da889fb4df50ec2ede3d024c469585f1bc",
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
