"""The match service: a match is created from the table forms, each game is scored when it ends,
the next game starts when everyone is ready or when its timer runs out, a tie at the top goes to
a final game among the tied players; bad requests get a clear error and change nothing.

Jobs are recorded, not run (`announced`), and the games are played to their end by random legal
moves through the one way in; the job "match_next_game" is then run by hand, as a worker would.
"""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.accounts.deletion import delete_account
from games.engine import match_points
from games.lobby.tables import SeatPlan, join_table
from games.matches import services
from games.matches.models import Match, MatchGame
from games.matches.services import MatchError, advance, create_match, say_ready
from games.models import Game, User
from games.services import load_state
from games.services.frames import STANDIN_LEVEL
from tests.matches.conftest import play_to_the_end

# After-commit work (the hook, the timer) must run: real commits.
pytestmark = pytest.mark.django_db(transaction=True)


def bots_match(user, *, bots=1, target=100):
    return services.create_match_against_bots(user, bots, "random", target=target)


def latest(match) -> MatchGame:
    return match.entries.order_by("-number").first()


def finish_current_game(match, seed=7) -> Game:
    game = play_to_the_end(latest(match).game_id, seed)
    advance(game.pk)
    return game


def test_a_match_against_bots_starts_its_first_game_at_once(make_user, announced):
    match = bots_match(make_user(), bots=2, target=30)
    first = latest(match)
    assert (match.players, match.target, match.status) == (3, 30, Match.Status.PLAYING)
    assert (first.number, first.seats, first.decider) == (1, [0, 1, 2], False)
    assert first.game.status == Game.Status.PLAYING


def test_a_finished_game_of_a_match_announces_the_match_job_and_a_lone_game_does_not(
    make_user, announced
):
    match = bots_match(make_user())
    game = play_to_the_end(latest(match).game_id)
    assert ("match_next_game", (game.pk,), 0.0) in announced
    lone = services.play_against_bots(make_user(), 1, "random")
    announced.clear()
    play_to_the_end(lone.pk)
    assert [job for job in announced if job[0] == "match_next_game"] == []


def test_the_end_of_a_game_scores_it_and_sets_the_next_games_timer(make_user, announced):
    match = bots_match(make_user())
    game = finish_current_game(match)
    match.refresh_from_db()
    entry = MatchGame.objects.get(game=game)
    assert entry.points == match_points(load_state(game))
    assert match.next_game_at is not None
    seconds = (match.next_game_at - timezone.now()).total_seconds()
    assert 55 < seconds <= 60
    assert ("match_next_game", (game.pk,), 60.5) in announced
    assert advance(game.pk) == "waiting"  # run again: nothing more (the person is not ready)
    assert match.entries.count() == 1


def test_the_next_game_starts_when_the_only_person_is_ready_with_the_same_seats(
    make_user, announced
):
    alice = make_user()
    match = bots_match(alice, bots=2)
    first = finish_current_game(match)
    assert say_ready(match.pk, alice) is True
    second = latest(match)
    assert (second.number, second.decider, second.game.status) == (2, False, "playing")
    old = list(first.seats.order_by("index").values_list("user_id", "bot_level"))
    new = list(second.game.seats.order_by("index").values_list("user_id", "bot_level"))
    assert new == old
    match.refresh_from_db()
    assert (match.next_game_at, match.ready) == (None, [])


def names(game) -> list[str]:
    return [seat.occupant_name() for seat in game.seats.order_by("index")]


def test_the_bots_keep_their_names_from_game_to_game(make_user, announced):
    alice = make_user()
    match = bots_match(alice, bots=3)
    first = finish_current_game(match)
    say_ready(match.pk, alice)
    second = finish_current_game(match, seed=9)
    say_ready(match.pk, alice)
    third = latest(match).game
    assert names(first) == names(second) == names(third)
    assert len(set(names(third))) == 4  # still one name per seat


def test_the_bots_of_a_final_game_keep_their_match_seats_names(make_user, announced, monkeypatch):
    monkeypatch.setattr(services, "game_points", lambda state: [6, 1, 2, 6])
    alice = make_user()
    match = bots_match(alice, bots=3, target=5)
    first = finish_current_game(match)
    say_ready(match.pk, alice)
    decider = latest(match)
    assert decider.seats == [0, 3]  # the bot of match seat 3 sits at the final game's seat 1
    assert names(decider.game) == [names(first)[0], names(first)[3]]


