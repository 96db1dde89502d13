"""Hints per account (HINTS_PER_MINUTE) hold when the asks arrive together, and in any minute: each
ask takes a slot before anything is searched, in a sliding window, so exactly the limit's asks are
accepted and the rest get 429."""

import time
import zlib

import pytest
from django.urls import reverse

from games.analysis.hints import hints_per_minute
from tests.analysis.conftest import client_for
from tests.web.together import send_together

ASKS = 30


@pytest.mark.django_db(transaction=True)
def test_hints_asked_together_pass_only_the_limit(make_user, make_table, start_stacked, announced):
    person = make_user()
    game = start_stacked(make_table(3, people={0: person}, bots={1: "heuristic", 2: "medium"}))
    url = reverse("analysis_hint", args=[game.pk])
    limit = hints_per_minute()

    answers = send_together(ASKS, lambda _: client_for(person).post(url))

    refused = [answer for answer in answers if answer.status_code == 429]
    assert len(refused) == ASKS - limit, sorted(answer.status_code for answer in answers)
    assert {answer.json()["error"] for answer in refused} == {"too_many"}
    assert len(announced) == limit  # one search per accepted ask, none for the refused


def test_hints_asked_one_after_another_pass_only_the_limit_in_any_minute(
    make_user, make_table, start_stacked, announced, monkeypatch
):
    """Nine asks a second apart, the first six just before the end of a fixed one-minute window
    as django-ratelimit places it for this account (its windows end at a per-key jitter): a
    fixed window lets the last three through as a new minute's; a sliding one refuses them."""
    person = make_user()
    game = start_stacked(make_table(3, people={0: person}, bots={1: "heuristic", 2: "medium"}))
    now = int(time.time())
    window_end = now - now % 60 + zlib.crc32(str(person.pk).encode()) % 60 + 60
    clock = [window_end - 5.5]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    client = client_for(person)
    url = reverse("analysis_hint", args=[game.pk])

    statuses = []
    for _ in range(9):
        statuses.append(client.post(url).status_code)
        clock[0] += 1

    limit = hints_per_minute()
    assert statuses.count(429) == 9 - limit, statuses
    assert statuses[limit:] == [429] * (9 - limit)
