"""The one way in: submit_action, start_game, stand-ins, turn timers, the public log."""

import random
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

import games.actors.choosing
from games.actors.turn_expiry import expire_turn
from games.engine import (
    Options,
    apply_action,
    current_player,
    legal_actions,
    new_game,
    view_for,
    winners,
)
from games.models import Action, Game, Seat
from games.services import (
    GameNotPlaying,
    IllegalMove,
    NotSeated,
    NotYourTurn,
    StaleVersion,
    hand_to_bot,
    load_state,
    start_game,
    submit_action,
    take_back_seat,
)
from games.tasks import bot_turn as play_bot_turn
from tests.web.conftest import replay_log

pytestmark = pytest.mark.django_db

FACE_DOWN_KINDS = {"m1", "m2", "m3", "m4", "m5", "m6", "m10", "drummer", "heroine", "courtesan"}


@pytest.fixture
def two_people(make_user, make_table):
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob})
    start_game(game.pk)
    game.refresh_from_db()
    return game, alice, bob


def snapshot_of(game):
    game.refresh_from_db()
    return game.snapshot, game.version, game.status, Action.objects.filter(game=game).count()


def some_action(state, index=0):
    return legal_actions(state)[index]


def play_randomly_to_the_end(game, rng, limit=5000):
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        state = load_state(game)
        seat = current_player(state)
        submit_action(game.pk, seat, rng.choice(legal_actions(state)), game.version)
    raise AssertionError("the game did not end")


# --- start_game ---------------------------------------------------------------------------------


def test_start_game_deals_from_the_seed_with_a_seeded_first_token_holder(two_people):
    game, _, _ = two_people
    first = random.Random(game.seed).randrange(2)
    expected = new_game(2, seed=game.seed, options=Options(), first=first)
    assert game.status == Game.Status.PLAYING and game.version == 0 and game.started_at
    assert load_state(game) == expected
    assert current_player(expected) == first


def test_a_table_with_an_open_seat_does_not_start(make_user, make_table):
    game = make_table(3, people={0: make_user()})
    with pytest.raises(Exception) as error:
        start_game(game.pk)
    assert error.value.code == "not_ready"
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.snapshot == ""


# --- submit_action ------------------------------------------------------------------------------


def test_submit_applies_the_action_and_logs_it(two_people):
    game, _, _ = two_people
    state = load_state(game)
    seat = current_player(state)
    action = some_action(state)
    assert submit_action(game.pk, seat, action, 0) == 1
    game.refresh_from_db()
    assert game.version == 1
    assert load_state(game) == apply_action(state, action)
    logged = Action.objects.get(game=game)
    assert (logged.seq, logged.seat, logged.action, logged.actor) == (1, seat, action, "human")
    assert logged.public == {"type": "choose_region", "region": action["region"]}


def test_an_illegal_action_changes_nothing_and_says_why(two_people):
    game, _, _ = two_people
    seat = current_player(load_state(game))
    before = snapshot_of(game)
    with pytest.raises(IllegalMove) as error:
        submit_action(game.pk, seat, {"type": "play", "card": "m10"}, 0)
    assert error.value.code == "illegal" and error.value.message
    with pytest.raises(IllegalMove):
        submit_action(game.pk, seat, {"type": "choose_region", "region": "Atlantis"}, 0)
    assert snapshot_of(game) == before


def test_a_stale_version_is_refused_with_the_current_version(two_people):
    game, _, _ = two_people
    state = load_state(game)
    submit_action(game.pk, current_player(state), some_action(state), 0)
    before = snapshot_of(game)
    state = load_state(game)
    with pytest.raises(StaleVersion) as error:
        submit_action(game.pk, current_player(state), some_action(state), 0)
    assert error.value.code == "stale" and error.value.version == 1
    assert snapshot_of(game) == before


def test_only_the_seat_to_act_may_act(two_people):
    game, _, _ = two_people
    state = load_state(game)
    other = 1 - current_player(state)
    before = snapshot_of(game)
    with pytest.raises(NotYourTurn):
        submit_action(game.pk, other, some_action(state), 0)
    assert snapshot_of(game) == before


def test_a_game_that_is_not_playing_refuses_actions(make_user, make_table):
    game = make_table(2, people={0: make_user(), 1: make_user()})
    with pytest.raises(GameNotPlaying):
        submit_action(game.pk, 0, {"type": "pass"}, 0)


