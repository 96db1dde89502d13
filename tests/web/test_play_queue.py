"""Play never waits behind anything: real Celery workers on the two queues (games/jobs/__init__.py).

The background queue is stuffed with long analysis slices (a few seconds of search each), and
in another game a person floods `show` while a bot is to act; a victim playing a bot game still
gets each of the bot's replies within a generous bound, and the play queue never holds more than
one bot turn of any game. The workers are subprocesses on the test database, each on a queue of
its own named for this test (nobody else's tasks reach them): one takes play work only, the other
background work only, as `make run` and production run them.
"""

import base64
import contextlib
import json
import tempfile
import threading
import time
import uuid
from collections import Counter

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import override_settings

from ai.analysis import SEARCH_VERSION
from condottiere_site.celery import app
from games import jobs
from games.analysis.models import Analysis
from games.analysis.runner import JOB as ANALYSIS_JOB
from games.engine import current_player, legal_actions, view_for
from games.models import Game
from games.services import StaleVersion, load_state, start_game, submit_action
from games.services.table_talk import submit_show
from tests.services import require_redis
from tests.web.test_celery_worker import start_worker, stop
from tests.web.test_replay import play_out

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Analyses of this many finished games, each announced this many times: that many slices of
# ANALYSIS_SLICE_SECONDS (2 s) wait in the background queue, and each announces the next.
ANALYSED_GAMES, SLICES_EACH = 8, 2
# A bot's reply, with a worker free for play: well under a second. Behind the slices above it
# would wait half a minute or more.
REPLY_BOUND_SECONDS = 15.0
VICTIM_MOVES = 3


@contextlib.contextmanager
def two_workers():
    """A play worker and a background worker, on this test's own two queues; yields them."""
    routes = {kind: f"test-{kind}-{uuid.uuid4().hex[:10]}" for kind in jobs.QUEUES}
    previous = app.conf.task_default_queue
    with tempfile.TemporaryFile() as play_log, tempfile.TemporaryFile() as background_log:
        workers = {
            jobs.PLAY: start_worker(routes[jobs.PLAY], play_log, routes),
            jobs.BACKGROUND: start_worker(routes[jobs.BACKGROUND], background_log, routes),
        }
        client = redis.Redis.from_url(require_redis())
        try:
            app.conf.task_default_queue = routes[jobs.PLAY]
            with override_settings(JOB_QUEUES=routes):
                yield workers, routes, client
        except BaseException:
            for log in (play_log, background_log):
                log.seek(0)
                print(log.read().decode(errors="replace")[-4000:])
            raise
        finally:
            app.conf.task_default_queue = previous
            for worker in workers.values():
                stop(worker)
            # Every priority step's list: the analysis slices wait at the last.
            client.delete(*(name for queue in routes.values() for name in jobs.broker_lists(queue)))
            client.close()


def stuff_the_background_queue(games: list[Game], user) -> None:
    for game in games:
        analysis = Analysis.objects.create(
            game=game, requested_by=user, iterations=1000, search_version=SEARCH_VERSION
        )
        for _ in range(SLICES_EACH):
            jobs.later(ANALYSIS_JOB, analysis.pk)


def bot_turns_waiting(client: redis.Redis, queue: str) -> Counter:
    """Messages of `games.bot_turn` waiting in `queue`, per game."""
    waiting = Counter()
    for raw in client.lrange(queue, 0, -1):
        message = json.loads(raw)
        if message["headers"]["task"] == "games.bot_turn":
            args = json.loads(base64.b64decode(message["body"]))[0]
            waiting[args[0]] += 1
    return waiting


class QueueWatch(threading.Thread):
    """Samples the play queue until stopped: the most bot turns of one game seen waiting."""

    def __init__(self, client: redis.Redis, queue: str):
        super().__init__(daemon=True)
        self.client, self.queue = client, queue
        self.most, self.samples = 0, 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            waiting = bot_turns_waiting(self.client, self.queue)
            self.most = max([self.most, *waiting.values()])
            self.samples += 1


def flood_shows(game_id: int, seat: int, until: threading.Event, counts: Counter) -> None:
    """A person showing a card again and again, as fast as the server takes it."""
    try:
        while not until.is_set():
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.PLAYING:
                return
            card = view_for(load_state(game), seat)["hand"][0]
            try:
                submit_show(game_id, seat, None, [card], game.version)
                counts["shows"] += 1
            except StaleVersion:
                counts["stale"] += 1
    finally:
        connection.close()  # this thread's own


def wait_for_the_bot(game: Game, seat: int, workers: dict) -> float:
    """Seconds until the game waits for `seat` again (or is over): the bot's reply, which must
    come within REPLY_BOUND_SECONDS."""
    started = time.monotonic()
    while time.monotonic() - started < REPLY_BOUND_SECONDS:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING or current_player(load_state(game)) == seat:
            return time.monotonic() - started
        assert all(worker.poll() is None for worker in workers.values()), "a worker died"
        time.sleep(0.05)
    raise AssertionError(f"the bot did not reply within {REPLY_BOUND_SECONDS} s")


def test_a_bots_reply_waits_behind_no_analysis_and_no_other_games_shows(make_user, make_table):
    require_redis()
    assert settings.JOB_RUNNER == "celery"
    attacker, victim = make_user(), make_user()
    with override_settings(JOB_QUEUES=dict.fromkeys(jobs.QUEUES, "test-setup-nobody")):
        analysed = [
            play_out(make_table(2, people={0: attacker, 1: make_user()}, seed=s), s)
            for s in range(ANALYSED_GAMES)
        ]
    redis.Redis.from_url(require_redis()).delete("test-setup-nobody")
    with two_workers() as (workers, routes, client):
        stuff_the_background_queue(analysed, attacker)
        # The attacker's bot game: the bot (seat 0, which the table's seed has start) is to act.
        flooded = make_table(2, people={1: attacker}, bots={0: "random"})
        # The victim's: the bot starts too, and answers each of the victim's moves.
        game = make_table(2, people={1: victim}, bots={0: "random"})
        watch = QueueWatch(client, routes[jobs.PLAY])
        watch.start()
        stop_flood, counts = threading.Event(), Counter()
        start_game(flooded.pk)
        flood = threading.Thread(target=flood_shows, args=(flooded.pk, 1, stop_flood, counts))
        flood.start()
        try:
            start_game(game.pk)
            replies = [wait_for_the_bot(game, 1, workers)]
            for _ in range(VICTIM_MOVES):
                if game.status != Game.Status.PLAYING:
                    break
                state = load_state(game)
                submit_action(game.pk, 1, legal_actions(state)[0], game.version)
                replies.append(wait_for_the_bot(game, 1, workers))
        finally:
            stop_flood.set()
            flood.join(30)
            watch.done.set()
            watch.join(10)
        # The slices wait in the list of the last priority step, not the queue's own name.
        background_waiting = sum(
            client.llen(name) for name in jobs.broker_lists(routes[jobs.BACKGROUND])
        )
    print(
        f"bot replies {[round(r, 2) for r in replies]} s; {counts['shows']} shows in the other "
        f"game; analysis slices still waiting {background_waiting}; most bot turns of one game "
        f"waiting {watch.most} over {watch.samples} samples"
    )
    assert counts["shows"] > 20, counts  # the flood did flood
    assert background_waiting > 0  # the replies came while analyses still waited
    assert watch.samples > 10 and watch.most <= 1
