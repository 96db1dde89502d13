"""The marks' thresholds and the accuracy formula (docs/ai.md, "Analysis")."""

import pytest

from games.analysis.marks import accuracy, drop_points, mark_for, move_accuracy


@pytest.mark.parametrize(
    ("drop", "mark"),
    [
        (None, None),
        (0.0, None),
        (4.99, None),
        (5.0, "inaccuracy"),
        (9.99, "inaccuracy"),
        (10.0, "mistake"),
        (19.99, "mistake"),
        (20.0, "blunder"),
        (75.0, "blunder"),
    ],
)
def test_a_drop_in_percentage_points_gets_the_largest_mark_it_reaches(drop, mark):
    assert mark_for(drop) == mark


def test_the_drop_is_from_the_best_moves_chance_to_the_played_ones_never_below_zero():
    assert drop_points(0.40, 0.28) == pytest.approx(12.0)
    assert drop_points(0.40, 0.45) == 0.0  # the bot's pick is not always the highest mean
    assert drop_points(0.40, None) is None  # the played move was never searched


def test_accuracy_is_lichess_formula_averaged_over_a_seats_moves():
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(10.0) == pytest.approx(63.6, abs=0.1)
    assert move_accuracy(100.0) == 0.0
    assert accuracy([]) is None
    assert accuracy([0.0, 10.0]) == pytest.approx((100.0 + 63.6) / 2, abs=0.1)
