"""A naive-Bayes hand model: how likely each seat's public play this round is, given its hand.

For a seat with feature values f (features.py) and a hand holding c_k cards of kind k (capped
at 2), the model's likelihood ratio is

    prod_j prod_k  P(f_j | c_k, key) / P(f_j | key)

with `key` = (player-count bucket, hand-size bucket), every table counted from logged games
(train.py). Uniform determinization already draws hands consistent with everything visible, so
this ratio is exactly the correction the behaviour calls for, were the features and kinds
independent. They are not (a hand of many Mercenaries is one fact, seen through many kinds), so
the log-ratio is tempered by an exponent fitted on held-out games.
"""

import json
import math
from functools import cache
from pathlib import Path

from .features import FEATURES

DATA_FILE = Path(__file__).with_name("hand_model.json")
KINDS = 15
CAP = 2  # counts of a kind in hand: 0, 1, 2 or more
SIZE_EDGES = (3, 5, 8)  # hand sizes 1-2, 3-4, 5-7, 8+
FORMAT = 1


def players_bucket(players: int) -> int:
    return min(players, 4) - 2


def size_bucket(size: int) -> int:
    return sum(1 for edge in SIZE_EDGES if size >= edge)


def model_key(players: int, size: int) -> str:
    return f"p{players_bucket(players)}s{size_bucket(size)}"


def empty_counts() -> list:
    """counts[j][v][k * (CAP + 1) + c]: observations of feature j = v with c cards of kind k."""
    return [[[0] * (KINDS * (CAP + 1)) for _ in range(values)] for _, values in FEATURES]


def log_ratios(counts: list, smoothing: float) -> list:
    """ratios[j][v][k * 3 + c] = log P(f_j = v | c_k = c) - log P(f_j = v), Laplace-smoothed."""
    cells = KINDS * (CAP + 1)
    ratios = []
    for (_, values), table in zip(FEATURES, counts, strict=True):
        per_cell = [sum(table[v][cell] for v in range(values)) for cell in range(cells)]
        # Every kind splits the same observations, so kind 0's cells give the total per value.
        per_value = [sum(table[v][: CAP + 1]) for v in range(values)]
        total = sum(per_value)
        rows = []
        for v in range(values):
            marginal = math.log((per_value[v] + smoothing) / (total + smoothing * values))
            rows.append(
                [
                    math.log((table[v][cell] + smoothing) / (per_cell[cell] + smoothing * values))
                    - marginal
                    for cell in range(cells)
                ]
            )
        ratios.append(rows)
    return ratios


class HandModel:
    """Log-likelihood-ratio tables per key; `seat_table` sums them for one seat's features."""

    def __init__(self, data: dict, temper: float | None = None):
        if data.get("format") != FORMAT:
            raise ValueError("hand model data of an unknown format")
        self.temper = data["temper"] if temper is None else temper
        smoothing = data["smoothing"]
        self.ratios = {key: log_ratios(counts, smoothing) for key, counts in data["counts"].items()}

    def seat_table(self, players: int, size: int, features: tuple) -> list | None:
        """Per cell (kind * 3 + capped count): the tempered log-likelihood ratio of the seat's
        play; None when the model has nothing to say (no cards, or no data for the key)."""
        ratios = self.ratios.get(model_key(players, size)) if size else None
        if ratios is None:
            return None
        table = [0.0] * (KINDS * (CAP + 1))
        for rows, value in zip(ratios, features, strict=True):
            for cell, ratio in enumerate(rows[value]):
                table[cell] += ratio
        temper = self.temper
        return [temper * ratio for ratio in table]


def hand_log_weight(table: list, hand) -> float:
    """The tempered log-likelihood ratio of a hand (15 counts per kind) under a seat table."""
    return sum(table[3 * kind + (count if count < CAP else CAP)] for kind, count in enumerate(hand))


@cache
def shipped_model() -> HandModel:
    """The model trained by `python -m ai.inference.train`, loaded once."""
    return HandModel(json.loads(DATA_FILE.read_text()))
