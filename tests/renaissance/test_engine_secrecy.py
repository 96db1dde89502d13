"""Views: what a seat may know, and nothing more ([ruling] R28): other hands, the deck's order,
face-down battle cards before the reveal, votes before everybody has voted, the seed."""

import json
import random

from games.renaissance.api import apply_action, determinize, view_for
from games.renaissance.state import DEFEND, put
from tests.renaissance.conftest import combat_state, edit, hand, random_game


def test_a_view_is_json_safe_and_hides_other_hands_the_deck_and_the_seed():
    state, seat = combat_state(cards=["swiss", "cannon"])
    other = (seat + 1) % 6
    a = edit(state, hands=put(state.hands, other, hand("pikemen", "pikemen")), deck=(0, 1, 2))
    b = edit(a, hands=put(state.hands, other, hand("swiss", "raiders")), deck=(2, 1, 0), seed=99)
    assert view_for(a, seat) == view_for(b, seat)
    assert view_for(a, other) != view_for(b, other)
    text = json.dumps(view_for(a, seat))
    assert '"seed"' not in text and '"deck"' not in text
    assert view_for(a, seat)["public"]["hand_sizes"][other] == 2


def test_face_down_battle_cards_stay_hidden_until_the_reveal():
    """Line 385: the attacker lays its cards face down first; only their number shows."""
    state, attacker = combat_state(war=1, cards=["swiss", "cannon", "pikemen", "knights"])
    rome = state.nations.index("rome")
    owner = put(state.owner, state.geo.index["Siena"], rome)
    state = edit(state, owner=owner, hands=put(state.hands, rome, hand("knights")))
    state = apply_action(state, attacker, {"type": "attack", "from": "Firenze", "to": "Siena"})
    strong = apply_action(
        state, attacker, {"type": "commit", "blue": ["cannon", "swiss"], "red": None}
    )
    weak = apply_action(
        state, attacker, {"type": "commit", "blue": ["pikemen", "knights"], "red": None}
    )
    assert strong.phase == weak.phase == DEFEND
    for seat in range(6):
        if seat != attacker:
            assert view_for(strong, seat) == view_for(weak, seat)
    assert view_for(strong, attacker) != view_for(weak, attacker)
    assert view_for(strong, rome)["public"]["battle"]["commits"][0] == {"hidden": 2, "count": 2}


def test_determinized_states_show_the_same_view_in_every_phase_met():
    """determinize(view, rng) gives a full state whose view for that seat is the same view."""
    rng = random.Random(3)
    states = []
    random_game(5, 11, on_step=lambda s, seat, a, n: states.append(n))
    phases = set()
    for state in states[::5]:
        for seat in range(state.n):
            view = view_for(state, seat)
            assert view_for(determinize(view, rng), seat) == view
        phases.add(state.phase)
    assert len(phases) >= 5
