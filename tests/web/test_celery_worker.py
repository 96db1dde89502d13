"""A real Celery worker (not eager mode) on the Redis broker plays a whole all-bot game.

The worker is a subprocess on the pytest-django test database, listening on a queue of its own
so that no other task on the same Redis reaches it and none of its tasks go elsewhere (jobs of
both kinds, play and background, are routed to that one queue).
"""

import contextlib
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import override_settings

from condottiere_site.celery import app
from games import jobs
from games.engine import Options, new_game, winners
from games.jobs import sweep
from games.models import Action, Game
from games.services import load_state, start_game
from tests.services import require_redis
from tests.web.conftest import replay_log

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_SECONDS = 120
WORKER = """
import json, os, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "condottiere_site.settings")
django.setup()
from django.conf import settings
from condottiere_site.celery import app
queue = sys.argv[1]
# The jobs this worker announces go where the test's own go: every kind to its one queue, or
# each kind to the queue the test named for it.
routes = json.loads(sys.argv[2]) if len(sys.argv) > 2 else dict.fromkeys(settings.JOB_QUEUES, queue)
app.conf.task_default_queue = routes["play"]
settings.JOB_QUEUES = routes
app.worker_main(["worker", "--pool=solo", "-Q", queue, "--loglevel=WARNING",
                 "--without-mingle", "--without-gossip", "--without-heartbeat"])
"""


def test_database_url() -> str:
    """A DATABASE_URL for the database this test runs on (the test database, not the real one)."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
        return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    if connection.vendor == "sqlite" and "memory" not in str(db["NAME"]):
        return f"sqlite:///{db['NAME']}"
    pytest.skip(f"a worker process cannot share this test database ({db['NAME']})")


test_database_url.__test__ = False  # a helper, not a test


def start_worker(
    queue: str, log_file, routes: dict | None = None, pause: float = 0.0
) -> subprocess.Popen:
    """A worker consuming `queue`; the jobs it announces go to `routes` ({kind: queue}), or
    all to `queue`; its bots pause `pause` seconds before each move (BOT_MOVE_DELAY)."""
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "BOT_MOVE_DELAY": str(pause),
        "BOT_THINK_SECONDS": "0.05",
    }
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, queue, *([json.dumps(routes)] if routes else [])],
        cwd=ROOT,
        env=env,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )


def stop(worker: subprocess.Popen) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=15)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait(timeout=15)


@contextlib.contextmanager
def worker_on_a_queue_of_its_own(prefix: str, pause: float = 0.0):
    """A real worker on a fresh queue, which this process's jobs are sent to meanwhile. Yields
    (the worker, the queue); prints the worker's log if the block fails."""
    queue = f"{prefix}-{uuid.uuid4().hex[:12]}"
    previous_queue = app.conf.task_default_queue
    with tempfile.TemporaryFile() as log_file:
        worker = start_worker(queue, log_file, pause=pause)
        try:
            app.conf.task_default_queue = queue
            with override_settings(JOB_QUEUES=dict.fromkeys(settings.JOB_QUEUES, queue)):
                yield worker, queue
        except BaseException:
            log_file.seek(0)
            sys.stderr.write(log_file.read().decode(errors="replace")[-5000:])
            raise
        finally:
            app.conf.task_default_queue = previous_queue
            stop(worker)


