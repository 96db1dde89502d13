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
    "3p-plain": "958712f828c8e01adad5e71dd3a67bd83cff86794d5eafcaea1ab28b032ebcdb",
    "3p-powers": "2c65de5df6a8a33afb3edb6845ed11f7e59c588fdf35ed8d3130860e291ce4b2",
    "3p-diplomacy": "18cf31ce9519c126df5a52a71601eddbe3ed3443988835a0164ecab218355c52",
    "4p-plain": "7ce5f8dd484dfa5642b1053bbf746577fa24a33bc9fc48ca0274a4aa2fd71a96",
    "4p-powers": "3796ab7d55427e3bd3b1a21cb969289b6b70161146facc0e92da1ecde18a6655",
    "4p-diplomacy": "a8fd5485d9b1ddb46f3aedcfb566b4016825d01893981f75f2d316872d83f592",
    "5p-plain": "40d116501b31880b9721744c8b3cbf8dced212df3e7511005017df98f56c9f4b",
    "5p-powers": "434ecf9466cff0a59b2788d4f86138c4d7a317738ddab33a9e25cd9c365f990d",
    "5p-diplomacy": "24bcfff9c04d26feaf35493eaca923bb6c5429a79a8ee48935c9d1e89be735d2",
    "6p-plain": "2baf747877fb1fc10d9be0544b4bf6130861d1b73520dbd6fd3ce8fbb39d773f",
    "6p-powers": "b5db306c17fafe7bc00545361b24acfdb152e23a02bf2d4464faabcf9555ba03",
    "6p-diplomacy": "b9ac6684693dc96071a6b90eb81cf1ce34626f376e34f3df9e02a5ed0cff2cd9",
    "1494": "1e411b27b221392fd9736740b34c7ada121dc8723dd5399ed91afa24b8587a44",
    "1499": "bd5529850b857ffc840a2793b14a3dce9971c7411fbc5ee5174fa562ad5dc84f",
    "1515": "4b62e1163408a02daaeccc8756d08bd4c47b19e30712bc4911c8aa69fd9b4d5b",
    "tiny": "c7374d97bd9b7d1ca32379b3927a9e393803f5f0e64b7c4e051ddfe777192b73",
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
