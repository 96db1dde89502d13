"""The one job port: a job announced by name runs on the runner the setting names, and only
there (the Celery runner with a real worker is test_celery_worker.py)."""

import multiprocessing
import threading
import time
import uuid

import pytest
from django.db import OperationalError

from condottiere_site.celery import app
from games import jobs, tasks
from games.engine import current_player, legal_actions
from games.models import Action, Game
from games.services import load_state, start_game, submit_action
from tests.services import require_redis


@pytest.fixture
def in_process(settings):
    settings.JOB_RUNNER = "in_process"


@pytest.fixture
def recorded_job(monkeypatch):
    """A job named "record" that notes its arguments and the thread it ran on."""
    calls = []
    done = threading.Event()

    def record(*args):
        calls.append((args, threading.current_thread().name))
        done.set()

    monkeypatch.setitem(jobs._registry, "record", record)
    return calls, done


def test_every_named_job_is_a_celery_task_of_the_same_name():
    app.loader.import_default_modules()
    named = {
        "bot_turn",
        "bot_move",
        "turn_expiry",
        "rating",
        "autofill",
        "sweep",
        "relay",
        "match_next_game",
        "analysis",
        "hint",
        "password_reset_mail",
    }
    assert set(jobs.registered()) == named
    for name in jobs.registered():
        assert jobs.task_name(name) in app.tasks


def test_the_registry_holds_the_plain_functions_of_games_tasks():
    assert jobs._registry["rating"] is tasks.rating
    assert jobs._registry["sweep"] is tasks.sweep_due_work


def test_an_unknown_job_is_refused_and_nothing_runs(in_process):
    with pytest.raises(LookupError, match="no job is named 'nothing'"):
        jobs.later("nothing", 1)
    assert jobs.in_process_pending() == 0


def test_in_process_a_job_runs_on_a_pool_thread_never_on_celery(
    in_process, recorded_job, monkeypatch
):
    def no_celery(*args, **kwargs):
        raise AssertionError("the in-process runner must not use Celery")

    monkeypatch.setattr(jobs.current_app, "send_task", no_celery)
    calls, done = recorded_job
    jobs.later("record", 7, "x")
    assert done.wait(5)
    [(args, thread)] = calls
    assert args == (7, "x") and thread.startswith("job") and thread != "MainThread"


def test_in_process_a_delayed_job_waits_its_delay(in_process, recorded_job):
    calls, done = recorded_job
    started = time.monotonic()
    jobs.later("record", delay=0.3)
    assert not done.wait(0.15)
    assert done.wait(5)
    assert time.monotonic() - started >= 0.3


def test_a_delayed_job_cancelled_before_its_time_never_runs(in_process, recorded_job):
    calls, done = recorded_job
    jobs.later("record", delay=0.2)
    assert jobs.cancel_delayed() == 1
    assert not done.wait(0.5) and calls == []
    assert jobs.cancel_delayed() == 0


def test_with_celery_the_job_is_sent_by_name_with_its_countdown(settings, monkeypatch):
    settings.JOB_RUNNER = "celery"
    sent = []
    monkeypatch.setattr(
        jobs.current_app, "send_task", lambda name, **options: sent.append((name, options))
    )
    jobs.later("turn_expiry", 3, 9, delay=30)
    jobs.later("rating", 3)
    named = {"ignore_result": True, "kwargsrepr": "{}"}
    assert sent == [
        ("games.turn_expiry", {"args": [3, 9], "countdown": 30, "argsrepr": "[3, 9]", **named}),
        ("games.rating", {"args": [3], "countdown": None, "argsrepr": "[3]", **named}),
    ]


def test_a_job_s_message_names_its_arguments_briefly_and_carries_them_all(settings):
    """On the real broker: the headers name a bot turn by its game and version, not by a repr
    of its snapshot (which Celery would otherwise build and send on every move); the body holds
    every argument."""
    require_redis()
    queue = f"test-argsrepr-{uuid.uuid4().hex[:12]}"
    settings.JOB_RUNNER = jobs.CELERY
    settings.JOB_QUEUES = dict.fromkeys(settings.JOB_QUEUES, queue)
    snapshot = '{"deck": "' + "x" * 2000 + '"}'
    arguments = [41, 7, 1700000000.5, "heuristic", 99, snapshot, "condottiere", None]
    with app.connection_for_read() as connection:
        jobs.later("bot_turn", *arguments)
        inbox = connection.SimpleQueue(queue)
        try:
            message = inbox.get(timeout=5)
            message.ack()
        finally:
            inbox.queue.delete()
            inbox.close()
    assert message.headers["argsrepr"] == "[41, 7, ...]"
    assert message.headers["kwargsrepr"] == "{}"
    args, kwargs, _embed = message.decode()
    assert args == arguments and kwargs == {}


