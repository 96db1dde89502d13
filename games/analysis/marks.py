"""Marks and accuracy, from what a decision could lose and what the move played lost (docs/ai.md,
"Analysis", where the calibration on bots of known strength is reported).

A decision's *drop* is the win chance (in percentage points) of the search's best move minus that
of the move played, never below zero: the best move is the one the bot would play, which is not
always the move with the highest mean (the heuristic's advice stands unless clearly beaten), so
a played move may score a little above it. Its *stake* is the best move's win chance minus the
worst searched move's: the most that decision could lose.

Why not lichess's accuracy, a function of the drop alone: in Condottiere many decisions have
near-equal options (a player with no chance left, a card that changes nothing), so even random
play loses little win chance per move, and chess's constants gave every level about 90%. Here a
seat's accuracy is the share of the stakes it kept, `100 * (1 - sum(drops) / sum(stakes))`: a
decision with nothing at stake counts for nothing, one where the best and the worst move are far
apart counts by that much. A mark needs both a drop above the search's noise and a large share
of the stake lost.
"""

import math

# A mark: the smallest drop (percentage points) and share of the stake lost, largest first (the
# largest mark that applies is given). The search's means carry a few points of noise at the
# default budget (each of a dozen moves rests on ~100 playouts), so smaller drops are not marked
# however large their share.
THRESHOLDS = (
    ("blunder", 12.0, 0.7),
    ("mistake", 6.0, 0.5),
    ("inaccuracy", 3.0, 0.3),
)
MARKS = tuple(name for name, _drop, _share in reversed(THRESHOLDS))


def drop_points(before: float, after: float | None) -> float | None:
    """The drop in percentage points from the best move's win chance `before` to the played
    move's `after` (both 0..1); None when the played move's value is unknown."""
    if after is None:
        return None
    return max(0.0, (before - after) * 100.0)


def stake_points(before: float, worst: float | None) -> float | None:
    """The decision's stake in percentage points: the best move's win chance `before` minus the
    worst searched move's `worst` (both 0..1); None when no move was searched."""
    if worst is None:
        return None
    return max(0.0, (before - worst) * 100.0)


def lost_share(drop: float, stake: float) -> float:
    """The share of the stake a drop lost, 0..1 (0 when nothing was at stake)."""
    return min(1.0, drop / stake) if stake > 0 else 0.0


def mark_for(drop: float | None, stake: float | None) -> str | None:
    """The mark of a move: "inaccuracy", "mistake", "blunder" or None."""
    if drop is None or stake is None:
        return None
    share = lost_share(drop, stake)
    for name, smallest_drop, smallest_share in THRESHOLDS:
        if drop >= smallest_drop and share >= smallest_share:
            return name
    return None


def move_accuracy(drop: float, stake: float) -> float:
    """One move's accuracy: the share of the stake it kept, 0..100 (100 with nothing at stake)."""
    return 100.0 * (1.0 - lost_share(drop, stake))


def accuracy(moves: list[tuple[float, float]]) -> float | None:
    """A seat's accuracy from its moves' (drop, stake): the share of the stakes it kept, which is
    the mean of its moves' accuracies weighted by their stakes. None with nothing at stake."""
    total = sum(stake for _drop, stake in moves)
    if total <= 0:
        return None
    lost = sum(min(drop, stake) for drop, stake in moves)
    return 100.0 * (1.0 - lost / total)


def lichess_move_accuracy(drop: float) -> float:
    """lichess's accuracy of one move from its drop alone: the formula of analyses stored before
    the stake was (their entries have no "stake"), kept to show them as they were made."""
    value = 103.1668 * math.exp(-0.04354 * drop) - 3.1669
    return min(100.0, max(0.0, value))


def seat_accuracy(entries: list[dict]) -> float | None:
    """A seat's accuracy from its analysed decisions (the analysis's entries, docs/protocol.md,
    section 13): by the stakes, or for an analysis stored before them, by lichess's formula."""
    judged = [entry for entry in entries if entry.get("drop") is not None]
    if all("stake" in entry for entry in judged):
        return accuracy(
            [(entry["drop"], entry["stake"]) for entry in judged if entry["stake"] is not None]
        )
    if not judged:
        return None
    return sum(lichess_move_accuracy(entry["drop"]) for entry in judged) / len(judged)
