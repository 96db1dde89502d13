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
    "3p-plain": "1ef4513625d0318c7b9614c42fbf581712d174112dedf81129f74249b06d81d9",
    "3p-powers": "d239687b13f5241a8278f86127017b0353996008caecc40d91e1b473d15bedb3",
    "3p-diplomacy": "19594d610865ee10606251469c6d1f3f33260a9cb783a1b73168fa96fa5bcf09",
    "4p-plain": "26c4b88848b60efb1a42d5251bd5bb91daf03b1bfcf7b49a53012458b3928a2e",
    "4p-powers": "28493d0c0325195a94243d091f4db30edba19129011f065dfe6fc72553005be1",
    "4p-diplomacy": "d41b36c33ab28c0a0803bab2908aad6c9f00755a050499589d184c31ab390877",
    "5p-plain": "884d7b075186fb17cda09d0ec17ab76ec1db0e0e95b3935be4f92f5656915396",
    "5p-powers": "3c3ba77894ac46315156b07f31f04c98acd3cb331e54dcb80968c32514820458",
    "5p-diplomacy": "58519e17f0df43debd09eb2900ddc56909f6651a2e17127f392d13b58ae4d488",
    "6p-plain": "7a6aaaf662924217b0b40adda0ef5d511a9809725f4ab17351f2225ecbbc133b",
    "6p-powers": "d06ef5b99c2ae9c68e1721462ad31cbc57c0acd23f5209a4d83b6b886c977cb1",
    "6p-diplomacy": "62ee204a8b5c208a4cae7db258a9d1cdce92b1b3dae7a79eebaeed117db7c1f6",
    "1494": "db7320b383d1d1c8729f93e498105c56b69f137f4d50596910ae402ba8cc3184",
    "1499": "8216114852a114d4d532a37015600276c42511cce6b85e416881dcedf069d47c",
    "1515": "3376edfd6a0fd3e44e4c296a0fc7d13e02b0b342d1fd50c08615a91e98ef812d",
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