def test_with_two_people_the_next_game_waits_for_both(make_user, announced):
    alice, bruno = make_user(), make_user()
    plans = [SeatPlan("me"), SeatPlan("invite", user=bruno)]
    match = create_match(alice, 2, plans, target=100)
    join_table(latest(match).game_id, bruno)
    finish_current_game(match)
    assert say_ready(match.pk, alice) is False
    assert say_ready(match.pk, alice) is False  # said twice: still one ready seat
    match.refresh_from_db()
    assert match.ready == [0] and match.entries.count() == 1
    assert say_ready(match.pk, bruno) is True
    assert match.entries.count() == 2


def test_a_ready_past_the_timer_starts_the_next_game_as_the_timer_would(make_user, announced):
    alice, bruno = make_user(), make_user()
    plans = [SeatPlan("me"), SeatPlan("invite", user=bruno)]
    match = create_match(alice, 2, plans, target=100)
    join_table(latest(match).game_id, bruno)
    finish_current_game(match)
    assert say_ready(match.pk, alice) is False  # bruno is waited for while the timer runs
    Match.objects.filter(pk=match.pk).update(next_game_at=timezone.now() - timedelta(seconds=5))

    assert say_ready(match.pk, alice) is True  # its job late or lost: nobody stays stuck
    assert latest(match).number == 2


def test_the_timer_starts_the_next_game_though_a_person_is_not_ready(make_user, announced):
    alice = make_user()
    match = bots_match(alice)
    game = finish_current_game(match)
    Match.objects.filter(pk=match.pk).update(next_game_at=timezone.now() - timedelta(seconds=1))
    assert advance(game.pk) == "next game"
    assert advance(game.pk) == "playing"  # late or twice: the next game is being played
    assert match.entries.count() == 2


def test_a_person_whose_stand_in_plays_counts_as_ready(make_user, announced):
    alice = make_user()
    match = bots_match(alice)
    game = play_to_the_end(latest(match).game_id)
    game.seats.filter(user=alice).update(standin=True)
    advance(game.pk)  # scores it and sets the timer
    assert advance(game.pk) == "next game"
    assert latest(match).game.seats.get(user=alice).standin is True


