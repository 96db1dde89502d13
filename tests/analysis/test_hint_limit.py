"""Hints per account (HINTS_PER_MINUTE) hold when the asks arrive together: each takes a slot
before anything is searched, so exactly the limit's asks are accepted and the rest get 429."""

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
