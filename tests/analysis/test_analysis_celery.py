"""The production path: a real Celery worker (not eager mode) on the Redis broker runs the job
"analysis" of a small finished game, slice after slice, to the end."""

import time

import pytest

from games.analysis.models import Analysis
from games.analysis.service import request_analysis
from tests.analysis.conftest import TINY_BUDGET
from tests.services import require_redis
from tests.web.test_celery_worker import worker_on_a_queue_of_its_own

DEADLINE_SECONDS = 60


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_analyses_a_finished_game(finished_game, make_user, settings, monkeypatch):
    require_redis()
    assert settings.JOB_RUNNER == "celery"
    game = finished_game(2, seed=12)  # its own jobs (the rating) are recorded, not sent
    monkeypatch.undo()  # from here on jobs go to Celery: the analysis, on the worker's queue
    with worker_on_a_queue_of_its_own("test-analysis") as (worker, _queue):
        analysis, asked = request_analysis(game, make_user())  # announced after its commit
        assert asked
        deadline = time.monotonic() + DEADLINE_SECONDS
        while time.monotonic() < deadline:
            analysis.refresh_from_db()
            if analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
                break
            assert worker.poll() is None, "the worker died"
            time.sleep(0.3)
    assert analysis.status == Analysis.Status.DONE, analysis.error
    assert analysis.iterations == TINY_BUDGET
    assert analysis.progress == analysis.total == len(analysis.results["decisions"]) > 0
    assert analysis.cost_seconds > 0
