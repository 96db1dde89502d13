"""The in-process runner (the embedded default's jobs) retries a job the database refused, as
Celery's autoretry does on the broker: a match's next game once waited a minute for the sweep
because its job met SQLite's lock once and was not run again (docs/architecture.md, "Retries")."""

import threading
import time

import pytest
from django.db import OperationalError

from games import jobs


class RefusedFirst:
    """A job the database refuses `refusals` times, then lets through."""

    def __init__(self, refusals: int):
        self.refusals, self.calls = refusals, 0
        self.done = threading.Event()
        self.__name__ = "refused_first"

    def __call__(self, game_id: int) -> str:
        self.calls += 1
        if self.calls <= self.refusals:
            raise OperationalError("database is locked")
        self.done.set()
        return "done"


@pytest.fixture
def quick_retries(monkeypatch):
    """Pauses of a few hundredths of a second instead of 1 s, 2 s, ...: the same rule, sooner."""
    monkeypatch.setattr(jobs, "RETRY_FIRST", 0.02)
    yield
    jobs.cancel_delayed()


def wait_for(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_job_the_database_refused_runs_again_until_it_passes(quick_retries, caplog):
    job = RefusedFirst(refusals=3)
    jobs._in_process_later(job, jobs.PLAY, (7,), 0)
    assert job.done.wait(10)
    assert job.calls == 4
    retried = [r for r in caplog.records if "tried again" in r.getMessage()]
    assert len(retried) == 3 and all("(7,)" in r.getMessage() for r in retried)


def test_a_job_refused_every_time_stops_after_the_last_retry(quick_retries, caplog):
    job = RefusedFirst(refusals=jobs.RETRIES + 5)
    jobs._in_process_later(job, jobs.PLAY, (8,), 0)
    wait_for(lambda: any("failed after" in r.getMessage() for r in caplog.records))
    time.sleep(0.3)  # no further try comes
    assert job.calls == jobs.RETRIES + 1
    assert not job.done.is_set()


def test_the_pause_grows_and_is_capped():
    for retries in range(12):
        longest = min(jobs.RETRY_LONGEST, jobs.RETRY_FIRST * 2**retries)
        pauses = [jobs.retry_pause(retries) for _ in range(50)]
        assert all(longest / 10 <= pause <= longest for pause in pauses)
    assert jobs.retry_pause(20) <= jobs.RETRY_LONGEST