def test_the_match_ends_when_someone_reaches_the_target(make_user, announced, monkeypatch):
    monkeypatch.setattr(services, "game_points", lambda state: [6, 2])
    match = bots_match(make_user(), target=5)
    finish_current_game(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result == {"winners": [0], "points": [6, 2], "decided_by": "points"}
    assert match.next_game_at is None


def test_a_tie_at_the_top_is_decided_by_a_final_game_among_the_tied(
    make_user, announced, monkeypatch
):
    monkeypatch.setattr(services, "game_points", lambda state: [5, 5, 1])
    alice = make_user()
    match = bots_match(alice, bots=2, target=5)
    finish_current_game(match)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.next_game_at is not None
    assert say_ready(match.pk, alice) is True
    decider = latest(match)
    assert (decider.decider, decider.seats, decider.game.players) == (True, [0, 1], 2)
    game = play_to_the_end(decider.game_id)
    advance(game.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["decided_by"] == "decider"
    assert match.result["winners"] == sorted(decider.seats[s] for s in game.result["winners"])
    assert match.result["points"] == [5, 5, 1]  # the decider scores nothing


def test_two_tied_players_play_the_decider_with_both_seats(make_user, announced, monkeypatch):
    monkeypatch.setattr(services, "game_points", lambda state: [7, 7])
    alice = make_user()
    match = bots_match(alice, target=5)
    finish_current_game(match)
    say_ready(match.pk, alice)
    assert (latest(match).decider, latest(match).seats) == (True, [0, 1])


# --- Bad input: a clear error, nothing changed ----------------------------------------------


@pytest.mark.parametrize("target", [4, 101, 0, "20"])
def test_a_target_out_of_range_is_refused_and_nothing_is_created(make_user, target):
    with pytest.raises(MatchError) as refused:
        bots_match(make_user(), target=target)
    assert refused.value.code == "invalid"
    assert not Match.objects.exists() and not Game.objects.exists()


def test_ready_from_someone_not_in_the_match_is_refused(make_user, announced):
    match = bots_match(make_user())
    finish_current_game(match)
    with pytest.raises(MatchError) as refused:
        say_ready(match.pk, make_user())
    assert refused.value.code == "not_seated"
    match.refresh_from_db()
    assert match.ready == [] and match.entries.count() == 1


def test_ready_while_the_game_is_still_played_is_refused(make_user, announced):
    alice = make_user()
    match = bots_match(alice)
    with pytest.raises(MatchError) as refused:
        say_ready(match.pk, alice)
    assert refused.value.code == "not_between_games"
    match.refresh_from_db()
    assert match.ready == [] and match.entries.count() == 1


def test_ready_after_the_match_is_over_is_refused(make_user, announced, monkeypatch):
    monkeypatch.setattr(services, "game_points", lambda state: [9, 0])
    alice = make_user()
    match = bots_match(alice, target=5)
    finish_current_game(match)
    with pytest.raises(MatchError) as refused:
        say_ready(match.pk, alice)
    assert refused.value.code == "finished"
    assert match.entries.count() == 1


def test_a_player_out_of_the_decider_cannot_say_ready_for_it(make_user, announced, monkeypatch):
    monkeypatch.setattr(services, "game_points", lambda state: [1, 5, 5])
    alice = make_user()
    match = bots_match(alice, bots=2, target=5)
    finish_current_game(match)
    with pytest.raises(MatchError) as refused:
        say_ready(match.pk, alice)
    assert refused.value.code == "not_in_decider"
    match.refresh_from_db()
    assert match.ready == []


def test_an_aborted_game_stops_the_match(make_user, announced):
    from games.services.lifecycle import abort_game

    match = bots_match(make_user())
    game_id = latest(match).game_id
    abort_game(game_id)
    assert ("match_next_game", (game_id,), 0.0) in announced  # at once, not at the next sweep
    assert advance(game_id) == "aborted"
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_the_sweep_finds_a_lost_timer_and_a_lost_scoring(make_user, announced):
    from games.jobs import sweep

    match = bots_match(make_user())
    game = play_to_the_end(latest(match).game_id)
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(seconds=5))
    assert sweep.due_match_games() == [game.pk]  # finished, never scored
    advance(game.pk)
    assert sweep.due_match_games() == []  # scored; its timer is not due
    Match.objects.filter(pk=match.pk).update(next_game_at=timezone.now() - timedelta(seconds=5))
    assert sweep.due_match_games() == [game.pk]


# --- The forms ---------------------------------------------------------------------------------


def test_the_play_against_bots_form_opens_a_match(client, make_user, announced):
    client.force_login(make_user())
    response = client.post(
        reverse("match_play"),
        {"bots": "1", "level": "random", "play_for_points": "on", "target": "30"},
    )
    match = Match.objects.get()
    assert match.target == 30
    assert response.status_code == 302
    assert response.url == reverse("game", args=[latest(match).game_id])


def test_the_form_without_play_for_points_opens_a_single_game(client, make_user, announced):
    client.force_login(make_user())
    response = client.post(reverse("match_play"), {"bots": "1", "level": "random"})
    assert response.status_code == 302
    assert Game.objects.count() == 1 and not Match.objects.exists()


def test_the_table_form_refuses_a_bad_target_and_creates_nothing(client, make_user):
    client.force_login(make_user())
    data = {"players": "2", "seat_0_kind": "me", "seat_1_kind": "bot", "seat_1_level": "random"}
    response = client.post(
        reverse("match_table_new"), {**data, "play_for_points": "on", "target": "4"}
    )
    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 5." in response.content.decode()
    assert not Game.objects.exists() and not Match.objects.exists()


def test_the_table_form_opens_a_match_and_warns_against_capturing_regions(client, make_user):
    client.force_login(make_user())
    page = client.get(reverse("table_new")).content.decode()
    assert "advises against Capturing Regions" in page
    assert f'action="{reverse("match_table_new")}"' in page
    data = {"players": "2", "seat_0_kind": "me", "seat_1_kind": "open"}
    response = client.post(
        reverse("match_table_new"), {**data, "play_for_points": "on", "target": "20"}
    )
    match = Match.objects.get()
    assert response.status_code == 302
    assert latest(match).game.status == Game.Status.OPEN  # waits for its second player


def test_ready_over_http_by_a_stranger_is_a_400_with_the_reason(client, make_user, announced):
    match = bots_match(make_user())
    finish_current_game(match)
    client.force_login(make_user())
    response = client.post(reverse("match_ready", args=[match.pk]), HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "not_seated"


def test_a_person_deleted_between_two_games_has_no_seat_in_the_next(make_user, announced):
    alice, bruno = make_user(), make_user()
    plans = [SeatPlan("me"), SeatPlan("invite", user=bruno)]
    match = create_match(alice, 2, plans, target=100)
    join_table(latest(match).game_id, bruno)
    game = finish_current_game(match)
    delete_account(User.objects.get(pk=bruno.pk))  # no game of theirs open or being played
    Match.objects.filter(pk=match.pk).update(next_game_at=timezone.now() - timedelta(seconds=1))
    assert advance(game.pk) == "next game"
    seats = latest(match).game.seats.order_by("index").values_list("user_id", "bot_level")
    assert list(seats) == [(alice.pk, ""), (None, STANDIN_LEVEL)]
