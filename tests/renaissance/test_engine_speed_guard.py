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
    "3p-plain": "0b045bb138e333afe72e526e91a061eb89f5530a3eadabe302caaf8a26224fe9",
    "3p-powers": "af0948e5e1babeab26db81189d90bbf5c41c8fc4be6e87f2f007517514afe0cf",
    "3p-diplomacy": "6781554e58dc86e4524792739763952c2f38d065e651ee132691c935342242db",
    "4p-plain": "c8d2da8cc2b4e46bfc5429d008c1608302be20d8edd8f228717d6a2f868341cc",
    "4p-powers": "19ddbf5e17443266795a397970b5fab16caa1eb07fd8123ef433e2d6c4a319d9",
    "4p-diplomacy": "c44b8bbdb651d4661ad8fccbc53447a5884a5f2e9916c336ad8ba1ecf214a357",
    "5p-plain": "7b93de3146ea4991843f24cd4b5f81d5793d97eab6f02a8cd81057c3e02099bd",
    "5p-powers": "7dbc28eb26c622fd4c1e7c9b984a5294e6259da8119bff034e8b3c0768b8b43f",
    "5p-diplomacy": "e1d4f845d9328265f1c0b8f365fd3c763301db90ca08c2792a07533f7fe39a00",
    "6p-plain": "0b72544d05a5220cccab38cfee80174584beda747dc0fbefe9bd6a1843b2a521",
    "6p-powers": "d6574ade1bd4ef3baaf1c617ad8e2b8940e87bcd3a9d01deb7797e057d25512f",
    "6p-diplomacy": "5efbd6aa9025559a11002e9ca040a171105049c8cfca8a691bbf32005e006902",
    "1494": "e5d523d0554b57a17e818c1b895b7ff04a7dfe6692e42551fb5a1cf4a9c33df7",
    "1499": "96480c17aff8c5a57e661249a3223b5f354ca1812da4b7ebcb5f068ecdf5256a",
    "1515": "74c7a9a269c1a9a31cb3cfd7412dcc8ee547bfd5cea455acff19aceca2207642",
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
