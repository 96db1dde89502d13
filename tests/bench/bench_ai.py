"""Bot speed on this machine, one core (~30 s):

    .venv/bin/python -m tests.bench.bench_ai

Prints ISMCTS iterations per second in mid-game positions (2 and 4 players), the CPU time of a
1,000-iteration decision at each search level's own settings (depth, opponent model), the
decision time (p50/p95) of the `medium` and `hard` levels at their default budgets with the
iterations that budget buys, and what reading the table (the hand inference, docs/ai.md) adds to
a 1,000-iteration decision.
"""

import random
import statistics
import time

import ai
from ai.search.bot import SearchBot
from games.engine import apply_action, current_player, is_terminal, new_game, view_for

ITERATIONS = 1000


def midgame_views(players: int, count: int, seed: int = 0) -> list[dict]:
    """Battle decisions from the middle of heuristic games (after some regions are taken)."""
    views = []
    game = seed
    while len(views) < count:
        bots = [ai.make_bot("heuristic", seed=game * 10 + s) for s in range(players)]
        state = new_game(players, seed=game)
        step = 0
        while not is_terminal(state) and len(views) < count:
            seat = current_player(state)
            view = view_for(state, seat)
            owned = len(view["owners"])
            if view["phase"] == "battle" and owned >= 2 and step % 7 == 0:
                views.append(view)
            state = apply_action(state, bots[seat].choose(view))
            step += 1
        game += 1
    return views


def midgame_views_with_history(players: int, count: int, seed: int) -> list[tuple]:
    """(view, public history) of battle decisions in the middle of heuristic games."""
    found, game = [], seed
    while len(found) < count:
        bots = [ai.make_bot("heuristic", seed=game * 10 + s) for s in range(players)]
        state = new_game(players, seed=game)
        history = [view_for(state, None)]
        while not is_terminal(state) and len(found) < count:
            seat = current_player(state)
            view = view_for(state, seat)
            if view["phase"] == "battle" and len(view["owners"]) >= 2 and len(history) % 7 == 0:
                found.append((view, list(history)))
            state = apply_action(state, bots[seat].choose(view))
            history.append(view_for(state, None))
        game += 1
    return found


def inference_cost(players: int) -> tuple[float, float]:
    """Mean CPU seconds of a 1,000-iteration decision without and with the hand inference."""
    positions = midgame_views_with_history(players, 6, seed=60 + players)
    plain, reading = (
        mean_cpu_seconds(SearchBot(seed=1, iterations=ITERATIONS, inference=inference), positions)
        for inference in (False, True)
    )
    return plain, reading


def mean_cpu_seconds(bot, positions) -> float:
    """Mean CPU seconds of `bot.choose(*arguments)` over `positions`, each a tuple of arguments
    ((view,) or (view, history))."""
    started = time.process_time()
    for arguments in positions:
        bot.choose(*arguments)
    return (time.process_time() - started) / len(positions)


def iterations_per_second(players: int) -> tuple[float, float]:
    """(per wall-clock second, per CPU second): on a shared machine the two differ."""
    views = midgame_views(players, 4, seed=players)
    bot = SearchBot(seed=1, iterations=ITERATIONS)
    wall, cpu = time.perf_counter(), time.process_time()
    for view in views:
        bot.run(view, random.Random(0))
    done = len(views) * ITERATIONS
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu)


def level_cost(level: str, views: list[dict]) -> float:
    """Mean CPU seconds of a 1,000-iteration decision with the level's own search settings."""
    bot = ai.make_bot(level, seed=1, iterations=ITERATIONS)
    return mean_cpu_seconds(bot, [(view,) for view in views])


def decision_times(level: str, views: list[dict]) -> tuple[list[float], list[int]]:
    """Wall-clock seconds per decision at the level's default budget (what a player waits), and
    the iterations each decision ran."""
    bot = ai.make_bot(level, seed=1)
    times, iterations = [], []
    for view in views:
        started = time.perf_counter()
        bot.choose(view)
        times.append(time.perf_counter() - started)
        iterations.append(bot.last_iterations)
    return times, iterations


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    for players in (2, 4):
        wall, cpu = iterations_per_second(players)
        print(
            f"ISMCTS, {players} players, mid-game: {wall:,.0f} iterations/s wall-clock, "
            f"{cpu:,.0f} per CPU second ({ITERATIONS / cpu:.3f} CPU s per {ITERATIONS})"
        )
    views = midgame_views(4, 6, seed=40) + midgame_views(2, 6, seed=50)
    for level in ("medium", "hard"):
        print(
            f"{level:<7} settings: a {ITERATIONS}-iteration decision takes "
            f"{level_cost(level, views) * 1000:.0f} ms of CPU"
        )
    for level in ("medium", "hard"):
        times, iterations = decision_times(level, views)
        print(
            f"{level:<7} budget {ai.DEFAULT_BUDGETS[level]}: decision p50 "
            f"{statistics.median(times):.3f} s, p95 {percentile(times, 0.95):.3f} s, "
            f"p50 {statistics.median(iterations):,.0f} iterations over {len(times)} decisions"
        )
    for players in (2, 4):
        plain, reading = inference_cost(players)
        print(
            f"reading the table, {players} players: a {ITERATIONS}-iteration decision takes "
            f"{plain * 1000:.0f} ms of CPU uniform, {reading * 1000:.0f} ms with the inference"
        )


if __name__ == "__main__":
    main()