def test_wait_until_idle_waits_for_the_follow_up_jobs(in_process, monkeypatch):
    """A job that announces another (as a bot turn announces the next) is waited for too."""
    finished = []

    def first():
        time.sleep(0.1)
        jobs.later("second")

    monkeypatch.setitem(jobs._registry, "first", first)
    monkeypatch.setitem(jobs._registry, "second", lambda: finished.append(True))
    jobs.later("first")
    assert jobs.wait_until_idle(timeout=5)
    assert finished == [True]


def test_in_process_the_sweep_runs_on_a_timer(in_process, monkeypatch):
    swept = threading.Event()
    monkeypatch.setitem(jobs._registry, "sweep", swept.set)
    stop = jobs.start_periodic_sweep(every=0.05)
    try:
        assert swept.wait(5)
    finally:
        stop.set()


def test_with_celery_beat_sweeps_and_no_timer_starts(settings):
    settings.JOB_RUNNER = "celery"
    assert jobs.start_periodic_sweep(every=0.05) is None
    assert app.conf.beat_schedule["sweep-due-work"]["task"] == "games.sweep"


def test_a_sweep_interval_of_zero_starts_no_timer(in_process):
    assert jobs.start_periodic_sweep(every=0) is None


def _announce_and_wait_in_child(pipe) -> None:
    """Runs in a forked child: a job announced there must run there."""
    ran = threading.Event()
    jobs._registry["child"] = ran.set
    jobs.later("child")
    pipe.send(ran.wait(5))


def test_a_forked_process_runs_its_jobs_on_a_pool_of_its_own(in_process, recorded_job):
    """A test server or a Daphne forked after this process used its pool still runs jobs."""
    calls, done = recorded_job
    jobs.later("record")  # the parent's pool threads now exist
    assert done.wait(5)
    context = multiprocessing.get_context("fork")
    parent_end, child_end = context.Pipe()
    child = context.Process(target=_announce_and_wait_in_child, args=(child_end,))
    child.start()
    try:
        assert parent_end.poll(10) and parent_end.recv() is True
    finally:
        child.join(10)


def test_a_job_refused_by_the_database_is_retried_with_a_growing_pause():
    app.loader.import_default_modules()
    task = app.tasks[jobs.task_name("bot_turn")]
    assert OperationalError in task.autoretry_for and task.max_retries >= 5
    assert task.retry_backoff and task.retry_backoff_max <= 10
    assert task.acks_late


# --- Redelivery: the visibility timeout, long delays, jobs delivered twice --------------------


def test_a_job_taken_by_a_worker_that_died_is_delivered_again_within_a_minute():
    """Redis hands an unacknowledged job to another worker after the visibility timeout: an
    hour by default, far too long for a game waiting on a bot."""
    assert app.conf.broker_transport_options["visibility_timeout"] <= 60
    assert jobs.longest_countdown() <= app.conf.broker_transport_options["visibility_timeout"] / 2


def test_a_delay_longer_than_the_broker_may_hold_a_message_travels_in_hops(settings, monkeypatch):
    """A two-minute turn timer as one countdown would be held unacknowledged past the visibility
    timeout and delivered twice; it is sent as relays of at most half that timeout each, then as
    itself for what is left."""
    settings.JOB_RUNNER = "celery"
    sent = []
    monkeypatch.setattr(
        jobs.current_app, "send_task", lambda name, **options: sent.append((name, options))
    )
    hop = jobs.longest_countdown()
    clock = [1_000_000.0]
    monkeypatch.setattr(jobs.time, "time", lambda: clock[0])

    jobs.later("turn_expiry", 3, 9, delay=2 * hop + 5)
    assert sent == [
        (
            "games.relay",
            {
                "args": ["turn_expiry", [3, 9], clock[0] + 2 * hop + 5],
                "countdown": hop,
                "ignore_result": True,
                "argsrepr": "['turn_expiry', [3, 9], ...]",
                "kwargsrepr": "{}",
            },
        )
    ]
    while sent[-1][0] == "games.relay":  # each hop, as the worker runs it when due
        clock[0] += sent[-1][1]["countdown"]
        tasks.relay(*sent[-1][1]["args"])
    assert [name for name, _ in sent] == ["games.relay", "games.relay", "games.turn_expiry"]
    assert sent[-1] == (
        "games.turn_expiry",
        {
            "args": [3, 9],
            "countdown": 5,
            "ignore_result": True,
            "argsrepr": "[3, 9]",
            "kwargsrepr": "{}",
        },
    )
    assert all(options["countdown"] <= hop for _, options in sent)


