"""Train the hand model from seeded heuristic self-play: `python -m ai.inference.train`.

Every position of every game gives one observation per seat holding cards: the key (player
count, hand size), the seat's public features this round and its true hand. The counts go to
`hand_model.json`, with the seeds and sizes used. The temper (model.py) is the value on a grid
that maximises the held-out log-likelihood gain of the true hands over uniform
determinizations (`gains`), on other seeded games. About three minutes of one core.
"""

import argparse
import json
import math
import random
import time

from games.engine import apply_action, current_player, determinize, is_terminal, new_game, view_for

from ..factory import make_bot
from .features import FEATURES, RoundReader
from .model import CAP, DATA_FILE, FORMAT, HandModel, empty_counts, hand_log_weight, model_key

PLAYER_COUNTS = (2, 3, 4, 5)
TRAIN_SEED = 100_000
HELD_OUT_SEED = 900_000
MAX_ACTIONS = 1_500
SMOOTHING = 1.0
TEMPERS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)


def logged_game(players: int, seed: int, level: str = "heuristic"):
    """Yield (state, reader) at every position of one seeded game between bots of `level`,
    `reader` having read the spectator views of the game so far (its last is the state's)."""
    state = new_game(players, seed=seed, first=seed % players)
    bots = [make_bot(level, seed=seed * 31 + seat, iterations=100) for seat in range(players)]
    reader = RoundReader(view_for(state, None))
    for _ in range(MAX_ACTIONS):
        yield state, reader
        if is_terminal(state):
            return
        seat = current_player(state)
        state = apply_action(state, bots[seat].choose(view_for(state, seat)))
        reader.feed(view_for(state, None))


def count_game(counts: dict, players: int, seed: int) -> int:
    """Add one game's observations to `counts` ({key: empty_counts()}); return how many."""
    observations = 0
    for state, reader in logged_game(players, seed):
        for seat, size in enumerate(state.sizes):
            if not size:
                continue
            table = counts.setdefault(model_key(players, size), empty_counts())
            cells = [3 * kind + min(count, CAP) for kind, count in enumerate(state.hands[seat])]
            for j, value in enumerate(reader.features(seat)):
                row = table[j][value]
                for cell in cells:
                    row[cell] += 1
            observations += 1
    return observations


def log_mean_exp(values: list) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values) / len(values))


def held_out_log_ratios(model: HandModel, players: int, seed: int, every: int, samples: int):
    """Yield, at every `every`-th decision of one game, per other seat holding cards: the
    untempered log-likelihood ratio of its true hand and of its hand in `samples` uniform
    determinizations of the deciding seat's view."""
    rng = random.Random(seed)
    for step, (state, reader) in enumerate(logged_game(players, seed)):
        if is_terminal(state) or step % every:
            continue
        viewer = current_player(state)
        view = view_for(state, viewer)
        draws = [determinize(view, rng) for _ in range(samples)]
        for seat, size in enumerate(state.sizes):
            if seat == viewer or not size:
                continue
            table = model.seat_table(players, size, reader.features(seat))
            if table is None:
                continue
            true = hand_log_weight(table, state.hands[seat])
            yield true, [hand_log_weight(table, draw.hands[seat]) for draw in draws]


def gains(ratios: list, temper: float) -> list:
    """Per observation: log w(true hand) - log mean w(uniform hands), w = exp(temper * ratio)."""
    return [temper * true - log_mean_exp([temper * r for r in drawn]) for true, drawn in ratios]


def train(games: int, held_out_games: int, every: int, samples: int) -> dict:
    started = time.perf_counter()
    counts, observations = {}, 0
    for players in PLAYER_COUNTS:
        for game in range(games):
            observations += count_game(counts, players, TRAIN_SEED + 1_000 * players + game)
    data = {
        "format": FORMAT,
        "features": [list(feature) for feature in FEATURES],
        "smoothing": SMOOTHING,
        "temper": 1.0,
        "counts": counts,
    }
    model = HandModel(data, temper=1.0)
    ratios = [
        item
        for players in PLAYER_COUNTS
        for game in range(held_out_games)
        for item in held_out_log_ratios(
            model, players, HELD_OUT_SEED + 1_000 * players + game, every, samples
        )
    ]
    by_temper = {t: sum(gains(ratios, t)) / len(ratios) for t in TEMPERS}
    temper = max(TEMPERS, key=by_temper.get)
    data["temper"] = temper
    data["training"] = {
        "bots": "heuristic self-play, no options",
        "player_counts": list(PLAYER_COUNTS),
        "games_per_player_count": games,
        "game_seeds": f"{TRAIN_SEED} + 1000 * players + game",
        "observations": observations,
        "held_out_games_per_player_count": held_out_games,
        "held_out_seeds": f"{HELD_OUT_SEED} + 1000 * players + game",
        "held_out_every_nth_position": every,
        "uniform_samples": samples,
        "held_out_hands": len(ratios),
        "mean_gain_nats_by_temper": {str(t): round(g, 4) for t, g in by_temper.items()},
        "seconds": round(time.perf_counter() - started, 1),
    }
    return data


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m ai.inference.train", description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="per player count")
    parser.add_argument("--held-out-games", type=int, default=15, help="per player count")
    parser.add_argument("--every", type=int, default=5, help="held-out positions: every nth")
    parser.add_argument("--samples", type=int, default=100, help="uniform hands per position")
    parser.add_argument("--out", default=str(DATA_FILE))
    args = parser.parse_args(argv)
    data = train(args.games, args.held_out_games, args.every, args.samples)
    with open(args.out, "w") as out:
        json.dump(data, out, separators=(",", ":"))
        out.write("\n")
    print(json.dumps(data["training"], indent=1))


if __name__ == "__main__":
    main()
