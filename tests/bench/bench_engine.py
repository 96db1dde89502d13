"""Engine speed on one core: `.venv/bin/python -m tests.bench.bench_engine` (about 20 s).

For 2, 4 and 6 players, uniformly random full games with a fixed seed: games per second and
actions per second through the fast API (legal_moves + apply_move), and microseconds per action
for the public dict API (legal_actions + apply_action) and the fast API.
"""

import random
import time

from games.engine import apply_action, is_terminal, legal_actions, new_game
from games.engine.fast import apply_move, legal_moves

SECONDS_PER_MEASURE = 3.0


def _fast_games(players, seconds):
    rng = random.Random(12345)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(players, seed=games, first=games % players)
        while state.current >= 0:
            state = apply_move(state, rng.choice(legal_moves(state)))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def _public_games(players, seconds):
    rng = random.Random(54321)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(players, seed=games, first=games % players)
        while not is_terminal(state):
            state = apply_action(state, rng.choice(legal_actions(state)))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def main():
    print("players  fast games/s  fast actions/s  fast us/action  public games/s  public us/action")
    for players in (2, 4, 6):
        games, actions, elapsed = _fast_games(players, SECONDS_PER_MEASURE)
        public_games, public_actions, public_elapsed = _public_games(players, SECONDS_PER_MEASURE)
        print(
            f"{players:7d}  {games / elapsed:12.0f}  {actions / elapsed:14.0f}"
            f"  {1e6 * elapsed / actions:14.2f}  {public_games / public_elapsed:14.0f}"
            f"  {1e6 * public_elapsed / public_actions:16.2f}"
        )


if __name__ == "__main__":
    main()
