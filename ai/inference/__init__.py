"""Reading the table: determinizations weighted by what each player's public play reveals.

    pool = weighted_determinizations(view, history, rng, size=250, candidates=500)

`history` is the list of spectator views (`view_for(state, None)`) after every action of the
game so far, oldest first; the last is the public part of `view`. Uniform determinizations of
the view are drawn, each weighted by the hand model's likelihood ratio of every other seat's
hand given that seat's play this round (model.py), and the pool is resampled by weight.
"""

import math

from games.engine import determinize

from .features import read_history
from .model import HandModel, hand_log_weight, shipped_model

__all__ = [
    "HandModel",
    "opponent_tables",
    "shipped_model",
    "weighted_determinizations",
    "log_weight",
]


def opponent_tables(view: dict, history: list, model: HandModel) -> list:
    """[(seat, table)] for every other seat the model can say something about."""
    reader = read_history(history)
    players = len(view["players"])
    tables = []
    for player in view["players"]:
        seat = player["seat"]
        if seat == view["seat"]:
            continue
        table = model.seat_table(players, player["hand_size"], reader.features(seat))
        if table is not None:
            tables.append((seat, table))
    return tables


def log_weight(state, tables: list) -> float:
    """Sum over the weighed seats of the log-likelihood ratio of their hands in `state`."""
    hands = state.hands
    return sum(hand_log_weight(table, hands[seat]) for seat, table in tables)


def resample(items: list, log_weights: list, size: int, rng) -> list:
    """`size` items drawn by systematic resampling (one uniform offset, evenly spaced points
    on the cumulative weights): every item kept about weight * size times, with less noise
    than independent draws."""
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    step = sum(weights) / size
    point = rng.random() * step
    chosen, cumulative, index = [], weights[0], 0
    for _ in range(size):
        while cumulative < point and index < len(items) - 1:
            index += 1
            cumulative += weights[index]
        chosen.append(items[index])
        point += step
    # Copies of one item lie side by side: spread them, so that the search's first iterations
    # (which shape the tree most) see as many different deals as a uniform pool.
    rng.shuffle(chosen)
    return chosen


def weighted_determinizations(
    view: dict, history: list, rng, *, size: int, candidates: int, model: HandModel | None = None
) -> list:
    """`size` determinizations of `view`, resampled from `candidates` uniform ones by the
    likelihood of the other seats' public play (uniform when nothing is known of it)."""
    model = model or shipped_model()
    tables = opponent_tables(view, history, model)
    if not tables:
        return [determinize(view, rng) for _ in range(size)]
    states = [determinize(view, rng) for _ in range(candidates)]
    return resample(states, [log_weight(state, tables) for state in states], size, rng)
