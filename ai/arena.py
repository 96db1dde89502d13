"""Bots against bots, seat-rotated to cut the luck of the deal.

    python -m ai.arena --players 4 --games 400 --bots hard,heuristic,heuristic,heuristic \
        --seed 1 --iterations 1000 --workers 2 --json arena-hard4.json

Each deal (a game seed) is replayed once per rotation of the seats, so every bot plays every
seat of the same deal. With fewer bots than players the list is cycled to fill the seats.

    python -m ai.arena --game renaissance --players 6 --games 60 --bots heuristic,random

A bot token is a level, or `level:N` for a search level with N iterations per decision and no
clock (`--bots hard:4000,hard:1000`); the token is the bot's label in the summary. Besides the
site's levels the arena has three test opponents (ai/arena_levels.py): `oracle`, the search given
the true hidden cards (it cheats on purpose), `ganging`, heuristic bots that play as a team
once one of them leads, and `coalition`, bots that see every hand (they cheat on purpose) and
gang up on an outsider who leads.

Renaissance (ai/renaissance/arena.py) adds a table per nation; --iterations, --time-limit and
--options are Condottiere's only.

A long run can be stopped and taken up again: the JSON is rewritten every --save-every games,
and the same command with --resume keeps the games it holds and plays only the others (each game
depends on its deal and rotation alone, so the result is the one an unbroken run would give, at
fixed iterations).
"""

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import defaultdict

from tqdm import tqdm

from games.engine import (
    Options,
    apply_action,
    current_player,
    is_terminal,
    new_game,
    view_for,
    winners,
)

from .arena_levels import check_tokens, make_arena_bot
from .ratings import bradley_terry, pairwise_scores, wilson_interval
from .renaissance import arena as renaissance_arena

# A safety net: games take ~100-300 actions, but the rules let players who all keep passing
# (tied battles, a region chosen again and again) play for ever. A game cut here has no winner
# and is counted in `unfinished`.
MAX_ACTIONS = 1_500


def seat_bots(bots: list[str], players: int) -> list[str]:
    """The bot of each seat for rotation 0: the list cycled to fill `players` seats."""
    return [bots[seat % len(bots)] for seat in range(players)]