def test_a_finished_game_records_its_result(two_people):
    game, _, _ = two_people
    play_randomly_to_the_end(game, random.Random(7))
    game.refresh_from_db()
    state = load_state(game)
    public = view_for(state, None)
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert game.result["winners"] == winners(state) != []
    assert game.result["regions"] == [player["regions"] for player in public["players"]]
    assert game.result["reason"] in {"total", "adjacency", "most_regions", "final_battle"}
    initial = new_game(2, seed=game.seed, first=random.Random(game.seed).randrange(2))
    assert replay_log(initial, game) == state
    seqs = list(Action.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    with pytest.raises(GameNotPlaying):
        submit_action(game.pk, 0, {"type": "pass"}, game.version)


def test_nobody_is_told_before_the_commit(
    two_people, django_capture_on_commit_callbacks, monkeypatch
):
    game, _, _ = two_people
    told = []
    monkeypatch.setattr(
        "games.services.followups.notify_game",
        lambda group, version, change, earlier=(): told.append(version),
    )
    state = load_state(game)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        submit_action(game.pk, current_player(state), some_action(state), 0)
        assert told == []
    assert len(callbacks) == 1 and told == [1]


def test_the_next_bot_is_announced_after_the_commit(
    make_user, make_table, django_capture_on_commit_callbacks, monkeypatch, announced
):
    game = make_table(2, people={0: make_user()}, bots={1: "random"})
    monkeypatch.setattr("games.services.followups.notify_game", lambda *args, **named: None)
    with django_capture_on_commit_callbacks(execute=True):
        start_game(game.pk)
    game.refresh_from_db()
    state = load_state(game)
    for _ in range(200):
        if current_player(state) == 1:
            break
        with django_capture_on_commit_callbacks(execute=True):
            submit_action(game.pk, 0, some_action(state), game.version)
        game.refresh_from_db()
        state = load_state(game)
    assert current_player(state) == 1
    name, args, delay = announced[-1]
    assert (name, args[:2], delay) == ("bot_turn", (game.pk, game.version), 0.0)


# --- Stand-in bots ------------------------------------------------------------------------------


def test_a_player_hands_the_seat_to_a_bot_and_takes_it_back(
    two_people, make_user, django_capture_on_commit_callbacks, monkeypatch, announced
):
    game, alice, bob = two_people
    monkeypatch.setattr("games.services.seats.notify_table", lambda *args: None)
    to_act = current_player(load_state(game))
    person = alice if to_act == 0 else bob
    with django_capture_on_commit_callbacks(execute=True):
        hand_to_bot(game.pk, person)
    assert Seat.objects.get(game=game, index=to_act).standin is True
    # It was that seat's turn: the bot moves at once.
    assert [(name, args[:2]) for name, args, _ in announced] == [("bot_turn", (game.pk, 0))]
    with django_capture_on_commit_callbacks(execute=True):
        take_back_seat(game.pk, person)
    assert Seat.objects.get(game=game, index=to_act).standin is False
    with pytest.raises(NotSeated):
        hand_to_bot(game.pk, make_user("onlooker"))
    with pytest.raises(NotSeated):
        hand_to_bot(game.pk, AnonymousUser())
    assert snapshot_of(game)[1] == 0  # the game itself did not move


def test_a_standin_plays_with_the_standin_level_as_actor_standin(two_people, monkeypatch):
    game, alice, bob = two_people
    to_act = current_player(load_state(game))
    hand_to_bot(game.pk, alice if to_act == 0 else bob)
    levels = []
    real_make_bot = games.actors.choosing.make_seat_bot
    monkeypatch.setattr(
        games.actors.choosing,
        "make_seat_bot",
        lambda level, seed, *game: levels.append(level) or real_make_bot("random", seed, *game),
    )
    assert play_bot_turn(game.pk, 0) == "moved"
    assert levels == ["heuristic"]
    assert Action.objects.get(game=game).actor == "standin"


# --- Turn timers --------------------------------------------------------------------------------


def run_out_the_clock(game):
    """Every running clock of the game (the seats' own and the earliest) ran out 2 s ago."""
    past = timezone.now() - timedelta(seconds=2)
    game = Game.objects.get(pk=game.pk)
    deadlines = [None if moment is None else past.timestamp() for moment in game.seat_deadlines]
    Game.objects.filter(pk=game.pk).update(turn_deadline=past, seat_deadlines=deadlines)


def test_a_person_to_act_has_a_deadline(timed_game):
    remaining = (timed_game.turn_deadline - timezone.now()).total_seconds()
    assert 25 < remaining <= 30


def test_an_expired_timer_makes_exactly_one_move_for_the_absent_player(timed_game):
    game = timed_game
    seat = current_player(load_state(game))
    expire_turn(game.pk, 0)  # not due yet: nothing happens
    assert snapshot_of(game)[1] == 0
    run_out_the_clock(game)
    assert expire_turn(game.pk, 0) == "moved"
    assert expire_turn(game.pk, 0) == "stale"  # the version moved on: nothing more
    logged = Action.objects.get(game=game)
    assert (logged.seq, logged.seat, logged.actor) == (1, seat, "timer")
    assert Seat.objects.get(game=game, index=seat).standin is False


def test_two_expiries_in_a_row_hand_the_seat_to_the_standin(timed_game, announced):
    game = timed_game
    sleeper = current_player(load_state(game))
    expiries = 0
    for _ in range(300):
        game.refresh_from_db()
        state = load_state(game)
        seat = current_player(state)
        if seat == sleeper:
            run_out_the_clock(game)
            assert expire_turn(game.pk, game.version) == "moved"
            expiries += 1
            if expiries == 2:
                break
        else:
            submit_action(game.pk, seat, some_action(state), game.version)
    assert Seat.objects.get(game=game, index=sleeper).standin is True
    assert Seat.objects.get(game=game, index=1 - sleeper).standin is False


def test_a_timer_for_a_version_that_moved_on_does_nothing(timed_game):
    game = timed_game
    state = load_state(game)
    submit_action(game.pk, current_player(state), some_action(state), 0)
    run_out_the_clock(game)
    before = snapshot_of(game)
    assert expire_turn(game.pk, 0) == "stale"
    assert snapshot_of(game) == before


def test_in_the_hand_discard_step_only_a_person_asked_has_a_deadline(
    make_user, make_table, announced
):
    """The seat asked whether to discard is public like any turn: a bot asked gets no timer,
    a person asked gets one (nothing is hidden by giving the bot one too)."""
    game = make_table(2, people={0: make_user()}, bots={1: "random"}, turn_seconds=30)
    start_game(game.pk)
    rng = random.Random(8)
    asked = set()
    for _ in range(2000):
        game.refresh_from_db()
        state = load_state(game)
        if game.status != Game.Status.PLAYING:
            break
        seat = current_player(state)
        if view_for(state, None)["phase"] == "discard_hand":
            assert (game.turn_deadline is not None) == (seat == 0), seat
            asked.add(seat)
            if asked == {0, 1}:
                break
        else:
            assert (game.turn_deadline is not None) == (seat == 0), seat
        submit_action(game.pk, seat, rng.choice(legal_actions(state)), game.version)
    assert asked == {0, 1}


# --- Bot turns ----------------------------------------------------------------------------------


def test_the_bot_turn_returns_at_once_on_a_stale_version(make_table, settings):
    settings.BOT_MOVE_DELAY = 5
    game = make_table(2, bots={0: "random", 1: "random"})
    start_game(game.pk)
    game.refresh_from_db()
    state = load_state(game)
    submit_action(game.pk, current_player(state), some_action(state), 0)
    before = snapshot_of(game)
    started = time.monotonic()
    assert play_bot_turn(game.pk, 0) == "stale"
    assert time.monotonic() - started < 1
    assert snapshot_of(game) == before
    assert play_bot_turn(10**9, 0) == "no_game"


# --- The public log -----------------------------------------------------------------------------


def action_part(public: dict) -> dict:
    """A record without the end of a round or the deal the action brought."""
    return {
        key: value for key, value in public.items() if key not in ("round_end", "keeper", "dealt")
    }


def test_the_public_log_hides_face_down_cards_and_tells_every_discard_answer(make_user, make_table):
    """Every seat with cards is asked whether to discard its hand, so its answer, kept or
    discarded, is public (the cards discarded are not)."""
    seen_hidden = seen_declined = 0
    for seed in (1, 2):  # two short games
        game = make_table(
            2, people={0: make_user(), 1: make_user()}, options={"hidden_cards": True}, seed=seed
        )
        start_game(game.pk)
        play_randomly_to_the_end(game, random.Random(seed))
        for logged in Action.objects.filter(game=game):
            action, public = logged.action, logged.public
            if action["type"] == "discard_hand":
                # (the end of a round it brought is checked in test_public_log.py)
                assert action_part(public) == {"type": "discard_hand", "discard": action["discard"]}
                seen_declined += not action["discard"]
            elif action["type"] == "keep":
                assert action_part(public) == {"type": "keep", "count": len(action["cards"])}
            elif (
                action["type"] == "play"
                and action["card"] in FACE_DOWN_KINDS
                and "battle" not in public  # a play that ended the battle: all are revealed
            ):
                assert public["card"] == "hidden"
                seen_hidden += 1
    assert seen_hidden > 0 and seen_declined > 0
