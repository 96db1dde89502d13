"""The analysis's accuracy and marks, measured on bots of known strength (docs/ai.md, "Analysis").

    python -m games.analysis.calibration --games 24 --seed 1 \
        --json docs/arena/accuracy-calibration.json

Plays seat-rotated arena games with one bot of each level at the table (random, easy,
heuristic and `hard` at 1,000 iterations by default), then analyses every decision with a real
choice exactly as a finished game's analysis does (`ai.analysis.analyse_view` at the analysis's
budget and seed, from the deciding seat's view), and prints per level: seat-games, decisions,
the mean accuracy over seat-games with its 95% interval, and marks per game. A stronger level
must score a higher accuracy: that is what the accuracy formula (games/analysis/marks.py) is
calibrated on.

The JSON keeps every analysed decision (the search's value and playouts of each move), so the
table can be printed again with today's formula without searching anything (`--table-only`,
which also rewrites the report's table).
`--resume` keeps the games a stopped run saved and plays only the others.
"""

import argparse
import json
import math
import os
import time
from collections import defaultdict

from ai.analysis import analyse_view
from ai.arena import MAX_ACTIONS, decide, schedule, write_json
from ai.arena_levels import check_tokens, make_arena_bot, parse_token
from games.analysis.limits import DEFAULT_ITERATIONS, SEED
from games.analysis.marks import MARKS, drop_points, mark_for, seat_accuracy, stake_points
from games.rules_api import ruleset

CONDOTTIERE = ruleset("condottiere")

DEFAULT_BOTS = "random,easy,heuristic,hard:1000"


def level_of(token: str) -> str:
    return parse_token(token)[0]


def analysed_decision(view: dict, action: dict, iterations: int) -> dict:
    """One decision as the analysis sees it: the best move's and the played move's values and
    every searched move's value and playouts (the accuracy formula's inputs)."""
    found = analyse_view(view, iterations=iterations, seed=SEED)
    options = sorted(
        ([round(value, 4), found.visits.get(move, 0)] for move, value in found.values.items()),
        reverse=True,
    )
    after = found.value_of(action)
    return {
        "before": round(found.best_value, 4),
        "after": None if after is None else round(after, 4),
        "options": options,
        "legal": len(view["legal_actions"]),
    }


def play_and_analyse(spec: dict, iterations: int) -> dict:
    """Play one arena game and analyse each seat's decisions with a real choice."""
    players = len(spec["bots"])
    state = CONDOTTIERE.new_game(
        players, seed=spec["game_seed"], options={"first": spec["deal"] % players}
    )
    bots = [
        make_arena_bot(
            token,
            seat=seat,
            lineup=spec["bots"],
            seed=spec["game_seed"] * 31 + seat,
            iterations=None,
            time_limit=None,
        )
        for seat, token in enumerate(spec["bots"])
    ]
    decisions = []
    actions = 0
    while not CONDOTTIERE.is_terminal(state) and actions < MAX_ACTIONS:
        (seat,) = CONDOTTIERE.acting_seats(state)  # one seat decides at a time in Condottiere
        view = CONDOTTIERE.view_for(state, seat)
        action = decide(bots[seat], view, state, None)
        if len(view["legal_actions"]) >= 2 and action.get("type") != "show":
            decisions.append({"seat": seat, **analysed_decision(view, action, iterations)})
        state = CONDOTTIERE.apply_action(state, seat, action)
        actions += 1
    return {**spec, "finished": CONDOTTIERE.is_terminal(state), "decisions": decisions}


