"""The marks and the accuracy (games/analysis/marks.py; docs/ai.md, "Analysis"), checked from
their rule: a move that loses nothing scores 100, a larger loss of the same stake scores lower, a
decision with nothing at stake counts for nothing, a mark needs a drop above the search's noise
and a large share of the stake; and, on the calibration's stored arena games, a stronger level
scores a higher accuracy than a weaker one."""

import json
from pathlib import Path

import pytest

from games.analysis.calibration import level_table
from games.analysis.marks import (
    MARKS,
    THRESHOLDS,
    accuracy,
    drop_points,
    mark_for,
    move_accuracy,
    seat_accuracy,
    stake_points,
)

CALIBRATION = (
    Path(__file__).resolve().parents[2] / "docs" / "arena" / "accuracy-calibration-4p.json"
)
WEAKEST_FIRST = ("random", "easy", "heuristic", "hard")


def test_the_drop_is_from_the_best_moves_chance_to_the_played_ones_never_below_zero():
    assert drop_points(0.40, 0.28) == pytest.approx(12.0)
    assert drop_points(0.40, 0.45) == 0.0  # the bot's pick is not always the highest mean
    assert drop_points(0.40, None) is None  # the played move was never searched


def test_the_stake_is_from_the_best_moves_chance_to_the_worst_searched_ones():
    assert stake_points(0.40, 0.10) == pytest.approx(30.0)
    assert stake_points(0.40, None) is None


def test_a_move_that_loses_nothing_scores_100_and_a_larger_loss_scores_lower():
    assert move_accuracy(0.0, 20.0) == 100.0
    scores = [move_accuracy(drop, 20.0) for drop in (0.0, 2.0, 5.0, 10.0, 20.0)]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
    assert move_accuracy(20.0, 20.0) == 0.0  # the worst move of the decision


def test_a_decision_with_nothing_at_stake_counts_for_nothing():
    assert accuracy([]) is None
    assert accuracy([(0.0, 0.0)]) is None
    # A perfect move where much was at stake and a poor one where almost nothing was: the seat
    # kept nearly all it could have lost.
    assert accuracy([(0.0, 30.0), (0.5, 0.5)]) > 95
    # The same moves, the stakes swapped: now the poor move is where the game was decided.
    assert accuracy([(0.0, 0.5), (30.0, 30.0)]) < 5


def test_the_seat_accuracy_is_the_share_of_the_stakes_kept():
    entries = [{"drop": 5.0, "stake": 20.0}, {"drop": 0.0, "stake": 20.0}, {"drop": None}]
    assert seat_accuracy(entries) == pytest.approx(100 * (1 - 5 / 40))


def test_an_analysis_stored_before_the_stakes_keeps_lichess_accuracy():
    old = [{"drop": 0.0}, {"drop": 10.0}]
    assert seat_accuracy(old) == pytest.approx((100.0 + 63.6) / 2, abs=0.1)


def test_marks_grow_with_the_drop_and_need_both_the_drop_and_the_share_of_the_stake():
    assert MARKS == ("inaccuracy", "mistake", "blunder")
    assert mark_for(None, 10.0) is None and mark_for(5.0, None) is None
    assert mark_for(0.0, 50.0) is None
    # The same stake, growing drops: no mark, then each mark in turn, never back down.
    ranks = [
        MARKS.index(mark_for(drop, 40.0)) if mark_for(drop, 40.0) else -1 for drop in range(41)
    ]
    assert ranks == sorted(ranks) and ranks[0] == -1 and ranks[-1] == len(MARKS) - 1
    for name, smallest_drop, smallest_share in THRESHOLDS:
        stake = smallest_drop / smallest_share
        assert mark_for(smallest_drop, stake) == name
        # Just under the mark's drop, the same stake: a lesser mark, or none.
        lesser = mark_for(smallest_drop * 0.99, stake)
        assert lesser is None or MARKS.index(lesser) < MARKS.index(name)
    # Below the search's noise: no mark, even when the whole stake was lost.
    smallest_drop = THRESHOLDS[-1][1]
    assert mark_for(smallest_drop * 0.99, smallest_drop * 0.99) is None
    # A large drop that is a small share of a huge stake is no mark.
    assert mark_for(10.0, 100.0) is None


def test_a_stronger_level_scores_a_higher_accuracy_on_the_calibration_games():
    """The calibration's arena games (python -m games.analysis.calibration), judged again with
    today's formula: the levels in order of strength, random's interval below the heuristic's."""
    games = json.loads(CALIBRATION.read_text())["games"]
    table = level_table(games)
    means = [table[level]["accuracy"] for level in WEAKEST_FIRST]
    assert means == sorted(means) and len(set(means)) == len(means), table
    assert table["random"]["ci95"][1] < table["heuristic"]["ci95"][0], table
