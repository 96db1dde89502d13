"""The analyses in the admin: listed with their cost and version, and the action "Analyse again"
asks the failed, outdated and stalled ones again, as a person's request would, leaving the
others (done by today's search, or running) as they were."""

from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from ai.analysis import SEARCH_VERSION
from games.analysis.models import Analysis
from games.analysis.runner import JOB

pytestmark = pytest.mark.django_db

Status = Analysis.Status
CHANGELIST = reverse("admin:analysis_analysis_changelist")


def test_analyse_again_asks_the_failed_outdated_and_stalled_ones_only(
    staff_client, make_analysis, announced, django_capture_on_commit_callbacks
):
    failed = make_analysis(Status.FAILED)
    outdated = make_analysis(Status.DONE, version=SEARCH_VERSION - 1)
    stalled = make_analysis(Status.RUNNING, saved_ago=timedelta(minutes=30))
    current = make_analysis(Status.DONE)
    running = make_analysis(Status.RUNNING, saved_ago=timedelta(minutes=1))
    every = [failed, outdated, stalled, current, running]
    announced.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(
            CHANGELIST,
            {"action": "analyse_again", ACTION_CHECKBOX_NAME: [a.pk for a in every]},
            follow=True,
        )
    assert "3 analyses asked again (2 unchanged)." in response.content.decode()
    assert sorted(args[0] for _name, args, _delay in announced) == sorted(
        [failed.pk, outdated.pk, stalled.pk]
    )
    assert all(name == JOB for name, _args, _delay in announced)

    after = {a.pk: a for a in Analysis.objects.filter(pk__in=[a.pk for a in every])}
    assert after[failed.pk].status == Status.QUEUED
    assert (after[outdated.pk].status, after[outdated.pk].search_version) == (
        Status.QUEUED,
        SEARCH_VERSION,
    )
    # Stalled: announced again where it stopped, its clock set back to now.
    assert after[stalled.pk].status == Status.RUNNING
    assert after[stalled.pk].updated_at > stalled.updated_at
    for untouched in (current, running):
        assert after[untouched.pk].status == untouched.status
        assert after[untouched.pk].updated_at == untouched.updated_at


def test_the_list_filters_by_status_and_search_version(staff_client, make_analysis):
    outdated = make_analysis(Status.DONE, version=SEARCH_VERSION - 1)
    make_analysis(Status.DONE)
    response = staff_client.get(CHANGELIST, {"search_version": SEARCH_VERSION - 1})
    assert [row.pk for row in response.context["cl"].result_list] == [outdated.pk]
    response = staff_client.get(CHANGELIST, {"q": f"#{outdated.game_id}"})
    assert outdated.pk in {row.pk for row in response.context["cl"].result_list}
