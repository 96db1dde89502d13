"""Marks and accuracy, from the drop in a seat's estimated win chance (docs/ai.md, "Analysis").

A decision's drop is the win chance (in percentage points) of the search's best move minus that
of the move played, never below zero: the best move is the one the bot would play, which is not
always the move with the highest mean (the heuristic's advice stands unless clearly beaten), so
a played move may score a little above it.
"""

import math

# Smallest drop, in percentage points, for each mark (the largest that applies is given). The
# search's means carry a few points of noise at the default budget (each of a dozen moves rests
# on ~100 playouts), so smaller drops are not marked.
THRESHOLDS = (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))
MARKS = tuple(name for name, _ in reversed(THRESHOLDS))


def drop_points(before: float, after: float | None) -> float | None:
    """The drop in percentage points from the best move's win chance `before` to the played
    move's `after` (both 0..1); None when the played move's value is unknown."""
    if after is None:
        return None
    return max(0.0, (before - after) * 100.0)


def mark_for(drop: float | None) -> str | None:
    """The mark of a drop in percentage points: "inaccuracy", "mistake", "blunder" or None."""
    if drop is None:
        return None
    for name, threshold in THRESHOLDS:
        if drop >= threshold:
            return name
    return None


def move_accuracy(drop: float) -> float:
    """lichess's accuracy of one move from its drop in win percentage: 100 for no drop, about
    80 for 5 points, 64 for 10, 40 for 20, 0 from about 80 points on."""
    value = 103.1668 * math.exp(-0.04354 * drop) - 3.1669
    return min(100.0, max(0.0, value))


def accuracy(drops: list[float]) -> float | None:
    """A seat's accuracy: the mean of its analysed moves' accuracies (None with no move)."""
    if not drops:
        return None
    return sum(move_accuracy(drop) for drop in drops) / len(drops)
