"""The analysis endpoints over HTTP: asking, reading, and hints only where no person is helped
against another (the authorization rows are in tests/web/test_authorization.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.analysis.hint_search import run_hint
from games.analysis.models import Analysis
from games.engine import view_for
from games.services import load_state, submit_action
from tests.analysis.conftest import analyse_to_the_end, client_for

pytestmark = pytest.mark.django_db


def test_the_analysis_is_asked_once_and_read_by_anyone(finished_game, make_user):
    game = finished_game(2, seed=11)
    url = reverse("analysis_json", args=[game.pk])
    assert Client().get(url).json() == {"status": "none", "can_request": False}

    asker = client_for(make_user())
    asked = asker.post(reverse("analysis_request", args=[game.pk]), HTTP_ACCEPT="application/json")
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    analyse_to_the_end(Analysis.objects.get(game=game))

    done = Client().get(url).json()
    assert done["status"] == "done" and done["progress"] == done["total"] > 0
    first = done["decisions"][0]
    assert first["best_label"] and first["seq"] >= 1
    assert [row["seat"] for row in done["accuracy"]] == [0, 1]
    assert all(0 <= row["accuracy"] <= 100 for row in done["accuracy"])
    again = asker.post(reverse("analysis_request", args=[game.pk]), HTTP_ACCEPT="application/json")
    assert again.json()["status"] == "done" and Analysis.objects.count() == 1


@pytest.fixture
def against_bots(make_user, make_table, start_stacked):
    """A person at seat 0, to act first, against two of the site's bots."""
    person = make_user()
    table = make_table(3, people={0: person}, bots={1: "heuristic", 2: "medium"})
    return person, start_stacked(table, first=0)


def ask_hint(client, game, announced) -> tuple[str, str]:
    """Ask for a hint: 202, its job announced; returns (the answer's URL, the job's token)."""
    asked = client.post(reverse("analysis_hint", args=[game.pk]))
    assert asked.status_code == 202
    body = asked.json()
    assert body["status"] == "pending" and body["version"] == game.version
    name, (token,), _delay = announced[-1]
    assert name == "hint" and body["url"] == reverse("analysis_hint_answer", args=[game.pk, token])
    return body["url"], token


def test_a_hint_is_a_legal_action_of_the_askers_own_view(against_bots, announced):
    person, game = against_bots
    client = client_for(person)
    url, token = ask_hint(client, game, announced)
    assert client.get(url).status_code == 202  # not searched yet: the worker has not run

    assert run_hint(token) == "done"  # the job, as a worker of the background queue runs it

    answer = client.get(url)
    assert answer.status_code == 200
    body = answer.json()
    assert body["version"] == game.version and body["seat"] == 0
    assert body["action"] in view_for(load_state(game), 0)["legal_actions"]
    # Said to the player ("Play the Courtesan", "Pass", ...), never as a log line about a colour.
    assert body["text"].startswith(body["advice"])
    assert body["advice"].split()[0] in {"Play", "Pass", "Send", "Discard", "Keep"}
    if body["action"]["type"] == "play":
        assert body["mark"] == {"card": body["action"]["card"]}
    assert run_hint(token) == "nothing to do"  # a job delivered twice finds its work done


def test_a_hint_is_read_by_its_asker_only(against_bots, announced, make_user):
    person, game = against_bots
    url, token = ask_hint(client_for(person), game, announced)
    run_hint(token)
    assert client_for(make_user()).get(url).status_code == 404
    unknown = reverse("analysis_hint_answer", args=[game.pk, "no-such-token"])
    assert client_for(person).get(unknown).status_code == 404


def test_a_hint_for_a_decision_gone_by_is_stale(against_bots, announced):
    person, game = against_bots
    client = client_for(person)
    url, token = ask_hint(client, game, announced)
    state = load_state(game)
    submit_action(game.pk, 0, view_for(state, 0)["legal_actions"][0], game.version)

    assert run_hint(token) == "stale"
    answer = client.get(url)
    assert answer.status_code == 409 and answer.json()["error"] == "stale"


def test_no_hint_when_another_person_sits_at_the_table(make_user, make_table, start_stacked):
    person, other = make_user(), make_user()
    table = make_table(3, people={0: person, 2: other}, bots={1: "heuristic"})
    game = start_stacked(table, first=0)
    answer = client_for(person).post(reverse("analysis_hint", args=[game.pk]))
    assert answer.status_code == 403 and answer.json()["error"] == "not_bots_only"
    assert answer.json()["message"]


def test_no_hint_more_often_than_the_limit(against_bots, settings, announced):
    person, game = against_bots
    settings.HINTS_PER_MINUTE = 2
    client = client_for(person)
    url = reverse("analysis_hint", args=[game.pk])
    assert [client.post(url).status_code for _ in range(3)] == [202, 202, 429]
    assert client.post(url).json()["error"] == "too_many"


def test_no_hint_when_the_person_has_nothing_to_decide(make_user, make_table, start_stacked):
    person = make_user()
    table = make_table(2, people={0: person}, bots={1: "heuristic"})
    game = start_stacked(table, first=1)  # the bot chooses the first region
    answer = client_for(person).post(reverse("analysis_hint", args=[game.pk]))
    assert answer.status_code == 409 and answer.json()["error"] == "not_your_turn"
