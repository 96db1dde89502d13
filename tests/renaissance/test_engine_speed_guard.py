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
    "4p-plain": "806c58078227ffb015de1685072b3c99061656e3836248143702682cde0c70fe",
    "4p-powers": "e9dd9cfcf6b8d67bd20b2b3affc83be1c2465b0c5c5d870beb96902d72ee1f1b",
    "4p-diplomacy": "a8fd5485d9b1ddb46f3aedcfb566b4016825d01893981f75f2d316872d83f592",
    "5p-plain": "1599da99c20ac7bf5533ebbd0d9dcf702a5a8c7cc4e998cf9140b10ac66feaee",
    "5p-powers": "926ea3432d3374a7eec1768acece37b323d34287b050022a9779958a703103f7",
    "5p-diplomacy": "a28b5620ad1edc94e01e3bf98dfc825afea87e7c533b05fdff5fac9e4080efbc",
    "6p-plain": "ae31b841495560d610cff5b3cb9ee018a2a07f919cff7639f4b6e5c17eaa1bd6",
    "6p-powers": "1ae6085910ac66f1882a853718e53a9f7b1db599fba29cb433b51b48c9dacc4c",
    "6p-diplomacy": "f317a41521d2478fcb5ccb5bc5402efc7fd839435099917f4633468dcad9fe68",
    "1494": "5e5c145221676ba2c60b1635321d2bbb195cbfe6028001a26c0d61cb19db8992",
    "1499": "bd5529850b857ffc840a2793b14a3dce9971c7411fbc5ee5174fa562ad5dc84f",
    "1515": "9e43f55cfa3dd8551f74b585f0a2a60e07471c28355ba58ca007f7954875c9b3",
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