def log_of(game) -> list[tuple]:
    return list(Action.objects.filter(game=game).order_by("seq").values_list("seq", "seat"))


@pytest.mark.django_db
def test_a_bot_turn_and_a_bot_move_delivered_again_change_nothing(
    make_table, announced, django_capture_on_commit_callbacks, settings
):
    settings.BOT_MOVE_DELAY = 5  # the bot's pause is a bot_move job of its own
    game = make_table(2, bots={0: "random", 1: "random"})
    with django_capture_on_commit_callbacks(execute=True):
        start_game(game.pk)
    [(name, turn_args, _)] = announced
    assert name == "bot_turn"
    assert tasks.bot_turn(*turn_args) == "announced"
    [(name, move_args, _)] = announced[1:]
    assert name == "bot_move"
    assert tasks.bot_move(*move_args) == "moved"
    moved = log_of(game)
    assert len(moved) == 1 and Game.objects.get(pk=game.pk).version == 1

    # The broker delivers both again (a worker died before acknowledging them).
    assert tasks.bot_move(*move_args) == "stale"
    # The turn came with its snapshot, so it chooses again, but its move is refused.
    assert tasks.bot_turn(*turn_args) == "announced"
    [(name, again, _)] = announced[2:]
    assert (name, again[:3]) == ("bot_move", move_args[:3])
    assert tasks.bot_move(*again) == "stale"
    assert log_of(game) == moved and Game.objects.get(pk=game.pk).version == 1


@pytest.mark.django_db
def test_a_turn_timer_delivered_after_the_person_moved_changes_nothing(timed_game, announced):
    state = load_state(timed_game)
    submit_action(timed_game.pk, current_player(state), legal_actions(state)[0], 0)
    moved = log_of(timed_game)
    game = Game.objects.get(pk=timed_game.pk)
    assert tasks.turn_expiry(timed_game.pk, 0) == "stale"
    assert log_of(timed_game) == moved
    assert Game.objects.get(pk=timed_game.pk).turn_deadline == game.turn_deadline


def test_each_job_goes_to_the_broker_queue_of_its_kind():
    """Celery's own router, as `send_task` consults it: play work and background work never share
    a queue, so a bot's reply never waits behind an analysis."""
    router = app.amqp.router
    queue = {
        name: router.route({}, jobs.task_name(name))["queue"].name for name in jobs.registered()
    }
    background = {"analysis", "hint", "password_reset_mail"}
    assert {name for name, kind in queue.items() if kind == "background"} == background
    play = ("bot_turn", "bot_move", "turn_expiry", "autofill", "sweep", "relay", "rating")
    assert {queue[name] for name in (*play, "match_next_game")} == {"play"}


def test_a_job_on_an_unknown_queue_is_refused():
    with pytest.raises(ValueError, match="no queue is named 'urgent'"):
        jobs.job("nothing", queue="urgent")


def test_a_hint_is_served_before_the_analysis_slices_queued_ahead_of_it(settings):
    """On the real broker, the next message a background worker receives is the hint announced
    last, not one of the analysis slices announced before it: a slice re-announces itself, and
    a line of them would otherwise keep a person's hint waiting for minutes. Read with kombu's
    own consumer, which takes a queue's messages in the order the worker does."""
    require_redis()
    queue = f"test-priority-{uuid.uuid4().hex[:12]}"
    settings.JOB_RUNNER = jobs.CELERY
    settings.JOB_QUEUES = dict.fromkeys(settings.JOB_QUEUES, queue)
    with app.connection_for_read() as connection:
        for analysis_id in range(1, 6):
            jobs.later("analysis", analysis_id)
        jobs.later("hint", "a-token")
        inbox = connection.SimpleQueue(queue)
        try:
            received = []
            for _ in range(6):
                message = inbox.get(timeout=5)
                received.append(message.headers["task"])
                # Nobody reads a job's result: the sender never waits on its result channel.
                assert message.headers["ignore_result"] is True
                message.ack()
        finally:
            inbox.queue.delete()
            inbox.close()
    assert received == [jobs.task_name("hint")] + [jobs.task_name("analysis")] * 5
