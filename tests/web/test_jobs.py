"""The one job port: a job announced by name runs on the runner the setting names, and only
there (the Celery runner with a real worker is test_celery_worker.py)."""

import multiprocessing
import threading
import time

import pytest
from django.db import OperationalError

from condottiere_site.celery import app
from games import jobs, tasks


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
    named = {"bot_turn", "bot_move", "turn_expiry", "rating", "autofill", "sweep"}
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
    assert sent == [
        ("games.turn_expiry", {"args": [3, 9], "countdown": 30}),
        ("games.rating", {"args": [3], "countdown": None}),
    ]


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
