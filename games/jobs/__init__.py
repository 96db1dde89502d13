"""The one job port: work that follows a commit is announced here by name, and only here is it
decided who runs it. (Its room also holds the marks of waiting bot turns, `pending_bot_turns`,
and the sweep that announces lost work again, `sweep`.)

    jobs.later("bot_turn", game_id, version)
    jobs.later("turn_expiry", game_id, version, delay=seconds)

`settings.JOB_RUNNER` says which runner: "celery" sends the job by name to the Celery workers on
the broker (any number of machines); "in_process" runs it on a small thread pool in this process,
off the event loop (the embedded profile; never Celery's eager mode, which would run the job
inside the caller's transaction and hide the bugs of the real path).

The named jobs are registered by `games/tasks.py` with the `job` decorator, which also makes each
a Celery task and says which queue it goes to: "play" (the default: anything a live game waits
on) or "background" (heavy work nobody is playing against, such as a computer analysis). Each
queue has workers of its own (docs/operations.md), so play never waits behind background work;
in the embedded profile each has its own thread pool. Nothing here imports a job's code, so the
services can announce work without importing any runner or anything that imports them back.
Every job is idempotent: a job lost (with the broker, or a restart) is found again by the
periodic sweep (`games/jobs/sweep.py`), and a job run twice finds its work done.
"""

import logging
import os
import random
import reprlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait

from celery import current_app, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connections
from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)

CELERY = "celery"
IN_PROCESS = "in_process"
# Every job is a Celery task of this name prefix, e.g. "games.bot_turn".
TASK_PREFIX = "games."
# The two kinds of work, each on a queue of its own.
PLAY = "play"
BACKGROUND = "background"
QUEUES = (PLAY, BACKGROUND)
# Threads of each kind in this process, shared by every game (embedded profile only).
IN_PROCESS_WORKERS = {PLAY: 4, BACKGROUND: 2}
# Redis hands out a queue's messages by priority, 0 first (kombu's priority steps 0, 3, 6, 9). A
# job that yields is sent at the last step: an analysis slice, which announces the next slice
# itself, would otherwise put a whole line of slices between a person's hint and its search.
FIRST, LAST = 0, 9

# A job the database refused (its lock, a connection) is tried again after a growing pause, on
# both runners: 1 s, 2 s, 4 s, ... at most 10 s, each shortened at random (so that jobs refused
# together do not come back together); 8 tries after the first.
RETRY_ERRORS = (OperationalError, InterfaceError)
RETRY_FIRST, RETRY_LONGEST, RETRIES = 1, 10, 8

_registry: dict[str, Callable] = {}
_queue_of: dict[str, str] = {}
_yielding: set[str] = set()


def task_name(name: str) -> str:
    return TASK_PREFIX + name


def job(name: str, queue: str = PLAY, yields: bool = False) -> Callable[[Callable], Callable]:
    """Register `function` as the job `name`, for both runners, on the queue `queue` ("play" or
    "background"). A job that `yields` waits behind every other job of its queue on the broker
    (long runs of work, such as an analysis's slices). Returns the plain function.

    Late acknowledgement: a worker that dies mid-job leaves the message to be delivered again,
    which is safe because every job is idempotent. A database error retries the job with a
    growing pause (up to 1 s, 2 s, 4 s, ... at most 10 s; 8 tries)."""

    if queue not in QUEUES:
        raise ValueError(f"job {name!r}: no queue is named {queue!r} (one of {QUEUES})")

    def register(function: Callable) -> Callable:
        if name in _registry and _registry[name] is not function:
            raise ValueError(f"two jobs are named {name!r}")
        _registry[name] = function
        _queue_of[name] = queue
        if yields:
            _yielding.add(name)
        shared_task(
            name=task_name(name),
            acks_late=True,
            serializer="json",
            ignore_result=True,
            # The database refused (no connection free, a restart): the job is tried again,
            # not lost; it is idempotent, so a retry after a partial run changes nothing twice.
            autoretry_for=RETRY_ERRORS,
            retry_backoff=RETRY_FIRST,
            retry_backoff_max=RETRY_LONGEST,
            retry_jitter=True,
            max_retries=RETRIES,
        )(function)
        return function

    return register


def registered() -> tuple[str, ...]:
    return tuple(sorted(_registry))


def queue_of(name: str) -> str:
    """The kind of work the job `name` is: "play" or "background"."""
    return _queue_of.get(name, PLAY)


