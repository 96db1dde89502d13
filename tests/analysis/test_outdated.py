"""An analysis made by an older search says so, on the replay's JSON and on the game page, and a
request asks it again with today's search; one made by today's search is asked only once."""

import pytest
from django.test import Client
from django.urls import reverse

from ai.analysis import SEARCH_VERSION
from games.analysis.models import Analysis
from games.analysis.runner import JOB, run_slice
from games.analysis.service import request_analysis
from tests.analysis.conftest import analyse_to_the_end, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed(finished_game, announced, make_user):
    """A finished two-player game, analysed to the end; the announced jobs cleared."""
    game = finished_game(2, seed=21)
    analysis, _asked = request_analysis(game, make_user())
    analyse_to_the_end(analysis)
    announced.clear()
    return game, analysis


def made_by_older_search(analysis: Analysis) -> None:
    analysis.search_version = SEARCH_VERSION - 1
    analysis.save(update_fields=["search_version"])


def test_an_analysis_is_stamped_with_the_search_that_made_it(analysed, make_user):
    game, analysis = analysed
    assert analysis.search_version == SEARCH_VERSION and not analysis.outdated
    payload = client_for(make_user()).get(reverse("analysis_json", args=[game.pk])).json()
    assert payload["outdated"] is False and payload["can_request"] is False


def test_an_older_searchs_analysis_says_so_and_anyone_logged_in_may_ask_again(analysed, make_user):
    game, analysis = analysed
    made_by_older_search(analysis)
    url = reverse("analysis_json", args=[game.pk])

    anonymous = Client().get(url).json()
    assert anonymous["status"] == "done" and anonymous["outdated"] is True
    assert anonymous["can_request"] is False  # asking needs an account
    assert anonymous["decisions"], "the old results are still shown until asked again"
    logged_in = client_for(make_user()).get(url).json()
    assert logged_in["outdated"] is True and logged_in["can_request"] is True


def test_asking_again_restarts_it_with_todays_search(
    analysed, announced, make_user, django_capture_on_commit_callbacks
):
    game, analysis = analysed
    made_by_older_search(analysis)
    asker = make_user()

    with django_capture_on_commit_callbacks(execute=True):
        again, asked = request_analysis(game, asker)
    assert asked and again.pk == analysis.pk and Analysis.objects.count() == 1
    assert again.status == Analysis.Status.QUEUED and again.search_version == SEARCH_VERSION
    assert (again.progress, again.results, again.cost_seconds) == (0, {}, 0.0)
    assert again.requested_by == asker and again.finished_at is None
    assert [name for name, _args, _delay in announced] == [JOB]

    while again.status != Analysis.Status.DONE:
        run_slice(again.pk)
        again.refresh_from_db()
    assert not again.outdated and again.progress == again.total > 0
    announced.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert request_analysis(game, make_user()) == (again, False)
    assert announced == []


def test_the_game_page_offers_to_analyse_an_outdated_analysis_again(analysed, make_user):
    game, analysis = analysed
    page = reverse("game", args=[game.pk])
    person = client_for(make_user())
    form = "data-analysis-request"
    assert form not in person.get(page).content.decode()

    made_by_older_search(analysis)
    html = person.get(page).content.decode()
    assert "data-analysis-outdated" in html and form in html and "Analyse again" in html
    assert 'data-accuracy="' in html, "the old accuracies are still shown"
    anonymous = Client().get(page).content.decode()
    assert "data-analysis-outdated" in anonymous and form not in anonymous


def test_the_game_page_says_a_failed_analysis_failed_and_offers_it_again(analysed, make_user):
    game, analysis = analysed
    analysis.status = Analysis.Status.FAILED
    analysis.save(update_fields=["status"])
    html = client_for(make_user()).get(reverse("game", args=[game.pk])).content.decode()
    assert "The analysis failed." in html and "analysis is under way" not in html
    assert "data-analysis-request" in html and "Analyse again" in html
