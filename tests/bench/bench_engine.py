"""Engine speed on one core: `.venv/bin/python -m tests.bench.bench_engine` (about 20 s).

For 2, 4 and 6 players, uniformly random full games with a fixed seed: games per second and
actions per second through the fast API (legal_moves + apply_move), and microseconds per action
(the random choice included) for the fast API and for the public dict API (legal_actions +
apply_action). Times are CPU seconds of this process (`time.process_time`), so that other loads
on a shared machine do not distort them; each measure also stops after twice its budget of wall
time.
"""

import random
import time

from games.engine import apply_action, is_terminal, legal_actions, new_game
from games.engine.fast import apply_move, legal_moves

SECONDS_PER_MEASURE = 3.0


def _run(players, seconds, play_one_game):
    rng = random.Random(12345)
    games = actions = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while (
        time.process_time() - cpu_start < seconds and time.perf_counter() - wall_start < 2 * seconds
    ):
        actions += play_one_game(new_game(players, seed=games, first=games % players), rng)
        games += 1
    return games, actions, time.process_time() - cpu_start


def _fast_game(state, rng):
    actions = 0
    while state.current >= 0:
        state = apply_move(state, rng.choice(legal_moves(state)))
        actions += 1
    return actions


def _public_game(state, rng):
    actions = 0
    while not is_terminal(state):
        state = apply_action(state, rng.choice(legal_actions(state)))
        actions += 1
    return actions


def main():
    print("players  fast games/s  fast actions/s  fast us/action  public games/s  public us/action")
    for players in (2, 4, 6):
        games, actions, cpu = _run(players, SECONDS_PER_MEASURE, _fast_game)
        public_games, public_actions, public_cpu = _run(players, SECONDS_PER_MEASURE, _public_game)
        print(
            f"{players:7d}  {games / cpu:12.0f}  {actions / cpu:14.0f}"
            f"  {1e6 * cpu / actions:14.2f}  {public_games / public_cpu:14.0f}"
            f"  {1e6 * public_cpu / public_actions:16.2f}"
        )


if __name__ == "__main__":
    main()
