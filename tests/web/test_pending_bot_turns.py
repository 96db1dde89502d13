"""At most one pending bot-turn message per game (games/jobs/pending_bot_turns.py), on real Redis.

Each test sends its jobs to a broker queue of its own (nobody else's tasks reach it) and reads
the messages waiting there straight from Redis, as the broker holds them.
"""

import base64
import contextlib
import json
import tempfile
import threading
import time
import uuid

import pytest
import redis
from django.conf import settings
from django.test import override_settings

from games import tasks
from games.engine import view_for
from games.jobs import pending_bot_turns
from games.models import Action, Game
from games.services import load_state, start_game
from games.services.followups import NextTurn, announce_next
from games.services.table_talk import submit_show
from tests.services import require_redis
from tests.web.test_celery_worker import start_worker, stop

DEADLINE_SECONDS = 60


@contextlib.contextmanager
def a_queue_nobody_reads():
    """Jobs of both kinds go to a fresh queue no worker reads; yields (Redis client, queue)."""
    client = redis.Redis.from_url(require_redis())
    queue = f"test-pending-{uuid.uuid4().hex[:12]}"
    try:
        with override_settings(JOB_QUEUES=dict.fromkeys(settings.JOB_QUEUES, queue)):
            yield client, queue
    finally:
        client.delete(queue)
        client.close()


def waiting_bot_turns(client: redis.Redis, queue: str) -> list[list]:
    """The args of every `games.bot_turn` message waiting in `queue` (kombu's JSON envelope)."""
    found = []
    for raw in client.lrange(queue, 0, -1):
        message = json.loads(raw)
        if message["headers"]["task"] == "games.bot_turn":
            args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
            found.append(args)
    return found


def bot_game(make_user, make_table) -> Game:
    """A bot (seat 0, which the table's seed has start) against a person (seat 1)."""
    game = make_table(2, people={1: make_user()}, bots={0: "random"})
    start_game(game.pk)
    game.refresh_from_db()
    return game


def show_a_card(game: Game, seat: int) -> None:
    game.refresh_from_db()
    card = view_for(load_state(game), seat)["hand"][0]
    submit_show(game.pk, seat, None, [card], game.version)


def test_the_newest_announcement_supersedes_the_waiting_one():
    require_redis()
    game_id = 10**9 + 7
    assert pending_bot_turns.announce(game_id, 3) is True  # nothing waits: send
    assert pending_bot_turns.announce(game_id, 4) is False  # the waiting one will play 4
    assert pending_bot_turns.announce(game_id, 2) is False
    assert pending_bot_turns.take(game_id) == 4  # the job starts: the newest is 4
    assert pending_bot_turns.announce(game_id, 5) is True  # nothing waits any more
    assert pending_bot_turns.announce(game_id, 5, force=True) is True  # the sweep: lost
    assert pending_bot_turns.take(game_id) == 5
    assert pending_bot_turns.take(game_id) is None  # a duplicate: nothing waited for it
    # With nothing waiting, a version recorded before counts for nothing (ids of a database
    # made afresh start again: an old game's version must not stand for a new game's).
    assert pending_bot_turns.announce(game_id, 50) is True
    assert pending_bot_turns.take(game_id) == 50
    assert pending_bot_turns.announce(game_id, 3) is True
    assert pending_bot_turns.take(game_id) == 3


def test_the_embedded_marks_behave_the_same(settings):
    settings.REDIS_URL = ""
    marks = pending_bot_turns.marks()
    assert isinstance(marks, pending_bot_turns.MemoryMarks)
    marks.forget_all()
    assert (marks.announce(7, 3, False), marks.announce(7, 4, False)) == (True, False)
    assert marks.take(7) == 4 and marks.take(7) is None
    assert (marks.announce(7, 1, False), marks.take(7)) == (True, 1)


def test_announcements_sent_together_queue_one_message(make_user, make_table):
    """Twenty processes announcing the same game's bot turn at once (sockets waking a stalled
    game, the sweep): one message waits in the queue, however they interleave."""
    with a_queue_nobody_reads() as (client, queue):
        pending_bot_turns.forget_all()
        barrier = threading.Barrier(20)

        def announce(version: int) -> None:
            barrier.wait()
            announce_next(4242, version, NextTurn("random"))

        threads = [threading.Thread(target=announce, args=(v % 3,)) for v in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        [waiting] = waiting_bot_turns(client, queue)
        assert waiting[0] == 4242 and waiting[1] in (0, 1, 2)
        assert pending_bot_turns.take(4242) == 2  # the job plays the newest announced


@pytest.mark.django_db(transaction=True)
def test_a_show_flood_in_a_bot_game_queues_one_bot_turn(make_user, make_table):
    with a_queue_nobody_reads() as (client, queue):
        game = bot_game(make_user, make_table)
        for _ in range(30):
            show_a_card(game, 1)
        assert [args[:2] for args in waiting_bot_turns(client, queue)] == [[game.pk, 0]]


@pytest.mark.django_db(transaction=True)
def test_the_one_waiting_message_plays_the_bots_turn_once(make_user, make_table):
    """The bot's turn is announced again and again while its message waits; then a real worker
    runs: the bot moves once, and nothing is left in the queue."""
    with a_queue_nobody_reads() as (client, queue):
        game = bot_game(make_user, make_table)
        for _ in range(10):
            announce_next(game.pk, 0, NextTurn("random"))
        assert len(waiting_bot_turns(client, queue)) == 1
        with tempfile.TemporaryFile() as log_file:
            worker = start_worker(queue, log_file)
            try:
                wait_for_a_move(game, worker)
                time.sleep(1)  # a duplicate, had one been sent, would run meanwhile
            finally:
                stop(worker)
        assert client.llen(queue) == 0
    moves = list(Action.objects.filter(game=game).values_list("seq", "seat", "actor"))
    assert moves[:1] == [(1, 0, Action.Actor.BOT)]


def wait_for_a_move(game: Game, worker) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not Action.objects.filter(game=game).exists():
        assert worker.poll() is None, "the worker died"
        assert time.monotonic() < deadline, "the bot never moved"
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_a_job_superseded_while_it_waited_plays_the_newest_version(
    make_user, make_table, announced
):
    """The message of version 0 still waits when version 1 is announced (no second message):
    when it runs, it plays the bot's turn at version 1."""
    require_redis()
    game = bot_game(make_user, make_table)
    [(name, args, _delay)] = announced
    assert (name, args[:2]) == ("bot_turn", (game.pk, 0))
    show_a_card(game, 1)  # version 1, the bot's decision unchanged
    assert pending_bot_turns.announce(game.pk, 1) is False  # its message still waits
    assert tasks.bot_turn(*args) in ("moved", "announced")
    game.refresh_from_db()
    # The turn at version 1 was played (the job may go on with the bot's next turns: no pause
    # is shown in the tests, games/jobs/bot_chain.py).
    assert game.version >= 2
    assert Action.objects.get(game=game, seq=2).actor == Action.Actor.BOT
