"""The bot levels' ladder: each level measured heads-up in the arena against the level below it,
the results chained into one Elo scale (the heuristic at 1500). The site starts each level's
public rating from it (games/ratings/rate.py), so the leaderboard orders the levels by measured
strength before any person has played them; games with people then move the ratings as usual.

    python -m ai.ladder docs/arena/ladder-easy-random-2p.json ... [--write]

Each file is an arena report of a heads-up run between two bots (tokens `level` or `level:N`);
the ladder is the chain they form. `--write` saves it to ai/ladder.json.
"""

import argparse
import json
import math
import os
import sys
from pathlib import Path

from .arena_levels import parse_token
from .levels import LEVELS

LADDER_FILE = Path(__file__).with_name("ladder.json")
ANCHOR_LEVEL, ANCHOR_ELO = "heuristic", 1500.0
# A win rate of 100% has no finite Elo difference: the measured rates are clamped to this band.
CLAMP = 0.01


def elo_difference(win_rate: float) -> float:
    """Elo points between two players when the first wins `win_rate` of their games."""
    rate = min(1.0 - CLAMP, max(CLAMP, win_rate))
    return 400.0 * math.log10(rate / (1.0 - rate))


def heads_up_result(report: dict) -> tuple[str, str, dict]:
    """(stronger level, weaker level, that pair's summary) of a heads-up arena report; the levels
    are the tokens' levels (a budget suffix names the measured budget, not another level)."""
    summary = report["summary"]
    if len(summary) != 2:
        raise ValueError("a ladder step is a heads-up run between two bots")
    (first, a), (second, b) = sorted(summary.items(), key=lambda kv: -kv[1]["win_rate"])
    return parse_token(first)[0], parse_token(second)[0], {"upper": first, "lower": second, **a}


def chain(steps: list[tuple[str, str, dict]]) -> dict:
    """{level: Elo} from steps (upper, lower, upper's summary), anchored at the heuristic."""
    elo = {ANCHOR_LEVEL: ANCHOR_ELO}
    pending = list(steps)
    while pending:
        progress = False
        for step in list(pending):
            upper, lower, row = step
            gap = elo_difference(row["win_rate"])
            if lower in elo and upper not in elo:
                elo[upper] = elo[lower] + gap
            elif upper in elo and lower not in elo:
                elo[lower] = elo[upper] - gap
            elif upper not in elo:
                continue
            pending.remove(step)
            progress = True
        if not progress:
            raise ValueError(f"these steps do not link to the {ANCHOR_LEVEL}: {pending}")
    return {level: round(elo[level]) for level in LEVELS if level in elo}


def starting_elo(level: str, elo: dict) -> float | None:
    """A level's ladder Elo; an unmeasured level takes the nearest measured level below it (each
    level is built to beat the one below: `expert` is `hard`'s search with a model of `hard` and
    two processes), so the order holds without claiming a strength nobody measured. None below
    every measured level."""
    if level not in LEVELS:
        return None
    for lower in reversed(LEVELS[: LEVELS.index(level) + 1]):
        if lower in elo:
            return elo[lower]
    return None


def load() -> dict:
    """{level: Elo} of the shipped ladder ({} when there is none)."""
    if not LADDER_FILE.exists():
        return {}
    return json.loads(LADDER_FILE.read_text())["elo"]


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m ai.ladder", description=__doc__.split("\n")[0])
    parser.add_argument("reports", nargs="+", help="heads-up arena reports (JSON)")
    parser.add_argument("--write", action="store_true", help=f"save to {LADDER_FILE.name}")
    args = parser.parse_args(argv)
    steps, sources = [], []
    for path in args.reports:
        upper, lower, row = heads_up_result(json.loads(Path(path).read_text()))
        steps.append((upper, lower, row))
        sources.append({"file": os.path.relpath(path), **row})
    ladder = {"elo": chain(steps), "anchor": {ANCHOR_LEVEL: ANCHOR_ELO}, "steps": sources}
    for level, rating in ladder["elo"].items():
        print(f"{level:<10}{rating:>6}")
    if args.write:
        LADDER_FILE.write_text(json.dumps(ladder, indent=1) + "\n")
    return ladder


if __name__ == "__main__":
    main(sys.argv[1:])