def route(name: str, args, kwargs, options, task=None, **extra) -> dict | None:
    """Celery's router (CELERY_TASK_ROUTES): a job's message goes to the broker queue of its
    kind, named in `settings.JOB_QUEUES`, at the last priority if the job yields; a task that is
    not a job is left to Celery."""
    job_name = name.removeprefix(TASK_PREFIX)
    if not name.startswith(TASK_PREFIX) or job_name not in _queue_of:
        return None
    priority = LAST if job_name in _yielding else FIRST
    return {"queue": settings.JOB_QUEUES[_queue_of[job_name]], "priority": priority}


def broker_lists(queue: str) -> list[str]:
    """The Redis lists holding the messages waiting in `queue`: kombu's Redis transport keeps
    each priority step in a list of its own, the queue's name for the first step, the name,
    kombu's separator and the step for the others (its `Channel._q_for_pri`)."""
    separator = kombu_redis.Channel.sep
    return [f"{queue}{separator}{step}" if step else queue for step in kombu_redis.PRIORITY_STEPS]


def runner() -> str:
    """The runner in force: read from the one setting, which the settings module validates."""
    return settings.JOB_RUNNER


def later(name: str, *args, delay: float = 0.0) -> None:
    """Have the job `name` run with `args` (JSON values) after `delay` seconds, on the runner."""
    if name not in _registry:
        raise LookupError(f"no job is named {name!r} (see games/tasks.py)")
    delay = max(0.0, delay)
    if runner() == CELERY:
        _send(name, list(args), delay)
    else:
        _in_process_later(_registry[name], queue_of(name), args, delay)


# --- The Celery runner -----------------------------------------------------------------------

# The job that carries a long delay in hops (registered in games/tasks.py with the others).
RELAY = "relay"


def longest_countdown() -> float:
    """The longest countdown handed to the broker in one message: half the visibility timeout.

    A worker holds a delayed message, unacknowledged, until its time; once held longer than the
    visibility timeout, Redis gives it to another worker as well (Celery's documented caveat),
    and the job would run twice or more. A turn timer of two minutes therefore travels in hops."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    return options.get("visibility_timeout", 3600) / 2


def _send(name: str, args: list, delay: float) -> None:
    # No job has a result anyone reads: without ignore_result, Celery subscribes this process to
    # each message's result channel on the backend as it sends (about a quarter of a send).
    # A job's arguments are named in its message by their first two (a game and a version, for
    # most): Celery would otherwise write a repr of them all (a bot turn's snapshot included)
    # into each message's headers, walking them on every send.
    hop = longest_countdown()
    if delay > hop:  # the first hop of a relay, which sends the job on when it is due
        name, args, delay = RELAY, [name, args, time.time() + delay], hop
    current_app.send_task(
        task_name(name),
        args=args,
        countdown=delay or None,
        ignore_result=True,
        argsrepr=short_repr(args),
        kwargsrepr="{}",
    )


def short_repr(args: list) -> str:
    """The first two of a job's arguments, for the logs and the broker's tools."""
    shown = ", ".join(reprlib.repr(value) for value in args[:2])
    return f"[{shown}{', ...' if len(args) > 2 else ''}]"


def relay(name: str, args: list, due_at: float) -> None:
    """The job "relay": one hop of a long delay is over; send the job on for the rest of it."""
    later(name, *args, delay=due_at - time.time())


# --- The in-process runner ------------------------------------------------------------------

_executors: dict[str, ThreadPoolExecutor] = {}
# Jobs handed to the pool and not finished yet (for wait_until_idle and the staff dashboard).
_running: set[Future] = set()
_running_lock = threading.Lock()


def _pool(queue: str) -> ThreadPoolExecutor:
    """The threads of one kind of work: an analysis never holds a thread a bot turn waits for."""
    with _running_lock:
        if queue not in _executors:
            _executors[queue] = ThreadPoolExecutor(
                max_workers=IN_PROCESS_WORKERS[queue], thread_name_prefix=f"job-{queue}"
            )
        return _executors[queue]


def _forget_the_pool_after_fork() -> None:
    """A forked child (a test server, a Daphne started by fork) has none of its parent's pool
    threads, yet the parent's executor would believe its threads exist and never start new ones:
    jobs would wait for ever. The child starts its own pool on first use."""
    global _executors, _running, _running_lock, _delayed
    _executors, _running, _running_lock, _delayed = {}, set(), threading.Lock(), set()


os.register_at_fork(after_in_child=_forget_the_pool_after_fork)


# Delayed jobs still waiting for their time (cancel_delayed empties it).
_delayed: set[threading.Timer] = set()


def _in_process_later(
    function: Callable, queue: str, args: tuple, delay: float, retries: int = 0
) -> None:
    if delay <= 0:
        _submit(function, queue, args, retries)
        return
    timer = threading.Timer(delay, lambda: _submit_delayed(function, queue, args, timer, retries))
    timer.daemon = True  # a pending timer must not keep the server from stopping
    with _running_lock:
        _delayed.add(timer)
    timer.start()


def _submit_delayed(
    function: Callable, queue: str, args: tuple, timer: threading.Timer, retries: int
) -> None:
    with _running_lock:
        _delayed.discard(timer)
    _submit(function, queue, args, retries)


def cancel_delayed() -> int:
    """Cancel the in-process jobs still waiting for their delay; returns how many. Tests call it
    before the test database is emptied: a turn timer due in a second would otherwise fire
    against the next test's data."""
    with _running_lock:
        timers = list(_delayed)
        _delayed.clear()
    for timer in timers:
        timer.cancel()
    return len(timers)


