"""Renaissance speed on one core: `.venv/bin/python -m tests.bench.bench_renaissance` (~35 s).

For 3 and 6 players, uniformly random full games (fixed seeds) through the validating public
API (`acting_seats` + `legal_actions` + `apply_action`): games per second, actions per game,
microseconds per action (the random choice included). Then, on recorded random games replayed
from their start (each state fresh, as a game or a search produces it): the mean cost of one
`apply_action` (legality check included), of one `view_for(state, seat)` for one seat (the
state's first view, as a search's determinization asks it) and per seat when every seat views
the state (as the site's frames do), and their ratios to an action; the same games replayed
through `apply_trusted` (the check's share of an action), and one `determinize(view)`. Then one
line comparing Condottiere's public API called directly and through games.rules_api (the
adapter's cost). Times are CPU seconds of this process (`time.process_time`), each measure
bounded to twice its budget of wall time, so that other loads on a shared machine neither
distort nor stretch it.
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


def _recorded_game(players, seed):
    """The (seat, action) pairs of one uniformly random game (seeded)."""
    rng = random.Random(seed)
    state = renaissance.new_game(players, seed=seed)
    moves = []
    while not renaissance.is_terminal(state):
        seat = rng.choice(sorted(renaissance.acting_seats(state)))
        action = rng.choice(renaissance.legal_actions(state, seat))
        moves.append((seat, action))
        state = renaissance.apply_action(state, seat, action)
    return moves


def _replay_trusted(players, seed, moves):
    """CPU seconds to replay `moves` through apply_trusted (no legality check)."""
    state = renaissance.new_game(players, seed=seed)
    apply_trusted = renaissance.apply_trusted
    start = time.process_time()
    for seat, action in moves:
        state = apply_trusted(state, seat, action)
    return time.process_time() - start


def _determinize_cpu(players, seed, moves, rng):
    """CPU seconds of determinize(view) for the view of each state's next seat, and views."""
    state = renaissance.new_game(players, seed=seed)
    views = []
    for step, (seat, action) in enumerate(moves):
        if not renaissance.is_terminal(state) and state.turn >= 1:
            views.append(renaissance.view_for(state, step % players))
        state = renaissance.apply_action(state, seat, action)
    start = time.process_time()
    for view in views:
        renaissance.determinize(view, rng)
    return time.process_time() - start, len(views)


def _search_costs(players, seconds=SECONDS_PER_MEASURE / 2):
    """Mean microseconds of apply_action and apply_trusted on the same fresh games, and of one
    determinize (the search's call per iteration)."""
    cpu = {"checked": 0.0, "trusted": 0.0, "determinize": 0.0}
    count = {"checked": 0, "trusted": 0, "determinize": 0}
    seed, rng = 5000, random.Random(7)
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while seed < 5002 or (
        time.process_time() - cpu_start < seconds and time.perf_counter() - wall_start < 2 * seconds
    ):
        moves = _recorded_game(players, seed)
        cpu["checked"] += _replay(players, seed, moves, _no_view)
        cpu["trusted"] += _replay_trusted(players, seed, moves)
        count["checked"] += len(moves)
        count["trusted"] += len(moves)
        spent, views = _determinize_cpu(players, seed, moves, rng)
        cpu["determinize"] += spent
        count["determinize"] += views
        seed += 1
    return {key: 1e6 * cpu[key] / count[key] for key in cpu}


def _replay(players, seed, moves, viewers):
    """CPU seconds to replay `moves` from the start, viewing each fresh state for the seats
    `viewers(state, step)` gives (none: the actions alone)."""
    state = renaissance.new_game(players, seed=seed)
    apply_action, view_for = renaissance.apply_action, renaissance.view_for
    start = time.process_time()
    for step, (seat, action) in enumerate(moves):
        for viewer in viewers(state, step):
            view_for(state, viewer)
        state = apply_action(state, seat, action)
    return time.process_time() - start


def _no_view(state, step):
    return ()


def _one_view(state, step):
    return (step % state.n,)


def _every_view(state, step):
    return range(state.n)


def _view_costs(players, seconds=SECONDS_PER_MEASURE):
    """Mean microseconds of one action, of one seat's first view of a state, and of a view per
    seat when every seat views it. Each replay is of a game of its own (the engine keeps a few
    lists by value, such as a seat's exchange offers: a game replayed twice would find them),
    the three kinds taking turns so that a change of load hits all three alike."""
    kinds = (_no_view, _one_view, _every_view)
    cpu = dict.fromkeys(kinds, 0.0)
    steps = dict.fromkeys(kinds, 0)
    seed = 1000
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while seed < 1000 + 2 * len(kinds) or (
        time.process_time() - cpu_start < seconds and time.perf_counter() - wall_start < 2 * seconds
    ):
        for viewers in kinds:
            moves = _recorded_game(players, seed)
            cpu[viewers] += _replay(players, seed, moves, viewers)
            steps[viewers] += len(moves)
            seed += 1
    action = 1e6 * cpu[_no_view] / steps[_no_view]
    one = 1e6 * cpu[_one_view] / steps[_one_view] - action
    every = (1e6 * cpu[_every_view] / steps[_every_view] - action) / players
    return action, one, every


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
    print("Renaissance, replayed random games: us per apply_action and per view_for(state, seat)")
    print("players  apply_action  view(1 seat)  ratio  view(per seat, all seats)  ratio")
    for players in (3, 6):
        action, one, every = _view_costs(players)
        print(
            f"{players:7d}  {action:12.1f}  {one:12.1f}  {one / action:5.1f}"
            f"  {every:25.1f}  {every / action:5.1f}"
        )
    print("Renaissance, replayed random games: us per apply_action, apply_trusted, determinize")
    print("players  apply_action  apply_trusted  check's share  determinize")
    for players in (3, 6):
        costs = _search_costs(players)
        checked, trusted = costs["checked"], costs["trusted"]
        print(
            f"{players:7d}  {checked:12.1f}  {trusted:13.1f}  {1 - trusted / checked:13.0%}"
            f"  {costs['determinize']:11.1f}"
        )
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
