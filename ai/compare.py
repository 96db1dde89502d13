"""Two arena reports compared game by game on the deals they share.

    python -m ai.compare docs/arena/new.json new-token docs/arena/old.json old-token

A tuning run is usually played on the first deals of an earlier run (same players and seed), so
the two bots under test met the same cards from the same seats. Comparing their results deal by
deal removes most of the luck that two separate win rates carry: a game both won or both lost
says nothing about which bot is better, and only the games whose result differs count. Of those,
the exact two-sided sign test says how surprising the split would be if the two bots were equally
strong. docs/ai.md's "Tried and dropped" comparisons on the same deals are made this way.
"""

import argparse
import json
import math
import os
import sys

from .arena import stored_arg

# What must agree for two reports to have played the same deals: which game was dealt, the deal
# seeds (from the run's seed), and a deal's seating (from the number of players).
SAME_DEALS = ("game", "players", "seed")


def run_arg(report: dict, name: str):
    return stored_arg(report["args"], name)


def bot_labels(report: dict) -> dict:
    """The report's summary per bot: a Renaissance report's summary has one per bot and one per
    nation (ai/renaissance/arena.py), a Condottiere report's the bots' alone."""
    summary = report["summary"]
    return summary["bots"] if run_arg(report, "game") == "renaissance" else summary


def bot_shares(report: dict, token: str) -> dict:
    """{(deal, rotation): the victory share of the seats played by `token`} for each game."""
    labels = bot_labels(report)
    if token not in labels:
        labels = ", ".join(sorted(labels))
        raise ValueError(f"no bot {token!r} in this report; it has {labels}")
    return {
        (game["deal"], game["rotation"]): sum(
            share
            for label, share in zip(game["bots"], game["shares"], strict=True)
            if label == token
        )
        for game in report["games"]
    }


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided sign-test p-value of `better` against `worse` (ties left out)."""
    trials = better + worse
    if trials == 0:
        return 1.0
    tail = sum(math.comb(trials, k) for k in range(min(better, worse) + 1)) / 2**trials
    return min(1.0, 2 * tail)


def compare(first: dict, first_token: str, second: dict, second_token: str) -> dict:
    """The paired comparison of `first_token` in report `first` with `second_token` in `second`."""
    differing = [name for name in SAME_DEALS if run_arg(first, name) != run_arg(second, name)]
    if differing:
        found = ", ".join(
            f"{name} {run_arg(first, name)!r} and {run_arg(second, name)!r}" for name in differing
        )
        raise ValueError(f"the reports did not play the same deals ({found})")
    ours, theirs = bot_shares(first, first_token), bot_shares(second, second_token)
    common = sorted(set(ours) & set(theirs))
    better = sum(1 for key in common if ours[key] > theirs[key])
    worse = sum(1 for key in common if ours[key] < theirs[key])
    return {
        "games": len(common),
        "first_wins": sum(ours[key] for key in common),
        "second_wins": sum(theirs[key] for key in common),
        "first_better": better,
        "second_better": worse,
        "p_value": sign_test(better, worse),
    }


def describe(result: dict, first_token: str, second_token: str) -> str:
    return (
        f"{result['games']} games in common: {first_token} won {result['first_wins']:g}, "
        f"{second_token} won {result['second_wins']:g}; of the games whose result differs, "
        f"{result['first_better']} went to {first_token} and {result['second_better']} to "
        f"{second_token} (two-sided sign test p = {result['p_value']:.3f})"
    )


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="an arena report (JSON)")
    parser.add_argument("first_token", help="the bot of interest in it, as its summary names it")
    parser.add_argument("second", help="another report of the same players and seed")
    parser.add_argument("second_token", help="the bot to compare with in it")
    args = parser.parse_args(argv)
    reports = []
    for path in (args.first, args.second):
        with open(path) as handle:
            reports.append(json.load(handle))
    try:
        result = compare(reports[0], args.first_token, reports[1], args.second_token)
    except ValueError as error:
        raise SystemExit(f"compare: {error}") from None
    # The reports' names tell the two bots apart when both carry the same token.
    first = f"{args.first_token} ({os.path.basename(args.first)})"
    second = f"{args.second_token} ({os.path.basename(args.second)})"
    print(describe(result, first, second))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