def judged(decision: dict) -> dict:
    """A stored decision as the analysis's entry judges it: its drop, stake and mark."""
    worst = min((value for value, _visits in decision["options"]), default=None)
    drop = drop_points(decision["before"], decision["after"])
    stake = stake_points(decision["before"], worst)
    return {"drop": drop, "stake": stake, "mark": mark_for(drop, stake)}


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval (1.96 standard errors; the table clips it to 0..100)."""
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, mean, mean
    variance = sum((value - mean) ** 2 for value in values) / (count - 1)
    half = 1.96 * math.sqrt(variance / count)
    return mean, mean - half, mean + half


def level_table(games: list[dict]) -> dict:
    """Per level: seat-games, decisions, mean accuracy over seat-games [95%], marks per game,
    with today's formula (games/analysis/marks.py)."""
    accuracies, decisions, marks = defaultdict(list), defaultdict(int), defaultdict(dict)
    seat_games = defaultdict(int)
    for game in games:
        for seat, token in enumerate(game["bots"]):
            level = level_of(token)
            entries = [judged(entry) for entry in game["decisions"] if entry["seat"] == seat]
            seat_games[level] += 1
            decisions[level] += len(entries)
            value = seat_accuracy(entries)
            if value is not None:
                accuracies[level].append(value)
            for entry in entries:
                if entry["mark"]:
                    marks[level][entry["mark"]] = marks[level].get(entry["mark"], 0) + 1
    table = {}
    for level in seat_games:
        mean, low, high = mean_interval(accuracies[level] or [float("nan")])
        table[level] = {
            "games": seat_games[level],
            "decisions": decisions[level],
            "accuracy": round(mean, 1),
            "ci95": [round(max(0.0, low), 1), round(min(100.0, high), 1)],
            "marks_per_game": {
                mark: round(marks[level].get(mark, 0) / seat_games[level], 2) for mark in MARKS
            },
        }
    return table


def format_table(table: dict, order: list[str]) -> str:
    lines = [
        "| level | games | decisions | accuracy [95%] | marks per game (?! / ? / ??) |",
        "|---|---|---|---|---|",
    ]
    for level in order:
        row = table[level]
        low, high = row["ci95"]
        per_game = " / ".join(f"{row['marks_per_game'][mark]:.2f}" for mark in MARKS)
        lines.append(
            f"| {level} | {row['games']} | {row['decisions']} | "
            f"{row['accuracy']:.1f} [{low:.1f}, {high:.1f}] | {per_game} |"
        )
    return "\n".join(lines)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="python -m games.analysis.calibration", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=24, help="rounded up to whole rotations")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default=DEFAULT_BOTS, help="weakest first; cycled over seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, help="analysis's")
    parser.add_argument("--json", default=None, help="write the report here")
    parser.add_argument("--resume", action="store_true", help="keep the games in --json")
    parser.add_argument(
        "--table-only", action="store_true", help="judge --json's games again; print, store"
    )
    return parser.parse_args(argv)


def stored_games(args) -> list[dict]:
    if not (args.json and (args.resume or args.table_only) and os.path.exists(args.json)):
        return []
    with open(args.json) as handle:
        return json.load(handle)["games"]


def report(args, games: list[dict], seconds: float) -> dict:
    games = sorted(games, key=lambda game: (game["deal"], game["rotation"]))
    return {
        "args": {**vars(args), "json": args.json and os.path.relpath(args.json)},
        "seconds": round(seconds, 1),
        "table": level_table(games),
        "games": games,
    }


def main(argv=None) -> dict:
    args = parse_args(argv)
    tokens = [token.strip() for token in args.bots.split(",") if token.strip()]
    check_tokens(tokens)
    games = stored_games(args)
    order = list(dict.fromkeys(level_of(token) for token in tokens))
    if not args.table_only:
        done = {(game["deal"], game["rotation"]) for game in games}
        began = time.perf_counter()
        for spec in schedule(tokens, args.players, args.games, args.seed):
            if (spec["deal"], spec["rotation"]) in done:
                continue
            games.append(play_and_analyse(spec, args.iterations))
            print(f"game {len(games)}: {time.perf_counter() - began:.0f} s", flush=True)
            if args.json:
                write_json(args.json, report(args, games, time.perf_counter() - began))
    result = report(args, games, 0.0)
    if args.table_only and args.json and games:
        rewrite_table(args.json, result["table"])
    print(format_table(result["table"], order))
    return result


def rewrite_table(path: str, table: dict) -> None:
    """The stored report with its table judged again by today's formula (games unchanged)."""
    with open(path) as handle:
        stored = json.load(handle)
    write_json(path, {**stored, "table": table})


if __name__ == "__main__":
    main()
