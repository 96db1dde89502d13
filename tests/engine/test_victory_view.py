"""The view's progress to victory: each seat's targets and its longest chain of adjacent regions.

[rules] "4-6 players: 5 regions or 3 adjacent; 2-3 players: 6 regions or 4 adjacent", and Bigger
Kingdoms raises the adjacency target by one. The chain is public: control markers are.
"""

import pytest

from games.engine import ADJACENCY, Options, new_game, view_for


@pytest.mark.parametrize(
    ("players", "bigger", "expected"),
    [
        (2, False, {"regions": 6, "adjacent": 4}),
        (3, False, {"regions": 6, "adjacent": 4}),
        (4, False, {"regions": 5, "adjacent": 3}),
        (6, False, {"regions": 5, "adjacent": 3}),
        (3, True, {"regions": 6, "adjacent": 5}),
        (5, True, {"regions": 5, "adjacent": 4}),
    ],
)
def test_targets_follow_the_player_count_and_bigger_kingdoms(players, bigger, expected):
    state = new_game(players, seed=3, options=Options(bigger_kingdoms=bigger))
    assert view_for(state, 0)["targets"] == expected
    assert view_for(state, None)["targets"] == expected


def test_the_chain_is_the_largest_group_of_adjacent_regions_owned():
    # Seat 0: Torino-Genova-Milano form a group of three; Roma and Napoli a group of two.
    # Seat 1: Siena alone. Seat 2: nothing.
    owners = {"Torino": 0, "Genova": 0, "Milano": 0, "Roma": 0, "Napoli": 0, "Siena": 1}
    state = new_game(3, seed=5, owners=owners)
    players = view_for(state, 2)["players"]
    assert sorted(players[0]["chain"]) == ["Genova", "Milano", "Torino"]
    assert players[1]["chain"] == ["Siena"]
    assert players[2]["chain"] == []


def test_each_chain_is_connected_and_as_large_as_any_owned_group():
    owners = {"Venezia": 1, "Mantova": 1, "Ferrara": 1, "Bologna": 1, "Urbino": 1, "Roma": 1}
    state = new_game(4, seed=8, owners=owners)
    chain = view_for(state, None)["players"][1]["chain"]
    assert set(chain) == {"Venezia", "Mantova", "Ferrara", "Bologna", "Urbino"}
    # Connected: every region of the chain borders another one of it.
    assert all(ADJACENCY[region] & set(chain) for region in chain)
