"""The production path of the "next game" timer: a real Celery worker on the Redis broker runs
the job "match_next_game" (announced when a game of the match ends, then again, delayed, for the
timer) and opens the next game though the person never said "ready"."""

import time

import pytest

from games.matches import services
from games.matches.models import Match
from tests.matches.conftest import play_to_the_end
from tests.services import require_redis
from tests.web.test_celery_worker import worker_on_a_queue_of_its_own

DEADLINE_SECONDS = 30


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_starts_the_next_game_when_its_timer_runs_out(make_user, settings):
    require_redis()
    assert settings.JOB_RUNNER == "celery"
    alice = make_user()
    with worker_on_a_queue_of_its_own("test-match-timer") as (worker, _queue):
        match = services.create_match_against_bots(alice, 1, "random", target=100)
        Match.objects.filter(pk=match.pk).update(next_game_seconds=1)
        first = match.entries.get(number=1)
        play_to_the_end(first.game_id)  # the worker may play the bot's turns meanwhile
        deadline = time.monotonic() + DEADLINE_SECONDS
        while time.monotonic() < deadline and match.entries.count() < 2:
            assert worker.poll() is None, "the worker died"
            time.sleep(0.3)
    first.refresh_from_db()
    assert first.points is not None, "the worker never scored the finished game"
    second = match.entries.filter(number=2).first()
    assert second is not None, "the timer never started the next game"
    assert second.game.status in ("playing", "finished")
    match.refresh_from_db()
    assert match.ready == []  # nobody said ready: the timer did it