def _submit(function: Callable, queue: str, args: tuple, retries: int = 0) -> None:
    try:
        future = _pool(queue).submit(_run_in_thread, function, queue, args, retries)
    except RuntimeError:  # the pool shut down: the process is stopping
        # Every job is idempotent and its work is found again by the sweep once the site runs
        # again, as with a job lost with a restart on the broker.
        log.info("the process is stopping: job %s%s left to the sweep", function.__name__, args[:2])
        return
    with _running_lock:
        _running.add(future)
    future.add_done_callback(_forget)


def _forget(future: Future) -> None:
    with _running_lock:
        _running.discard(future)


def _run_in_thread(function: Callable, queue: str, args: tuple, retries: int = 0):
    """Run a job on a pool thread with its own database connection, closed afterwards. A job the
    database refused is announced again after a pause, as Celery's autoretry does on the broker
    (the job is idempotent); the pause waits on a timer, not on a pool thread."""
    close_old_connections()
    try:
        return function(*args)
    except RETRY_ERRORS as error:
        if retries >= RETRIES:
            log.exception("job %s%s failed after %d retries", function.__name__, args, retries)
            raise
        pause = retry_pause(retries)
        log.warning(
            "job %s%s: the database refused (%s); tried again in %.1f s",
            function.__name__,
            args[:2],
            error,
            pause,
        )
        _in_process_later(function, queue, args, pause, retries + 1)
        return None
    except Exception:
        log.exception("job %s%s failed", function.__name__, args)
        raise
    finally:
        connections.close_all()


def retry_pause(retries: int) -> float:
    """The pause before retry number `retries` + 1: Celery's exponential backoff, capped, with
    full jitter kept above a tenth of it so that a retry never comes back at once."""
    longest = min(RETRY_LONGEST, RETRY_FIRST * 2**retries)
    return random.uniform(longest / 10, longest)


def in_process_pending() -> int:
    """Jobs handed to the in-process pool that have not finished (queued or running)."""
    with _running_lock:
        return len(_running)


def wait_until_idle(timeout: float = 30.0) -> bool:
    """Wait until no job handed to the in-process pool is queued or running; True if so.

    Follow-up jobs (the next bot turn, a rating update) keep being added while a game plays, so
    this waits in rounds. Tests call it before the test database is emptied, which must not
    race a job that still writes. Jobs still waiting for their delay are not counted.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with _running_lock:
            pending = list(_running)
        if not pending:
            return True
        wait(pending, timeout=max(0.0, deadline - time.monotonic()))
    return False


# --- The sweep on a timer (embedded profile) -------------------------------------------------


def start_periodic_sweep(every: float | None = None) -> threading.Event | None:
    """In the in-process profile, announce the "sweep" job every `every` seconds (default
    `settings.JOB_SWEEP_SECONDS`) from a daemon thread; with Celery, beat does it (see
    CELERY_BEAT_SCHEDULE). Returns the event that stops the thread, or None if none started."""
    every = settings.JOB_SWEEP_SECONDS if every is None else every
    if runner() != IN_PROCESS or not every:
        return None
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(every):
            try:
                later("sweep")
            except Exception:  # the next tick tries again
                log.exception("could not start the sweep")

    threading.Thread(target=loop, name="job-sweep", daemon=True).start()
    return stop
