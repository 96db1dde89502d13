"""The server's CPU per accepted move: `.venv/bin/python -m tests.bench.bench_moves` (about 20 s).

What one move costs the process that accepts it, on the production path and its real services
(PostgreSQL and Redis, as `make loadtest` starts them): `submit_action` (the game row locked and
read, the engine's move, the snapshot, the game row and the action written, then the hint to the
game's sockets and the next bot turn's job sent to the broker), and what a socket process then
does to send the new version (the table advanced from the move's change and the seat's frame
serialised). It plays four-player Condottiere games (one person's seat and three bots, as in the
load test's `fast`), each move one of the acting seat's legal actions, and prints CPU
milliseconds of this process (`time.process_time`) per move for each part, mean and median. The
PostgreSQL and Redis servers' own CPU is not in these figures (the load test prints it).

It needs PostgreSQL at 127.0.0.1:5432 (user postgres, trust) and Redis at 127.0.0.1: it
(re)creates the database `condottiere_bench` (`--db-name`) and uses Redis database 5 of
`--redis-port` (6379 by default).
"""

import argparse
import os
import random
import statistics
import sys
import time


def configure(redis_port: int, database: str) -> None:
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{database}"
    os.environ["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/5"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "condottiere_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + "x" * 50)
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1")
    os.environ["BOT_MOVE_DELAY"] = "0"  # as in the load test's `fast`: the bot moves in its job


def fresh_database(name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


class Timer:
    """CPU seconds spent inside a wrapped function, per call."""

    def __init__(self):
        self.calls: list[float] = []

    def wrap(self, function):
        def timed(*args, **kwargs):
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.calls.append(time.process_time() - started)

        return timed


def new_games(count: int, seed: int) -> list[int]:
    from django.contrib.auth import get_user_model

    from games.models import Game, Seat
    from games.services import start_game

    user = get_user_model().objects.create_user(username="bench")
    ids = []
    for index in range(count):
        game = Game.objects.create(players=4, created_by=user, seed=seed + index)
        Seat.objects.create(game=game, index=0, user=user)
        for seat in range(1, 4):
            Seat.objects.create(game=game, index=seat, bot_level="heuristic")
        start_game(game.pk)
        ids.append(game.pk)
    return ids


def play(game_ids: list[int], moves: int, rng: random.Random) -> dict[str, list[float]]:
    """Play `moves` moves round-robin over the games; CPU seconds of each part per move."""
    from games.models import Game
    from games.rules_api import ruleset_of
    from games.services import actions, followups
    from games.services.frames import read_table
    from games.tasks import bot_turn

    hint, job = Timer(), Timer()
    followups.notify_game = hint.wrap(followups.notify_game)
    followups.jobs.later = job.wrap(followups.jobs.later)
    submit, turns, frame = [], [], []
    tables = {game_id: read_table(game_id) for game_id in game_ids}
    changes = {}
    original_notify = followups.notify_game

    def keep_change(group, version, change=None, earlier=()):
        # (the change, whether the notice ends there): a bot chain's moves come in one notice,
        # and a socket process builds each version but sends only the newest
        for earlier_version, earlier_change in earlier:
            changes[earlier_version] = (earlier_change, False)
        changes[version] = (change, True)
        return original_notify(group, version, change, earlier=earlier)

    followups.notify_game = keep_change
    played = 0
    while played < moves:
        for game_id in list(game_ids):
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.PLAYING:
                game_ids.remove(game_id)
                continue
            rules = ruleset_of(game)
            state = rules.from_json(game.snapshot)
            (seat, *_) = sorted(rules.acting_seats(state))
            action = rng.choice(rules.legal_actions(state, seat))
            started = time.process_time()
            if seat == 0:
                actions.submit_action(game_id, seat, action, game.version)
                submit.append(time.process_time() - started)
            else:  # the worker's whole job, as the move before announced it
                bot_turn(game_id, game.version, time.time(), "heuristic", game.seed, game.snapshot)
                spent = time.process_time() - started
                made = max(1, len(changes))  # a job may play the next bots' turns too
                turns.extend([spent / made] * made)
            played += max(1, len(changes))
            for version in sorted(changes):  # a socket process builds every version
                started = time.process_time()
                change, sent = changes[version]  # None: the game ended (its sockets read it)
                table = change and tables[game_id].advanced(version, change)
                if table is not None:
                    if sent:
                        table.text_for(0)
                    tables[game_id] = table
                frame.append(time.process_time() - started)
            if not changes or table is None:
                tables[game_id] = read_table(game_id)
            changes.clear()
        if not game_ids:
            break
    return {
        "a person's move: submit_action (hints, job)": submit,
        "a bot's move: the turn job's function, all of it": turns,
        "  of which the hint to the sockets": hint.calls,
        "  of which the bot turn's job sent": job.calls,
        "a socket process: next table, one frame a notice": frame,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--redis-port", type=int, default=6379)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="condottiere_bench", help="database to (re)create")
    options = parser.parse_args()
    configure(options.redis_port, options.db_name)
    fresh_database(options.db_name)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    import redis

    redis.Redis(port=options.redis_port, db=5).flushdb()
    rng = random.Random(options.seed)
    ids = new_games(options.games, options.seed)
    parts = play(ids, options.moves, rng)
    moves = sum(len(parts[name]) for name in list(parts)[:2])
    print(f"{moves} moves in {options.games} four-player games; CPU ms of this process per move")
    print(f"{'part':45} {'mean':>7} {'median':>7} {'calls':>6}")
    for name, calls in parts.items():
        if calls:
            mean, median = statistics.fmean(calls), statistics.median(calls)
            print(f"{name:45} {1000 * mean:7.3f} {1000 * median:7.3f} {len(calls):6}")
    redis.Redis(port=options.redis_port, db=5).flushdb()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
