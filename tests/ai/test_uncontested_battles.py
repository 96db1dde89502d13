"""Battles every rival has passed without playing a card.

[rules] A battle ends when every player has passed; the strongest line takes the region, and with
no card played nobody does. Passing there changes nothing but the region's turn, so bots that all
wait would pass battle after battle for ever. Found in a 3-player arena game: seat 0 kept a lone
Mercenary 10 against seat 2's five small Mercenaries, and both passed every battle for Venezia.
"""

import pytest

import ai
from games.engine import apply_action, current_player, new_game, view_for
from games.engine.state import BATTLE

OWNERS = {"Torino": 2, "Milano": 1, "Genova": 2, "Parma": 0, "Lucca": 0, "Firenze": 1}
SMALL_MERCENARIES = ["m2", "m3", "m3", "m4", "m4"]


def venezia_after_seat_2_passes(hand_0, hand_1=()):
    """Seat 2 (five small Mercenaries) opens Venezia and passes; seat 1, with no cards or
    passing, is out; seat 0 decides with the table empty."""
    hands = [list(hand_0), list(hand_1), SMALL_MERCENARIES]
    state = new_game(3, seed=7, hands=hands, owners=OWNERS, first=2)
    state = apply_action(state, {"type": "choose_region", "region": "Venezia"})
    state = apply_action(state, {"type": "pass"})
    while current_player(state) != 0:
        state = apply_action(state, {"type": "pass"})
    return state


@pytest.mark.parametrize("level", ["heuristic", "medium"])
def test_a_lone_mercenary_takes_the_region_every_rival_left_empty(level):
    state = venezia_after_seat_2_passes(["m10"])
    view = view_for(state, 0)
    assert view["phase"] == "battle" and all(not p["line"] for p in view["players"])
    assert ai.make_bot(level, seed=3, iterations=300).choose(view) == {
        "type": "play",
        "card": "m10",
    }


def test_the_cheapest_winning_card_is_spent():
    """A Mercenary 1 wins an empty battle as surely as a 10; Winter adds no strength."""
    state = venezia_after_seat_2_passes(["m10", "winter", "m1", "m6"], ["m5"])
    view = view_for(state, 0)
    assert ai.make_bot("heuristic", seed=3).choose(view) == {"type": "play", "card": "m1"}


def test_a_lead_nobody_can_answer_is_kept_without_spending_more():
    """Control: once a card is down and every rival has passed, passing wins; no card is wasted."""
    state = venezia_after_seat_2_passes(["m10", "m1"])
    state = apply_action(state, {"type": "play", "card": "m1"})
    view = view_for(state, 0)
    assert current_player(state) == 0 and view["phase"] == "battle"
    assert ai.make_bot("heuristic", seed=3).choose(view) == {"type": "pass"}


def test_heuristic_bots_settle_the_stalemated_battle():
    """The arena position, played on by heuristic bots: Venezia gets an owner."""
    state = venezia_after_seat_2_passes(["m10"])
    bots = [ai.make_bot("heuristic", seed=seat) for seat in range(3)]
    for _ in range(20):
        if state.phase != BATTLE:
            break
        seat = current_player(state)
        state = apply_action(state, bots[seat].choose(view_for(state, seat)))
    assert view_for(state, None)["owners"].get("Venezia") == 0
