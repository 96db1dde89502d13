"""Fit the model of `hard`'s battle choices (imitation.py): `python -m ai.search.train_imitation`.

Seeded heads-up games between `hard` bots at a fixed iteration budget (so every choice is
reproducible): every battle decision a search makes is one sample, its target the action `hard`
chose. The conditional logit is fitted by train_value's Newton method on the first three
quarters of the games and scored on the rest: how often its likeliest action, and the
heuristic's, is `hard`'s, and the mean log-likelihood of `hard`'s choices. Then it is fitted on
every game and written, with seeds, sizes and scores, to `imitation_model.json`. The games are
the cost: about eleven minutes of two cores for 40 games at 1,000 iterations; `--cache` keeps
their decisions in a file, for refitting without replaying them.
"""

import argparse
import json
import multiprocessing
import time
from pathlib import Path

from games.engine import apply_action, current_player, is_terminal, new_game, view_for

from ..factory import make_bot
from .bot import answer_without_search
from .imitation import DATA_FILE, FEATURES, FORMAT, battle_features, is_battle_decision
from .train_value import fit, outcome_log_likelihood
from .value_model import win_chances

GAMES = 40
FIRST_GAME_SEED = 1000
ITERATIONS = 1000
HELD_OUT_SHARE = 0.25


def hard_choices(game_seed: int, iterations: int = ITERATIONS) -> list[dict]:
    """Every searched battle decision of one heads-up game between `hard` bots: the view and
    the index of the action chosen."""
    state = new_game(2, seed=game_seed)
    bots = [make_bot("hard", seed=game_seed * 7 + seat, iterations=iterations) for seat in (0, 1)]
    decisions = []
    while not is_terminal(state):
        view = view_for(state, current_player(state))
        action = bots[view["seat"]].choose(view)
        if answer_without_search(view) is None and is_battle_decision(view):
            decisions.append({"view": view, "chosen": view["legal_actions"].index(action)})
        state = apply_action(state, action)
    return decisions


def _hard_choices(args) -> list[dict]:
    return hard_choices(*args)


def collect(games: int, first_seed: int, iterations: int, workers: int) -> list[list[dict]]:
    """hard_choices of each game, in seed order."""
    jobs = [(first_seed + game, iterations) for game in range(games)]
    if workers <= 1:
        return [hard_choices(*job) for job in jobs]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(_hard_choices, jobs)


def samples_of(decisions: list[dict]) -> list[tuple]:
    """(feature rows, one-hot of the action chosen): train_value.fit's sample shape."""
    samples = []
    for decision in decisions:
        rows = battle_features(decision["view"])
        target = [float(index == decision["chosen"]) for index in range(len(rows))]
        samples.append((rows, target))
    return samples


def held_out_report(weights: list[float], samples: list[tuple]) -> dict:
    """How well the model, and the heuristic's move, foretell `hard`'s choices."""
    heuristic = FEATURES.index("heuristic_choice")
    model_hits = heuristic_hits = 0
    log_likelihood = 0.0
    for rows, target in samples:
        chosen = target.index(1.0)
        chances = win_chances(weights, rows)
        model_hits += chances.index(max(chances)) == chosen
        heuristic_hits += rows[chosen][heuristic] == 1.0
        log_likelihood += outcome_log_likelihood(chances, target)
    count = len(samples)
    return {
        "decisions": count,
        "model_matches": model_hits / count,
        "heuristic_matches": heuristic_hits / count,
        "model_log_likelihood": log_likelihood / count,
    }


def train(games: list[list[dict]], held_out_share: float = HELD_OUT_SHARE) -> dict:
    split = len(games) - max(1, round(len(games) * held_out_share))
    per_game = [samples_of(decisions) for decisions in games]  # features read once per decision
    training = [sample for samples in per_game[:split] for sample in samples]
    held_out_samples = [sample for samples in per_game[split:] for sample in samples]
    held_out = held_out_report(fit(training), held_out_samples)
    weights = fit(training + held_out_samples)
    return {"held_out": held_out, "weights": weights, "training_games": split}


def load_or_collect(args) -> list[list[dict]]:
    """The games' decisions: from `--cache` if it holds this run's, else played (and cached)."""
    run = {"games": args.games, "seed": args.seed, "iterations": args.iterations}
    cache = Path(args.cache) if args.cache else None
    if cache and cache.exists():
        data = json.loads(cache.read_text())
        if data.get("run") == run:
            return data["decisions"]
    games = collect(args.games, args.seed, args.iterations, args.workers)
    if cache:
        cache.write_text(json.dumps({"run": run, "decisions": games}))
    return games


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--seed", type=int, default=FIRST_GAME_SEED, help="the first game's seed")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", help="a file keeping the games' decisions between runs")
    parser.add_argument("--out", default=str(DATA_FILE))
    args = parser.parse_args(argv)
    started = time.monotonic()
    games = load_or_collect(args)
    result = train(games)
    held_out = result["held_out"]
    report = {
        "format": FORMAT,
        "features": list(FEATURES),
        "games": args.games,
        "first_seed": args.seed,
        "iterations": args.iterations,
        "decisions": sum(len(decisions) for decisions in games),
        "training_games": result["training_games"],
        "held_out": held_out,
        "weights": [round(w, 6) for w in result["weights"]],
    }
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(
        f"{report['decisions']} decisions from {args.games} games; on the "
        f"{held_out['decisions']} held out, the model's likeliest action is hard's "
        f"{held_out['model_matches']:.1%}, the heuristic's {held_out['heuristic_matches']:.1%} "
        f"(log-likelihood {held_out['model_log_likelihood']:.3f}); "
        f"{time.monotonic() - started:.0f} s; written to {args.out}"
    )


if __name__ == "__main__":
    main()
