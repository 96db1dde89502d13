"""The scoring of Playing for Points, from the rules: 1 point per region held at the end of a
game, +5 to a winner by adjacency; the target; the highest total wins; a tie at the top goes to a
final game among the tied players."""

import random

import pytest

from games.engine import apply_action, is_terminal, legal_actions, new_game
from games.engine.state import BY_ADJACENCY
from games.matches.scoring import (
    GO_ON,
    TIED,
    WON,
    decider_winners,
    game_points,
    standing,
    totals,
)


def finished_games(players: int, count: int):
    """Ends of random games from fixed seeds, with how each was won."""
    for seed in range(count):
        rng = random.Random(seed)
        state = new_game(players, seed=seed)
        while not is_terminal(state):
            state = apply_action(state, rng.choice(legal_actions(state)))
        yield state


def test_a_game_scores_one_point_per_region_and_five_more_for_an_adjacency_win():
    seen = set()
    for state in finished_games(3, 40):
        points = game_points(state)
        victory = state.victory
        seen.add(victory)
        for seat in range(3):
            bonus = 5 if victory == BY_ADJACENCY and seat in state.winners else 0
            assert points[seat] == state.counts[seat] + bonus
    assert (
        BY_ADJACENCY in seen and len(seen) >= 2
    )  # an adjacency win and another kind were both checked


def test_a_game_not_over_scores_nothing():
    with pytest.raises(ValueError):
        game_points(new_game(2, seed=1))


def test_totals_add_each_games_points_per_seat():
    assert totals([[3, 1, 0], [8, 2, 4]], 3) == [11, 3, 4]
    assert totals([], 2) == [0, 0]


def test_the_match_goes_on_until_someone_reaches_the_target():
    assert standing([[4, 3], [5, 4]], 2, 20) == standing([], 2, 20)
    assert standing([[4, 3], [5, 4]], 2, 20).outcome == GO_ON


def test_at_the_target_the_highest_total_wins_even_if_others_reached_it_too():
    result = standing([[12, 9, 3], [9, 13, 1]], 3, 20)
    assert (result.outcome, result.seats) == (WON, (1,))  # 21 against 22: the highest wins


def test_the_target_reached_exactly_counts():
    assert standing([[5, 0]], 2, 5).outcome == WON


def test_players_tied_at_the_top_go_to_a_decider_and_the_others_do_not():
    result = standing([[10, 10, 9], [10, 10, 9]], 3, 20)
    assert (result.outcome, result.seats) == (TIED, (0, 1))


def test_the_deciders_winners_are_mapped_back_to_the_match_seats():
    # A decider among match seats 1 and 3 seats them as its seats 0 and 1.
    assert decider_winners([1], [1, 3]) == [3]
    assert decider_winners([0, 1], [1, 3]) == [1, 3]  # a shared final battle shares the match
