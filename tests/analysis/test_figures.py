"""The staff dashboard's analysis figures, against rows set up here with numbers worked out by
hand: per status, stalled (queued or running, nothing saved for 10 minutes), outdated (done by
an older search), and the last 24 hours' finished analyses with their search time."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from ai.analysis import SEARCH_VERSION
from games.analysis.figures import analysis_figures
from games.analysis.models import Analysis

pytestmark = pytest.mark.django_db

Status = Analysis.Status


def test_no_analysis_gives_zeros_and_no_cost():
    figures = analysis_figures()
    assert {status: figures[status] for status in Status.values} == dict.fromkeys(Status.values, 0)
    assert (figures["stalled"], figures["outdated"]) == (0, 0)
    assert figures["last_24h"] == {
        "games": 0,
        "search_seconds": 0.0,
        "seconds_per_game": None,
        "ms_per_decision": None,
    }


def test_figures_count_each_status_the_stalled_the_outdated_and_the_last_day(make_analysis):
    make_analysis(Status.QUEUED)
    make_analysis(Status.QUEUED, saved_ago=timedelta(minutes=11))  # stalled
    make_analysis(Status.RUNNING, saved_ago=timedelta(minutes=30))  # stalled
    make_analysis(Status.RUNNING, saved_ago=timedelta(minutes=9))
    make_analysis(Status.FAILED, saved_ago=timedelta(hours=2))  # failed, not stalled
    make_analysis(Status.DONE, finished_ago=timedelta(hours=1), seconds=60.0, decisions=100)
    make_analysis(Status.DONE, finished_ago=timedelta(hours=23), seconds=30.0, decisions=50)
    make_analysis(
        Status.DONE, finished_ago=timedelta(hours=25), seconds=999.0, decisions=9, version=1
    )

    figures = analysis_figures()
    assert [figures[status] for status in ("queued", "running", "failed", "done")] == [2, 2, 1, 3]
    assert figures["stalled"] == 2
    assert figures["outdated"] == 1
    # The two finished within 24 hours: 90 s over 2 games and 150 decisions.
    assert figures["last_24h"] == {
        "games": 2,
        "search_seconds": 90.0,
        "seconds_per_game": 45.0,
        "ms_per_decision": 600.0,
    }


def test_the_staff_dashboard_shows_them(make_analysis, make_user):
    make_analysis(Status.QUEUED, saved_ago=timedelta(minutes=20))
    make_analysis(Status.DONE, finished_ago=timedelta(hours=2), seconds=54.3, decisions=102)
    make_analysis(Status.DONE, finished_ago=timedelta(days=3), version=SEARCH_VERSION - 1)
    staff = make_user()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(staff)
    html = client.get(reverse("staff_dashboard")).content.decode()

    def figure(name):
        found = html.split(f'data-figure="{name}">', 1)[1]
        return found.split("</dd>", 1)[0]

    assert figure("analysis-queued") == "1"
    assert "1" in figure("analysis-stalled") and "staff-figure__warn" in figure("analysis-stalled")
    assert figure("analysis-done") == "2"
    assert "1 made by an older search" in html
    assert figure("analysis-24h") == "1"
    assert figure("analysis-cost") == "54 s of search: 54.3 s a game, 532 ms a decision"
