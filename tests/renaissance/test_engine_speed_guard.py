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
    "3p-plain": "d719b0a6ac4f51b723ab3f7e65eba9c91c5d561b92dfbe1c203c24d8d03249c8",
    "3p-powers": "efaadb4fe5c650e9a80893edd7e10bb967ddc4448261345252d10258c1c77a3f",
    "3p-diplomacy": "7309a0279057a5f3f6a22681da00b1941a2754499f312d6d6199bdeecf8fa725",
    "4p-plain": "6b696dbd8762e1bd4e869100a544729460c7a357c244d35ce5e01545f4644e9e",
    "4p-powers": "96607734d16db670e896a345517240b9d4b3d8514be103a47748eda1f355ac34",
    "4p-diplomacy": "b5ec24676e76c644124300cf5388170d86a53396e664906b5ffdd30652610dbd",
    "5p-plain": "07efd8f2a095b3d3ea1e39f4b59b35c3a77224353d55ed13136a25a1a580aaa8",
    "5p-powers": "3e6cdb4a4789a999cd93801a4d953ab42b904e2749b539f57698fb7e414ca65e",
    "5p-diplomacy": "f85c818bc5bb6b0682e1fcd2c63ba463d203ace6483443be582a54035113d3d7",
    "6p-plain": "c1f32886a8cda8309994f826030724eaa4d148ac3a6464376f3b345e8860fc7e",
    "6p-powers": "264406e5afcdb668480ac8e0ea25454cdf5abba8816722350f688be8a679bd11",
    "6p-diplomacy": "64e8baf4dd9e0b72c76d72452a08168e2b2c65c14fd6aae7f883df58ed2b47fa",
    "1494": "acb7ed4de50ace878ea8c7570ec54b0941a75d3e7bc3dab5eff41dbe7b220c12",
    "1499": "22ad05b4776d6387c5f0f68a38eca7e69513db6a77d277d5bef1b2647d5ab99c",
    "1515": "d4681a7add097dec0fb394ccad8eba80454d2a562637f487bf98cb2e363387cf",
    "tiny": "c710b587e24c9cfcdb48765fdee81a038d86d03362afa343ffe4186ba5815e72",
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
