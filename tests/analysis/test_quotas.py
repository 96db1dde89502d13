"""What one account can queue: analyses waiting (queued or running) and asked for an hour, each
counted before the job is announced and atomically, so that requests sent together are let
through exactly up to the quota (PostgreSQL row lock, Redis counter); the rest get HTTP 429 with
a message, and nothing of theirs is stored or announced."""

import pytest
from django.urls import reverse

from games.analysis.models import Analysis
from games.models import Game
from tests.analysis.conftest import client_for
from tests.services import require_postgresql, require_redis
from tests.web.together import send_together

pytestmark = pytest.mark.django_db(transaction=True)

# Requests sent at once: each holds a pooled database connection (DATABASE_POOL_SIZE, 8 by
# default, shared with the test's own thread and whatever an earlier test of this process left
# lent), so few enough that a full pool never refuses one.
TOGETHER = 5


def finished_tables(make_table, count: int) -> list[Game]:
    """`count` games marked finished (a request checks only that; nothing here runs the job)."""
    games = [make_table(2) for _ in range(count)]
    Game.objects.filter(pk__in=[game.pk for game in games]).update(status=Game.Status.FINISHED)
    return games


def ask_together(user, games: list[Game]) -> list:
    """One analysis request per game, all sent at the same instant, each on its own connection."""
    clients = [client_for(user) for _ in games]  # logged in beforehand, one at a time
    return send_together(
        len(games),
        lambda position: clients[position].post(
            reverse("analysis_request", args=[games[position].pk]), HTTP_ACCEPT="application/json"
        ),
    )


def statuses(answers) -> list[int]:
    return sorted(answer.status_code for answer in answers)


def test_requests_sent_together_queue_exactly_the_waiting_quota(
    make_user, make_table, announced, settings
):
    require_postgresql()
    settings.ANALYSES_QUEUED_PER_ACCOUNT, settings.ANALYSES_PER_HOUR = 2, 0
    user = make_user()
    answers = ask_together(user, finished_tables(make_table, TOGETHER))

    assert statuses(answers) == [202] * 2 + [429] * (TOGETHER - 2)
    refused = [answer.json() for answer in answers if answer.status_code == 429]
    assert {body["error"] for body in refused} == {"too_many_waiting"}
    assert all("2 computer analyses waiting" in body["message"] for body in refused)
    assert Analysis.objects.filter(requested_by=user).count() == 2
    assert [name for name, _args, _delay in announced] == ["analysis"] * 2


def test_a_finished_analysis_gives_its_place_back(make_user, make_table, announced, settings):
    settings.ANALYSES_QUEUED_PER_ACCOUNT, settings.ANALYSES_PER_HOUR = 1, 0
    user = make_user()
    first, second = finished_tables(make_table, 2)
    client = client_for(user)
    url = lambda game: reverse("analysis_request", args=[game.pk])  # noqa: E731
    assert client.post(url(first), HTTP_ACCEPT="application/json").status_code == 202
    assert client.post(url(second), HTTP_ACCEPT="application/json").status_code == 429
    Analysis.objects.filter(game=first).update(status=Analysis.Status.DONE)
    assert client.post(url(second), HTTP_ACCEPT="application/json").status_code == 202


def test_an_analysis_asked_already_costs_no_place(make_user, make_table, announced, settings):
    """Asking for a game another person already asked for adds no work, so counts nothing."""
    settings.ANALYSES_QUEUED_PER_ACCOUNT, settings.ANALYSES_PER_HOUR = 1, 0
    (game,) = finished_tables(make_table, 1)
    url = reverse("analysis_request", args=[game.pk])
    assert client_for(make_user()).post(url, HTTP_ACCEPT="application/json").status_code == 202
    late = client_for(make_user())
    assert late.post(url, HTTP_ACCEPT="application/json").status_code == 202
    assert Analysis.objects.count() == 1 and len(announced) == 1


def test_requests_sent_together_pass_the_hourly_cap_exactly(
    make_user, make_table, announced, settings
):
    require_postgresql()
    require_redis()
    settings.ANALYSES_QUEUED_PER_ACCOUNT, settings.ANALYSES_PER_HOUR = 0, 3
    user = make_user()
    answers = ask_together(user, finished_tables(make_table, TOGETHER))

    assert statuses(answers) == [202] * 3 + [429] * (TOGETHER - 3)
    refused = [answer.json() for answer in answers if answer.status_code == 429]
    assert {body["error"] for body in refused} == {"too_many_analyses"}
    assert all("try again in" in body["message"] for body in refused)
    assert Analysis.objects.filter(requested_by=user).count() == 3


def test_a_refusal_from_the_replay_page_says_why(make_user, make_table, announced, settings):
    settings.ANALYSES_QUEUED_PER_ACCOUNT, settings.ANALYSES_PER_HOUR = 1, 0
    first, second = finished_tables(make_table, 2)
    client = client_for(make_user())
    client.post(reverse("analysis_request", args=[first.pk]))
    answer = client.post(reverse("analysis_request", args=[second.pk]), follow=True)
    assert "1 computer analysis waiting" in answer.content.decode()
    assert not Analysis.objects.filter(game=second).exists()
