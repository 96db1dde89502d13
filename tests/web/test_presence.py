"""Who is connected: a crashed server's presence rows stop counting within minutes and are
deleted by the periodic sweep job, while a live socket's heartbeat keeps its row counted (the
socket side is in test_dashboard.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.models import Presence
from games.sockets import presence

pytestmark = pytest.mark.django_db


def seen(channel_name: str, ago: timedelta) -> Presence:
    row = Presence.objects.create(channel_name=channel_name)
    Presence.objects.filter(pk=row.pk).update(seen_at=timezone.now() - ago)
    return row


def test_a_socket_unseen_for_three_heartbeats_no_longer_counts():
    """The dashboard once counted 529 open sockets when none was: rows of a crashed server
    counted for six hours. A live socket is touched every minute; three missed beats and it is
    gone."""
    assert presence.HEARTBEAT_SECONDS <= 60
    seen("live", timedelta(seconds=2 * presence.HEARTBEAT_SECONDS))
    seen("crashed", timedelta(minutes=3, seconds=1))
    assert list(presence.live_presences().values_list("channel_name", flat=True)) == ["live"]


def test_the_sweep_job_deletes_the_rows_crashed_servers_left(announced):
    """Nobody needs to open the dashboard for the leftovers to go."""
    seen("live", timedelta(seconds=30))
    seen("crashed", timedelta(minutes=4))
    tasks.sweep_due_work()
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["live"]
