"""What one account's record imports can cost: at most RECORD_IMPORTS_PER_HOUR records an hour,
counted before the replay and atomically (Redis), so that imports sent together pass exactly up
to the quota; and at most RECORD_IMPORT_MAX_ACTIONS actions per record (a match's games
together), refused before anything is replayed. A refusal says why and stores nothing."""

import copy
import json

import pytest
from django.urls import reverse

from games.limits.throttles import Count, take
from games.models import Game
from tests.analysis.conftest import client_for
from tests.services import require_postgresql, require_redis
from tests.web.test_records import engine_record
from tests.web.together import send_together

pytestmark = pytest.mark.django_db(transaction=True)

# Imports sent at once: each holds a pooled database connection (DATABASE_POOL_SIZE, 8 by
# default, shared with the test's own thread and whatever an earlier test of this process left
# lent), so few enough that a full pool never refuses one.
TOGETHER = 5


def imported_games() -> int:
    return Game.objects.filter(source=Game.Source.IMPORTED).count()


def post_record(client, record: dict):
    return client.post(reverse("import_record"), {"text": json.dumps(record)})


def import_together(user, record: dict, count: int) -> list:
    """`count` imports of `record` by `user`, sent at the same instant, each on its own
    connection."""
    clients = [client_for(user) for _ in range(count)]  # logged in beforehand, one at a time
    return send_together(count, lambda position: post_record(clients[position], record))


def test_imports_sent_together_pass_the_hourly_quota_exactly(make_user, settings):
    require_postgresql()
    require_redis()
    settings.RECORD_IMPORTS_PER_HOUR = 3
    answers = import_together(make_user(), engine_record(), TOGETHER)

    assert sorted(answer.status_code for answer in answers) == [302] * 3 + [429] * (TOGETHER - 3)
    refused = [answer.content.decode() for answer in answers if answer.status_code == 429]
    assert all("You sent 3 records to import in the last hour" in page for page in refused)
    assert imported_games() == 3


def test_a_record_over_the_action_cap_is_refused_before_its_replay(make_user, settings):
    record = engine_record()
    settings.RECORD_IMPORT_MAX_ACTIONS = len(record["actions"]) - 1
    settings.RECORD_IMPORTS_PER_HOUR = 1
    user = make_user()
    # Its last action made illegal: had it been replayed, the refusal would say so.
    broken = copy.deepcopy(record)
    broken["actions"][-1]["action"] = {"type": "pass", "reveal": True, "nonsense": 1}

    answer = post_record(client_for(user), broken)

    assert answer.status_code == 400
    page = answer.content.decode()
    assert f"The record holds {len(record['actions'])} actions" in page
    assert f"at most {len(record['actions']) - 1} can be imported" in page
    assert "do not replay" not in page and imported_games() == 0
    # Refused unread, it took none of the account's imports this hour.
    assert not take(Count("account-imports", str(user.pk), 1, 3600)).refusal


def test_a_match_record_counts_the_actions_of_all_its_games(make_user, settings):
    game = engine_record()
    settings.RECORD_IMPORT_MAX_ACTIONS = len(game["actions"]) * 2 - 1
    match = {
        "format": "condottiere-match-record",
        "version": 1,
        "games": [{"number": 1, "record": game}, {"number": 2, "record": game}],
    }

    answer = post_record(client_for(make_user()), match)

    assert answer.status_code == 400
    assert f"The record holds {len(game['actions']) * 2} actions" in answer.content.decode()
    assert imported_games() == 0


def test_a_record_within_the_caps_is_imported(make_user, settings):
    record = engine_record()
    settings.RECORD_IMPORT_MAX_ACTIONS = len(record["actions"])
    answer = post_record(client_for(make_user()), record)
    assert answer.status_code == 302 and imported_games() == 1
