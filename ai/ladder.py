"""The bot levels' ladders, one per game: each level measured in the arena against another
level, the results chained into one Elo scale (the heuristic at 1500). The site starts each
level's public rating in that game from it (games/ratings/rate.py), so the leaderboard orders the
levels by measured strength before any person has played them; games with people then move the
ratings as usual.

    python -m ai.ladder docs/arena/ladder-easy-random-2p.json ... [--write]
    python -m ai.ladder --game renaissance docs/arena/renaissance-easy-5heuristic-6p-41.json ...

Each file is an arena report of a run between two bots (tokens `level` or `level:N`). In
Condottiere a step is a heads-up run. In Renaissance (six players) a step is one bot of the
tested level against five of another: a win rate p among N players is read as the Elo gap that
gives p in a Luce choice among one player of the tested strength and N - 1 of the other,
400 log10((N - 1) p / (1 - p)), which is the heads-up formula for N = 2 and no gap at par, 1/N.
The ladder is the chain the steps form. `--write` saves it to the game's file (LADDER_FILES).
"""

import argparse
import functools
import json
import math
import os
import sys
from pathlib import Path

from .arena_levels import parse_token
from .levels import LEVELS

LADDER_FILES = {
    "condottiere": Path(__file__).with_name("ladder.json"),
    "renaissance": Path(__file__).parent / "renaissance" / "ladder.json",
}
ANCHOR_LEVEL, ANCHOR_ELO = "heuristic", 1500.0
# A win rate of 100% has no finite Elo difference: the measured rates are clamped to this band.
CLAMP = 0.01


def elo_difference(win_rate: float, players: int = 2) -> float:
    """Elo points between a player and each of its `players - 1` opponents (all of one
    strength) when it wins `win_rate` of their games."""
    rate = min(1.0 - CLAMP, max(CLAMP, win_rate))
    return 400.0 * math.log10((players - 1) * rate / (1.0 - rate))


def step_result(report: dict) -> tuple[str, str, dict]:
    """(tested level, the other level, the tested bot's summary) of an arena report: a heads-up
    run of Condottiere (the stronger is the one tested) or a Renaissance run of one bot against
    the others (its row carries `players`)."""
    if "bots" not in report["summary"]:
        return heads_up_result(report)
    bots = report["summary"]["bots"]
    if len(bots) != 2:
        raise ValueError("a ladder step is a run between two bot levels")
    (tested, row), (field, _) = sorted(bots.items(), key=lambda kv: kv[1]["games"])
    players = report["args"]["players"]
    summary = {"tested": tested, "field": field, "players": players, **row}
    return parse_token(tested)[0], parse_token(field)[0], summary


def heads_up_result(report: dict) -> tuple[str, str, dict]:
    """(stronger level, weaker level, that pair's summary) of a heads-up arena report; the levels
    are the tokens' levels (a budget suffix names the measured budget, not another level)."""
    summary = report["summary"]
    if len(summary) != 2:
        raise ValueError("a ladder step is a heads-up run between two bots")
    (first, a), (second, b) = sorted(summary.items(), key=lambda kv: -kv[1]["win_rate"])
    return parse_token(first)[0], parse_token(second)[0], {"upper": first, "lower": second, **a}


def chain(steps: list[tuple[str, str, dict]]) -> dict:
    """{level: Elo} from steps (tested level, other level, tested bot's summary: its win rate,
    and `players` when more than two played), anchored at the heuristic."""
    elo = {ANCHOR_LEVEL: ANCHOR_ELO}
    pending = list(steps)
    while pending:
        progress = False
        for step in list(pending):
            tested, other, row = step
            gap = elo_difference(row["win_rate"], row.get("players", 2))
            if other in elo and tested not in elo:
                elo[tested] = elo[other] + gap
            elif tested in elo and other not in elo:
                elo[other] = elo[tested] - gap
            elif tested not in elo:
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


def load(game: str = "condottiere") -> dict:
    """{level: Elo} of the game's shipped ladder ({} when there is none)."""
    return dict(_shipped(game))


@functools.cache
def _shipped(game: str) -> dict:
    # Read once per process: the leaderboard asks for every level's start on every request,
    # and the file changes only with a release.
    path = LADDER_FILES.get(game)
    if path is None or not path.exists():
        return {}
    return json.loads(path.read_text())["elo"]


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m ai.ladder", description=__doc__.split("\n")[0])
    parser.add_argument("reports", nargs="+", help="arena reports (JSON), one step each")
    parser.add_argument("--game", choices=sorted(LADDER_FILES), default="condottiere")
    parser.add_argument("--write", action="store_true", help="save to the game's ladder file")
    args = parser.parse_args(argv)
    steps, sources = [], []
    for path in args.reports:
        tested, other, row = step_result(json.loads(Path(path).read_text()))
        steps.append((tested, other, row))
        sources.append({"file": os.path.relpath(path), **row})
    ladder = {"elo": chain(steps), "anchor": {ANCHOR_LEVEL: ANCHOR_ELO}, "steps": sources}
    for level, rating in ladder["elo"].items():
        print(f"{level:<10}{rating:>6}")
    if args.write:
        LADDER_FILES[args.game].write_text(json.dumps(ladder, indent=1) + "\n")
    return ladder


if __name__ == "__main__":
    main(sys.argv[1:])
