"""Fit the learned cut-off evaluation (value_model.py): `python -m ai.search.train_value`.

Seeded heuristic self-play games, per player count: every position where a battle has just
ended (where the search evaluates) is one sample, its target the victory shares the game ended
with. Per player count the conditional logit is fitted by Newton's method with a small L2
penalty, then scored on held-out games (other seeds) by the mean log-likelihood of who won,
next to the hand-built `Evaluator` on the same positions. Seeds, sizes and both scores go to
`value_model.json`. A few minutes of one core.
"""

import argparse
import json
import math
import time

from games.engine import (
    apply_action,
    current_player,
    is_terminal,
    new_game,
    view_for,
    winners,
)

from ..board import win_targets
from ..factory import make_bot
from .evaluation import Evaluator
from .tree import BATTLE_PHASES
from .value_model import DATA_FILE, FEATURES, FORMAT, position_features, win_chances

PLAYER_COUNTS = (2, 3, 4, 5, 6)
TRAIN_SEED = 300_000
HELD_OUT_SEED = 800_000
MAX_ACTIONS = 1_500
L2 = 1.0
NEWTON_STEPS = 25


def battle_ends(players: int, seed: int, level: str = "heuristic"):
    """(positions where a battle has just ended, victory shares) of one seeded game between bots
    of `level`; ([], None) for a game cut at MAX_ACTIONS without a winner."""
    state = new_game(players, seed=seed, first=seed % players)
    bots = [make_bot(level, seed=seed * 31 + seat) for seat in range(players)]
    positions = []
    for _ in range(MAX_ACTIONS):
        if is_terminal(state):
            won = winners(state)
            return positions, [1.0 / len(won) if seat in won else 0.0 for seat in range(players)]
        in_battle = state.phase in BATTLE_PHASES
        seat = current_player(state)
        state = apply_action(state, bots[seat].choose(view_for(state, seat)))
        if in_battle and state.phase not in BATTLE_PHASES and not is_terminal(state):
            positions.append(state)
    return [], None


def samples_of(players: int, seeds) -> tuple[list, list]:
    """(samples, states): a sample is (every seat's features, the game's victory shares)."""
    total, connected = win_targets(players, False)
    samples, states = [], []
    for seed in seeds:
        positions, shares = battle_ends(players, seed)
        for state in positions:
            samples.append((position_features(state, total, connected), shares))
            states.append((state, shares))
    return samples, states


def outcome_log_likelihood(chances, shares) -> float:
    """sum_s share_s * log(chance_s): how well `chances` foretold the game's victory shares."""
    return sum(y * math.log(max(p, 1e-12)) for y, p in zip(shares, chances, strict=True) if y)


def log_likelihood(weights, samples) -> float:
    """Mean over samples of the outcome's log-likelihood under the model's win chances."""
    total = sum(outcome_log_likelihood(win_chances(weights, f), y) for f, y in samples)
    return total / len(samples)


def gradient_and_hessian(weights, samples, l2: float):
    """Of the penalised log-likelihood (summed over samples): the Hessian is negative definite."""
    size = len(weights)
    gradient = [-l2 * w for w in weights]
    hessian = [[-l2 if i == j else 0.0 for j in range(size)] for i in range(size)]
    for features, shares in samples:
        chances = win_chances(weights, features)
        mean = [
            sum(p * seat[j] for p, seat in zip(chances, features, strict=True)) for j in range(size)
        ]
        for p, y, seat in zip(chances, shares, features, strict=True):
            centred = [f - m for f, m in zip(seat, mean, strict=True)]
            for i in range(size):
                gradient[i] += y * centred[i]
                pi = p * centred[i]
                if pi:
                    row = hessian[i]
                    for j in range(i, size):
                        row[j] -= pi * centred[j]
    for i in range(size):
        for j in range(i):
            hessian[i][j] = hessian[j][i]
    return gradient, hessian


def solve(matrix, vector):
    """x with matrix @ x = vector (Gaussian elimination with partial pivoting)."""
    size = len(vector)
    rows = [list(row) + [value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        x[r] = (rows[r][size] - sum(rows[r][c] * x[c] for c in range(r + 1, size))) / rows[r][r]
    return x


def fit(samples, l2: float = L2, steps: int = NEWTON_STEPS) -> list[float]:
    """Newton's method on the penalised log-likelihood, halving a step that does not improve it."""
    weights = [0.0] * len(samples[0][0][0])  # features per seat

    def objective(w):
        return len(samples) * log_likelihood(w, samples) - 0.5 * l2 * sum(v * v for v in w)

    current = objective(weights)
    for _ in range(steps):
        gradient, hessian = gradient_and_hessian(weights, samples, l2)
        step = solve([[-h for h in row] for row in hessian], gradient)
        scale = 1.0
        while scale > 1e-3:
            trial = [w + scale * s for w, s in zip(weights, step, strict=True)]
            value = objective(trial)
            if value >= current:
                break
            scale /= 2
        else:
            break
        gain = value - current
        weights, current = trial, value
        if gain < 1e-6 * len(samples):
            break
    return weights


def hand_built_log_likelihood(players: int, states) -> float:
    evaluator = Evaluator(players, False)
    total = sum(outcome_log_likelihood(evaluator.rewards(state), y) for state, y in states)
    return total / len(states)


def train(games: int, held_out_games: int) -> dict:
    started = time.perf_counter()
    weights, report = {}, {}
    for players in PLAYER_COUNTS:
        seeds = range(TRAIN_SEED + 1_000 * players, TRAIN_SEED + 1_000 * players + games)
        samples, _ = samples_of(players, seeds)
        weights[str(players)] = [round(w, 5) for w in fit(samples)]
        held_seeds = range(
            HELD_OUT_SEED + 1_000 * players, HELD_OUT_SEED + 1_000 * players + held_out_games
        )
        held, held_states = samples_of(players, held_seeds)
        report[str(players)] = {
            "samples": len(samples),
            "held_out_samples": len(held),
            "learned_log_likelihood": round(log_likelihood(weights[str(players)], held), 4),
            "hand_built_log_likelihood": round(hand_built_log_likelihood(players, held_states), 4),
            "uniform_log_likelihood": round(math.log(1 / players), 4),
        }
    return {
        "format": FORMAT,
        "features": list(FEATURES),
        "weights": weights,
        "training": {
            "bots": "heuristic self-play, no options",
            "games_per_player_count": games,
            "game_seeds": f"{TRAIN_SEED} + 1000 * players + game",
            "held_out_games_per_player_count": held_out_games,
            "held_out_seeds": f"{HELD_OUT_SEED} + 1000 * players + game",
            "l2": L2,
            "held_out": report,
            "seconds": round(time.perf_counter() - started, 1),
        },
    }


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m ai.search.train_value", description=__doc__)
    parser.add_argument("--games", type=int, default=800, help="per player count")
    parser.add_argument("--held-out-games", type=int, default=200, help="per player count")
    parser.add_argument("--out", default=str(DATA_FILE))
    args = parser.parse_args(argv)
    data = train(args.games, args.held_out_games)
    with open(args.out, "w") as out:
        json.dump(data, out, indent=1)
        out.write("\n")
    print(json.dumps(data["training"], indent=1))


if __name__ == "__main__":
    main()
