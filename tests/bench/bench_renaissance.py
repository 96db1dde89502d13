"""Renaissance speed on one core: `.venv/bin/python -m tests.bench.bench_renaissance` (~15 s).

For 3 and 6 players, uniformly random full games (fixed seeds) through the validating public
API (`acting_seats` + `legal_actions` + `apply_action`): games per second, actions per game,
microseconds per action (the random choice included). Then one line comparing Condottiere's
public API called directly and through games.rules_api (the adapter's cost). Times are CPU
seconds of this process (`time.process_time`), each measure bounded to twice its budget of
wall time, so that other loads on a shared machine neither distort nor stretch it.
"""

import random
import time

import games.engine as condottiere
import games.renaissance as renaissance
from games.rules_api import CONDOTTIERE

SECONDS_PER_MEASURE = 3.0
# The goal of issue 17: enough six-player games a second for tree search.
GOAL_SIX_PLAYER_GAMES = 100


def _measure(play_one_game, players, seconds=SECONDS_PER_MEASURE):
    rng = random.Random(12345)
    games = actions = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while (
        time.process_time() - cpu_start < seconds and time.perf_counter() - wall_start < 2 * seconds
    ):
        actions += play_one_game(players, games, rng)
        games += 1
    return games, actions, time.process_time() - cpu_start


def _renaissance_game(players, seed, rng):
    state = renaissance.new_game(players, seed=seed)
    actions = 0
    while not renaissance.is_terminal(state):
        seat = rng.choice(sorted(renaissance.acting_seats(state)))
        state = renaissance.apply_action(
            state, seat, rng.choice(renaissance.legal_actions(state, seat))
        )
        actions += 1
    return actions


def _condottiere_direct(players, seed, rng):
    state = condottiere.new_game(players, seed=seed, first=seed % players)
    actions = 0
    while not condottiere.is_terminal(state):
        state = condottiere.apply_action(state, rng.choice(condottiere.legal_actions(state)))
        actions += 1
    return actions


def _condottiere_through_rules_api(players, seed, rng):
    rules = CONDOTTIERE
    state = rules.new_game(players, seed=seed, options={"first": seed % players})
    actions = 0
    while not rules.is_terminal(state):
        (seat,) = rules.acting_seats(state)
        state = rules.apply_action(state, seat, rng.choice(rules.legal_actions(state, seat)))
        actions += 1
    return actions


def main():
    print("Renaissance, random games through the public API, one core (CPU time)")
    print("players  games/s  actions/game  us/action")
    for players in (3, 6):
        games, actions, cpu = _measure(_renaissance_game, players)
        print(
            f"{players:7d}  {games / cpu:7.0f}  {actions / games:12.0f}  {1e6 * cpu / actions:9.1f}"
        )
        if players == 6 and games / cpu < GOAL_SIX_PLAYER_GAMES:
            print(f"         (below the goal of {GOAL_SIX_PLAYER_GAMES} six-player games/s)")
    print("Condottiere, 4 players, public API: us/action direct vs through games.rules_api")
    direct = _measure(_condottiere_direct, 4, seconds=2.0)
    adapted = _measure(_condottiere_through_rules_api, 4, seconds=2.0)
    direct_us = 1e6 * direct[2] / direct[1]
    adapted_us = 1e6 * adapted[2] / adapted[1]
    print(
        f"         {direct_us:.2f} direct, {adapted_us:.2f} adapted ({adapted_us / direct_us:.2f}x)"
    )


if __name__ == "__main__":
    main()
