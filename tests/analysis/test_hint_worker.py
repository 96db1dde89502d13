"""A hint's search runs on a Celery worker of the background queue, never in the web process: on
the production path (Redis broker and cache, PostgreSQL, a real worker), a hint asked for while
no worker listens stays pending however long the page waits, and appears once a worker runs."""

import tempfile
import time

import pytest
from django.test import override_settings
from django.urls import reverse

from games.engine import view_for
from games.services import load_state
from tests.analysis.conftest import client_for
from tests.services import require_postgresql, require_redis
from tests.web.test_celery_worker import start_worker, stop

# Seconds the answer is asked for while no worker runs: far longer than a search of the tests'
# budget takes (it would have been done, had anything in this process searched).
UNSEARCHED_SECONDS = 3
DEADLINE_SECONDS = 60


def poll(client, url: str, seconds: float) -> int:
    """The status of the hint's answer once it is no longer pending, or 202 after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        status = client.get(url).status_code
        if status != 202 or time.monotonic() > deadline:
            return status
        time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_hint_is_searched_by_the_worker_not_by_the_web_process(
    make_user, make_table, start_stacked
):
    require_postgresql()
    require_redis()
    person = make_user()
    game = start_stacked(make_table(3, people={0: person}, bots={1: "heuristic", 2: "medium"}))
    client = client_for(person)
    queue = f"test-hints-{time.monotonic_ns()}"
    with override_settings(JOB_QUEUES={"play": queue, "background": queue}):
        asked = client.post(reverse("analysis_hint", args=[game.pk]))
        assert asked.status_code == 202
        url = asked.json()["url"]
        assert poll(client, url, UNSEARCHED_SECONDS) == 202  # nobody here searches it

        with tempfile.TemporaryFile() as log_file:
            worker = start_worker(queue, log_file)
            try:
                assert poll(client, url, DEADLINE_SECONDS) == 200, "no answer from the worker"
                assert worker.poll() is None, "the worker died"
            finally:
                stop(worker)

    answer = client.get(url).json()
    assert answer["version"] == game.version and answer["seat"] == 0
    assert answer["action"] in view_for(load_state(game), 0)["legal_actions"]