def schedule(bots, players, games, seed) -> list[dict]:
    """`games` game specs (rounded up to whole rotations): deal d, rotation r."""
    lineup = seat_bots(bots, players)
    deals = -(-games // players)
    specs = []
    for deal in range(deals):
        for rotation in range(players):
            seats = [lineup[(seat + rotation) % players] for seat in range(players)]
            specs.append(
                {
                    "deal": deal,
                    "rotation": rotation,
                    "bots": seats,
                    "game_seed": seed * 1_000_003 + deal,
                }
            )
    return specs


def uses_history(bot) -> bool:
    return getattr(bot, "uses_history", False)


def decide(bot, view: dict, state, history: list | None) -> dict:
    """The bot's action: an oracle or a coalition member (arena only, they cheat on purpose) is
    handed the true state, a
    bot that declares `uses_history` the spectator views so far, any other bot its view alone."""
    if getattr(bot, "sees_true_state", False):
        return bot.choose_with_state(view, state)
    if uses_history(bot):
        return bot.choose(view, history=history)
    return bot.choose(view)


def play_game(spec: dict) -> dict:
    """Play one game; return who sat where, the victory shares and regions per seat."""
    options = Options(**spec.get("options", {}))
    state = new_game(
        len(spec["bots"]),
        seed=spec["game_seed"],
        options=options,
        first=spec["deal"] % len(spec["bots"]),
    )
    players = [
        make_arena_bot(
            token,
            seat=seat,
            lineup=spec["bots"],
            seed=spec["game_seed"] * 31 + seat,
            iterations=spec.get("iterations"),
            time_limit=spec.get("time_limit"),
        )
        for seat, token in enumerate(spec["bots"])
    ]
    # Spectator views after every action (the deal's first), kept only if a bot reads them.
    history = [view_for(state, None)] if any(uses_history(bot) for bot in players) else None
    think = [0.0] * len(players)
    # Decisions with a choice (two legal actions or more): the others are answered at once.
    decisions = [0] * len(players)
    actions = 0
    started = time.perf_counter()
    while not is_terminal(state) and actions < MAX_ACTIONS:
        seat = current_player(state)
        view = view_for(state, seat)
        tick = time.perf_counter()
        action = decide(players[seat], view, state, history)
        think[seat] += time.perf_counter() - tick
        decisions[seat] += len(view["legal_actions"]) > 1
        state = apply_action(state, action)
        actions += 1
        if history is not None:
            history.append(view_for(state, None))
    won = winners(state)
    shares = [1.0 / len(won) if seat in won else 0.0 for seat in range(len(players))]
    regions = view_for(state, None)["players"]
    return {
        **spec,
        "winners": list(won),
        "shares": shares,
        "actions": actions,
        "finished": is_terminal(state),
        "regions": [p["regions"] for p in regions],
        "think_seconds": think,
        "decisions": decisions,
        "seconds": time.perf_counter() - started,
    }


def summarise(results: list[dict]) -> dict:
    """Per bot: seat-games, wins (shared victories as 1/k), win rate with a 95% Wilson
    interval, mean regions; and Bradley–Terry ratings from the pairwise results."""
    totals = defaultdict(
        lambda: {"games": 0, "wins": 0.0, "regions": 0, "think": 0.0, "decisions": 0}
    )
    for game in results:
        for seat, bot in enumerate(game["bots"]):
            row = totals[bot]
            row["games"] += 1
            row["wins"] += game["shares"][seat]
            row["regions"] += game["regions"][seat]
            row["think"] += game["think_seconds"][seat]
            row["decisions"] += game.get("decisions", [0] * len(game["bots"]))[seat]
    ratings = bradley_terry(pairwise_scores(results))
    summary = {}
    for bot, row in totals.items():
        low, high = wilson_interval(row["wins"], row["games"])
        summary[bot] = {
            "games": row["games"],
            "wins": round(row["wins"], 3),
            "win_rate": row["wins"] / row["games"],
            "ci95": [low, high],
            "mean_regions": row["regions"] / row["games"],
            "rating": ratings.get(bot),
            # Wall-clock milliseconds per decision with a choice (a loaded machine is slower).
            "ms_per_decision": 1000 * row["think"] / row["decisions"] if row["decisions"] else None,
        }
    return summary


def seat_coverage(results: list[dict]) -> dict:
    """{bot: sorted seats it played}: seat rotation must put every bot in every seat."""
    seats = defaultdict(set)
    for game in results:
        for seat, bot in enumerate(game["bots"]):
            seats[bot].add(seat)
    return {bot: sorted(s) for bot, s in seats.items()}


def run(
    specs: list[dict], workers: int, progress: bool = True, on_game=None, play=play_game
) -> list[dict]:
    """Play every spec with `play` (one game per process); the bar shows each bot's running win
    rate; `on_game(results so far)` is called after each game (to save partial results)."""
    if workers <= 1:
        return _collect(map(play, specs), len(specs), progress, on_game)
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return _collect(pool.imap_unordered(play, specs), len(specs), progress, on_game)


def _collect(iterator, total: int, progress: bool, on_game=None) -> list[dict]:
    results = []
    wins, seats = defaultdict(float), defaultdict(int)
    with tqdm(total=total, disable=not progress, desc="games", mininterval=5) as bar:
        for game in iterator:
            results.append(game)
            for seat, bot in enumerate(game["bots"]):
                wins[bot] += game["shares"][seat]
                seats[bot] += 1
            bar.set_postfix({bot: f"{wins[bot] / seats[bot]:.2f}" for bot in seats}, refresh=False)
            bar.update()
            if on_game:
                on_game(results)
    return results


def format_table(summary: dict) -> str:
    width = max([12, *(len(bot) + 2 for bot in summary)])
    lines = [
        f"{'bot':<{width}}{'games':>7}{'wins':>9}{'win rate':>10}{'95% CI':>17}"
        f"{'regions':>9}{'rating':>8}{'ms/dec':>8}"
    ]
    for bot, row in sorted(summary.items(), key=lambda kv: -(kv[1]["rating"] or 0)):
        low, high = row["ci95"]
        rating = "" if row["rating"] is None else f"{row['rating']:.0f}"
        speed = row.get("ms_per_decision")
        speed = "" if speed is None else f"{speed:.1f}"
        lines.append(
            f"{bot:<{width}}{row['games']:>7}{row['wins']:>9.2f}{row['win_rate']:>10.3f}"
            f"{f'[{low:.3f}, {high:.3f}]':>17}{row['mean_regions']:>9.2f}{rating:>8}{speed:>8}"
        )
    return "\n".join(lines)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m ai.arena", description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("condottiere", "renaissance"), default="condottiere")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument(
        "--bots",
        required=True,
        help="comma-separated levels, cycled over seats; level:N = N iterations (hard:4000)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--options", default="", help="e.g. hidden_cards,capturing_regions")
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--save-every", type=int, default=5, help="games between JSON saves")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the games already in --json (a run stopped early) and play only the rest",
    )
    return parser.parse_args(argv)


