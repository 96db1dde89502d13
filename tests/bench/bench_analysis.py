"""The computer analysis's cost on this machine, one core (about a minute):

    .venv/bin/python -m tests.bench.bench_analysis

Plays a four-player game of heuristic bots, then searches each of its non-forced decisions
from the deciding seat's view at the job's default budget (games/analysis/limits.py), as the
job "analysis" does, and prints the seconds for the whole game and per decision.
"""

import sys
import time

import ai
from ai.analysis import analyse_view
from games.analysis.limits import DEFAULT_ITERATIONS, DEFAULT_MAX_DECISIONS, SEED
from games.engine import apply_action, current_player, is_terminal, new_game, view_for

PLAYERS = 4


def decision_views(players: int, seed: int) -> tuple[list[dict], int]:
    """The views of a heuristic game's decisions with two or more legal actions, and the
    number of actions in the game."""
    bots = [ai.make_bot("heuristic", seed=seed * 10 + seat) for seat in range(players)]
    state = new_game(players, seed=seed)
    views, actions = [], 0
    while not is_terminal(state):
        seat = current_player(state)
        view = view_for(state, seat)
        if len(view["legal_actions"]) >= 2:
            views.append(view)
        state = apply_action(state, bots[seat].choose(view))
        actions += 1
    return views[:DEFAULT_MAX_DECISIONS], actions


def main(seed: int = 1) -> None:
    views, actions = decision_views(PLAYERS, seed)
    began = time.perf_counter()
    for view in views:
        analyse_view(view, iterations=DEFAULT_ITERATIONS, seed=SEED)
    spent = time.perf_counter() - began
    print(f"analysis job, {PLAYERS}-player game (seed {seed}), {DEFAULT_ITERATIONS} iterations:")
    print(
        f"  {len(views)} decisions of {actions} actions: {spent:.1f} s per game, "
        f"{spent / max(1, len(views)) * 1000:.0f} ms per decision"
    )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
