"""Where the heuristic puts the Pope.

[rules] A Bishop discards the highest Mercenaries in play and places the Pope on a region with no
control marker: no battle may be fought there. [rules] Two players win with four adjacent regions.
So a Pope is best spent on a region that would complete a rival's winning group.
"""

from ai.battle_play import Style
from ai.heuristic import choose_by_phase
from games.engine import ADJACENCY, apply_action, new_game, view_for

RIVAL_GROUP = ("Napoli", "Ancona", "Spoleto")  # three adjacent regions: one more wins


def rival_one_region_from_winning(own_hand):
    """Seat 1 holds three adjacent regions; seat 0 fights it for Torino, far away, and seat 1
    has just topped seat 0's 1 with a 10."""
    state = new_game(
        2,
        seed=3,
        hands=[own_hand, ["m10", "m2", "m3"]],
        owners={region: 1 for region in RIVAL_GROUP},
        first=0,
    )
    for action in (
        {"type": "choose_region", "region": "Torino"},
        {"type": "play", "card": "m1"},
        {"type": "play", "card": "m10"},
    ):
        state = apply_action(state, action)
    return state


def regions_that_win_for_the_rival():
    """Free regions adjacent to the rival's group: any of them makes four adjacent."""
    touching = set().union(*(ADJACENCY[region] for region in RIVAL_GROUP))
    return touching - set(RIVAL_GROUP)


def test_the_pope_goes_where_the_rival_would_win_the_game():
    view = view_for(rival_one_region_from_winning(["m1", "bishop", "scarecrow"]), 0)
    bishops = [a for a in view["legal_actions"] if a.get("card") == "bishop"]
    assert len(bishops) > 3  # one per free region but Torino, and one with no Pope
    winning = regions_that_win_for_the_rival()
    assert {a.get("pope") for a in bishops} > winning
    choice = choose_by_phase({**view, "legal_actions": bishops}, Style())
    assert choice["pope"] in winning


def test_the_bishop_is_played_to_knock_out_the_rivals_ten_and_block_its_win():
    view = view_for(rival_one_region_from_winning(["m1", "bishop", "scarecrow"]), 0)
    choice = choose_by_phase(view, Style())
    assert choice["card"] == "bishop"
    assert choice["pope"] in regions_that_win_for_the_rival()
