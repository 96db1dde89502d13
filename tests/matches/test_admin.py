"""Matches in the admin: the list shows who plays and the points, finds a match by a player or
its number, and the staff can abort a match during a game or between two games; a match that is
over is left as it is. A live game's seed never reaches the match's page."""

from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from games.matches import services
from games.matches.models import Match, MatchGame
from games.matches.services import advance
from games.models import Game
from tests.matches.conftest import play_to_the_end

# The abort's notices run after the commit: real commits.
pytestmark = pytest.mark.django_db(transaction=True)

LIST = reverse("admin:matches_match_changelist")


def bots_match(user, target=100) -> Match:
    return services.create_match_against_bots(user, 1, "random", target=target)


def latest(match) -> MatchGame:
    return match.entries.order_by("-number").first()


def abort_matches(client, *matches):
    data = {
        "action": "abort_matches",
        ACTION_CHECKBOX_NAME: [str(match.pk) for match in matches],
        "index": "0",
    }
    return client.post(LIST, data, follow=True)


def listed(response) -> set[int]:
    return {match.pk for match in response.context["cl"].result_list}


def test_aborting_a_match_during_a_game_aborts_the_game_too(staff_client, make_user, announced):
    match = bots_match(make_user("alice"))
    game_id = latest(match).game_id

    response = abort_matches(staff_client, match)

    assert "1 match aborted." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.finished_at is not None
    assert Game.objects.get(pk=game_id).status == Game.Status.ABORTED
    assert advance(game_id) == "match over"  # the match job, late: nothing more happens


def test_aborting_a_match_between_two_games_stops_the_next_one(staff_client, make_user, announced):
    match = bots_match(make_user("alice"))
    finished = play_to_the_end(latest(match).game_id)
    advance(finished.pk)  # scored; the next game's timer is set
    match.refresh_from_db()
    assert match.next_game_at is not None

    abort_matches(staff_client, match)

    match.refresh_from_db()
    assert (match.status, match.next_game_at) == (Match.Status.ABORTED, None)
    assert Game.objects.get(pk=finished.pk).status == Game.Status.FINISHED  # stays finished
    Match.objects.filter(pk=match.pk).update(next_game_at=timezone.now() - timedelta(seconds=5))
    assert advance(finished.pk) == "match over"  # the timer's job opens no next game
    assert match.entries.count() == 1


def test_a_match_that_is_over_is_left_as_it_is(staff_client, make_user, announced):
    match = bots_match(make_user("alice"))
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)

    response = abort_matches(staff_client, match)

    assert "0 matches aborted." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert latest(match).game.status == Game.Status.PLAYING


def test_the_list_shows_the_seats_and_points_and_finds_by_player_or_number(
    staff_client, make_user, announced
):
    alice, bruno = make_user("alice"), make_user("bruno")
    hers, his = bots_match(alice), bots_match(bruno)
    MatchGame.objects.filter(match=hers).update(points=[3, 7])

    page = staff_client.get(LIST).content.decode()

    # The seated column names both seats in order (alice also shows as the match's creator).
    seats = latest(hers).game.seats.order_by("index")
    assert escape(", ".join(seat.occupant_name() for seat in seats)) in page
    assert "3 – 7" in page
    assert listed(staff_client.get(LIST, {"q": "alice"})) == {hers.pk}
    assert his.pk in listed(staff_client.get(LIST, {"q": f"#{his.pk}"}))


def test_a_matchs_page_links_its_games_and_keeps_a_live_seed_hidden(
    staff_client, make_user, announced
):
    match = bots_match(make_user("alice"))
    game = latest(match).game
    page = reverse("admin:matches_match_change", args=[match.pk])

    response = staff_client.get(page)

    body = response.content.decode()
    assert reverse("admin:games_game_change", args=[game.pk]) in body
    assert str(game.seed) not in body
    seed_probe = {"entries__game__seed__gt": "0"}
    assert staff_client.get(LIST, seed_probe).status_code == 400