# The arguments that decide which games a run plays and how: a report resumes only a run that
# agrees on every one of them (workers, progress and saving change nothing in a game).
RUN_DEFINING = ("game", "players", "games", "bots", "seed", "iterations", "time_limit", "options")
# Reports written before the arena played Renaissance have no "game": they are Condottiere.
STORED_ARG_DEFAULTS = {"game": "condottiere"}


def stored_arg(stored_args: dict, name: str):
    """A run argument as a report stored it, with the default of reports older than it."""
    return stored_args.get(name, STORED_ARG_DEFAULTS.get(name))


def game_key(game: dict) -> tuple[int, int]:
    return game["deal"], game["rotation"]


def resumed_games(args) -> tuple[list[dict], float]:
    """The games and seconds of the report at --json, when --resume is asked and it exists;
    refused (SystemExit) when that report is of another run."""
    if not args.resume:
        return [], 0.0
    if not args.json:
        raise SystemExit("--resume needs --json: the report to resume")
    if not os.path.exists(args.json):
        return [], 0.0
    with open(args.json) as handle:
        report = json.load(handle)
    stored = report["args"]
    differing = [name for name in RUN_DEFINING if stored_arg(stored, name) != getattr(args, name)]
    if differing:
        found = ", ".join(f"{name}={stored.get(name)!r}" for name in differing)
        raise SystemExit(f"--resume: {args.json} is a report of another run ({found})")
    return report["games"], report.get("seconds", 0.0)


def build_report(args, results: list[dict], seconds: float, planned: int) -> dict:
    results = sorted(results, key=lambda g: (g["deal"], g["rotation"]))
    renaissance_game = getattr(args, "game", "condottiere") == "renaissance"
    return {
        # The report's own path as given, relative to where the arena ran: never a machine path.
        "args": {**vars(args), "json": args.json and os.path.relpath(args.json)},
        "seconds": seconds,
        "planned_games": planned,
        "finished_games": len(results),
        "unfinished": sum(1 for g in results if not g["finished"]),
        "summary": renaissance_arena.summarise(results) if renaissance_game else summarise(results),
        "seat_coverage": seat_coverage(results),
        "games": results,
    }


def write_json(path: str, report: dict) -> None:
    """Write atomically, so a reader (or a run stopped early) never sees half a file."""
    temporary = f"{path}.tmp"
    with open(temporary, "w") as handle:
        json.dump(report, handle, indent=1)
    os.replace(temporary, path)


def renaissance_specs(args, bots: list[str]) -> list[dict]:
    if args.iterations is not None or args.time_limit is not None or args.options:
        raise SystemExit("--iterations, --time-limit and --options are for Condottiere only")
    try:
        renaissance_arena.check_levels(bots)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    return renaissance_arena.schedule(bots, args.players, args.games, args.seed)


def main(argv=None) -> dict:
    args = parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.game == "renaissance":
        specs, play = renaissance_specs(args, bots), renaissance_arena.play_game
    else:
        try:
            check_tokens(bots)
        except ValueError as error:
            raise SystemExit(f"--bots: {error}") from None
        options = {name: True for name in args.options.split(",") if name}
        specs, play = schedule(bots, args.players, args.games, args.seed), play_game
        for spec in specs:
            spec.update(iterations=args.iterations, time_limit=args.time_limit, options=options)
    earlier, earlier_seconds = resumed_games(args)
    played = {game_key(game) for game in earlier}
    remaining = [spec for spec in specs if game_key(spec) not in played]
    started = time.perf_counter()

    def elapsed():
        return earlier_seconds + time.perf_counter() - started

    def save_partial(results):
        # Long runs keep an up-to-date report, so stopping one early loses nothing.
        if args.json and len(results) % args.save_every == 0:
            write_json(args.json, build_report(args, earlier + results, elapsed(), len(specs)))

    results = earlier + run(remaining, args.workers, not args.quiet, save_partial, play)
    report = build_report(args, results, elapsed(), len(specs))
    if args.game == "renaissance":
        print(renaissance_arena.format_table(report["summary"]))
        seeds = sorted({game["game_seed"] for game in results})
        print(
            f"{len(results)} games in {report['seconds']:.0f} s, game seeds "
            f"{seeds[0]}..{seeds[-1]} (--seed {args.seed}), {report['unfinished']} unfinished"
        )
    else:
        print(format_table(report["summary"]))
        print(
            f"{len(results)} games in {report['seconds']:.0f} s, "
            f"{report['unfinished']} cut at {MAX_ACTIONS} actions without a winner"
        )
    if args.json:
        write_json(args.json, report)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