def wait_for_the_end(game: Game, worker: subprocess.Popen) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return
        assert worker.poll() is None, "the worker died"
        time.sleep(0.5)
    raise AssertionError(f"not finished after {DEADLINE_SECONDS} s: version {game.version}")


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_an_all_bot_game_to_the_end(make_table, settings):
    require_redis()
    assert settings.JOB_RUNNER == "celery"
    game = make_table(3, bots={0: "random", 1: "heuristic", 2: "random"}, seed=20)
    with worker_on_a_queue_of_its_own("test-bot-turns") as (worker, _queue):
        start_game(game.pk)  # after its commit, the first bot turn goes to the worker
        wait_for_the_end(game, worker)

    state = load_state(game)
    first = random.Random(game.seed).randrange(game.players)
    initial = new_game(game.players, seed=game.seed, options=Options(), first=first)
    assert replay_log(initial, game) == state
    assert game.result["winners"] == winners(state) != []
    actions = Action.objects.filter(game=game)
    assert list(actions.values_list("seq", flat=True)) == list(range(1, game.version + 1))
    assert set(actions.values_list("actor", flat=True)) == {"bot"}
    assert all(latency is not None for latency in actions.values_list("latency_ms", flat=True))


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_shows_each_bot_move_its_pause_after_the_bot_was_asked(make_table, settings):
    """Bots that do not search have their turn sent with the pause as its countdown (one job a
    move): through the broker, every move still comes the pause after its turn was announced,
    and not a second pause later (a pause counted again from the job's start)."""
    require_redis()
    settings.BOT_MOVE_DELAY = pause = 0.5
    game = make_table(2, bots={0: "heuristic", 1: "random"}, seed=21)
    with worker_on_a_queue_of_its_own("test-bot-pause", pause=pause) as (worker, _queue):
        start_game(game.pk)
        deadline = time.monotonic() + DEADLINE_SECONDS
        while Action.objects.filter(game=game).count() < 6 and time.monotonic() < deadline:
            assert worker.poll() is None, "the worker died"
            time.sleep(0.2)
    times = list(Action.objects.filter(game=game).order_by("seq").values_list("created_at"))
    # Each move announces the next bot's turn as it commits: the next move comes a pause later.
    gaps = [(later - earlier).total_seconds() for (earlier,), (later,) in itertools.pairwise(times)]
    assert len(gaps) >= 5
    assert all(pause <= gap < 2 * pause for gap in gaps), gaps


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_expires_a_turn_whose_timer_was_lost(make_user, make_table):
    """The turn timer is sent to a queue no worker reads (lost with the broker, in effect); the
    sweep, run by the worker, announces the expiry again and the absent person's turn expires."""
    redis_url = require_redis()
    assert settings.JOB_RUNNER == "celery"
    game = make_table(2, people={0: make_user(), 1: make_user()}, turn_seconds=1)
    lost_queue = f"test-lost-{uuid.uuid4().hex[:12]}"
    with worker_on_a_queue_of_its_own("test-sweep") as (worker, _queue):
        try:
            with override_settings(JOB_QUEUES=dict.fromkeys(settings.JOB_QUEUES, lost_queue)):
                start_game(game.pk)  # its turn timer goes where nobody listens
        finally:
            redis.Redis.from_url(redis_url).delete(lost_queue)
        time.sleep(1 + sweep.TIMER_GRACE.total_seconds() + 0.5)
        assert not Action.objects.filter(game=game).exists(), "the lost timer fired"
        jobs.later("sweep")  # what beat sends every JOB_SWEEP_SECONDS
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not Action.objects.filter(game=game).exists():
            assert worker.poll() is None, "the worker died"
            time.sleep(0.2)
    expired = Action.objects.filter(game=game).order_by("seq").first()
    assert expired is not None, "the overdue turn never expired"
    assert (expired.seq, expired.actor) == (1, "timer")


def test_make_run_starts_beat_as_a_process_of_its_own():
    """A worker killed (OOM, a crash) must not take the sweep down with it: the sweep is what
    finds the work that worker lost. `make run` starts `celery beat` apart from the workers, and
    a worker of each queue, so that an analysis never holds the process a bot's reply waits for."""
    recipe = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    ).stdout
    celery_lines = [line for line in recipe.splitlines() if "celery -A condottiere_site" in line]
    worker = [line for line in celery_lines if " worker" in line]
    beat = [line for line in celery_lines if " beat" in line and " worker" not in line]
    assert len(worker) == 2 and not any("--beat" in line or " -B" in line for line in worker)
    assert [line.split(" -Q ")[1].split()[0] for line in worker] == ["play", "background"]
    assert len(beat) == 1
