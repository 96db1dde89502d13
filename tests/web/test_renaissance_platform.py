"""Renaissance through the one way in: the same services that play Condottiere play it, with
what it needs besides — several seats deciding at once (the secret vote), diplomacy from any
seat at any moment, a clock per deciding seat — and bad input refused, changing nothing."""

import random
import time
from dataclasses import replace

import pytest
from django.utils import timezone

from games.actors.bot_turn import run_bot_turn
from games.actors.turn_expiry import expire_turn
from games.models import Action, Game, Seat
from games.rules_api import RENAISSANCE, RULESETS, ruleset_of
from games.services import (
    GameNotPlaying,
    IllegalMove,
    NotYourTurn,
    StaleVersion,
    load_state,
    start_game,
    submit_action,
)
from games.services.lifecycle import abort_game
from games.services.seats import hand_to_bot, take_back_seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def renaissance_table(make_user):
    def make(players=4, *, bots=(), options=None, turn_seconds=None, seed=1454) -> Game:
        game = Game.objects.create(
            ruleset=Game.Ruleset.RENAISSANCE,
            players=players,
            options=options or {},
            seed=seed,
            turn_seconds=turn_seconds,
        )
        for index in range(players):
            bot = index in bots
            Seat.objects.create(
                game=game,
                index=index,
                user=None if bot else make_user(f"p{game.pk}s{index}"),
                bot_level="heuristic" if bot else "",
                joined_at=timezone.now(),
            )
        start_game(game.pk)
        game.refresh_from_db()
        return game

    return make


def state_of(game: Game):
    game.refresh_from_db()
    return load_state(game)


def play_until(game: Game, phase: str, rng: random.Random, limit: int = 2000):
    """Random legal moves by the acting seats (people) until the game reaches `phase`."""
    for _ in range(limit):
        state = state_of(game)
        if RENAISSANCE.view_for(state, None)["phase"] == phase:
            return state
        seat = min(RENAISSANCE.acting_seats(state))
        action = rng.choice(RENAISSANCE.legal_actions(state, seat))
        submit_action(game.pk, seat, action, game.version)
    raise AssertionError(f"never reached {phase}")


def logged(game: Game) -> int:
    return Action.objects.filter(game=game).count()


def test_a_whole_game_is_played_through_the_one_way_in(renaissance_table):
    game = renaissance_table(3, seed=7)
    rng = random.Random(7)
    moves = 0
    while game.status == Game.Status.PLAYING:
        state = state_of(game)
        if game.status != Game.Status.PLAYING:
            break
        seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
        submit_action(
            game.pk, seat, rng.choice(RENAISSANCE.legal_actions(state, seat)), game.version
        )
        moves += 1
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.version == moves == logged(game)
    final = load_state(game)
    assert RENAISSANCE.is_terminal(final)
    assert game.result == RENAISSANCE.final_result(final)
    assert game.result["winners"] == RENAISSANCE.winners(final)


def test_every_seat_votes_against_the_same_version_and_none_is_stale(renaissance_table):
    game = renaissance_table(4, seed=3)
    state = play_until(game, "vote", random.Random(3))
    asked_at = game.version
    voters = sorted(RENAISSANCE.acting_seats(state))
    assert voters == [0, 1, 2, 3]
    for seat in voters[:-1]:
        submit_action(game.pk, seat, {"type": "vote", "war": seat % 2 == 0}, asked_at)
    game.refresh_from_db()
    assert game.version == asked_at + 3
    # Nobody's vote is in the public log before the last one, nor in another seat's view.
    entries = list(
        Action.objects.filter(game=game, seq__gt=asked_at).values_list("public", flat=True)
    )
    assert all("war" not in str(entry) for entry in entries)
    view = RENAISSANCE.view_for(state_of(game), 3)
    assert view["vote"] is None
    submit_action(game.pk, voters[-1], {"type": "vote", "war": False}, asked_at)
    game.refresh_from_db()
    assert RENAISSANCE.view_for(load_state(game), None)["phase"] != "vote"


def test_a_vote_twice_and_a_vote_for_another_seat_are_refused(renaissance_table):
    game = renaissance_table(4, seed=5)
    play_until(game, "vote", random.Random(5))
    version = game.version
    submit_action(game.pk, 0, {"type": "vote", "war": True}, version)
    with pytest.raises(NotYourTurn):
        submit_action(game.pk, 0, {"type": "vote", "war": False}, version + 1)
    game.refresh_from_db()
    assert game.version == version + 1 and logged(game) == version + 1


def test_a_move_against_a_version_older_than_the_seats_decision_is_stale(renaissance_table):
    game = renaissance_table(3, seed=11)
    rng = random.Random(11)
    state = state_of(game)
    (seat,) = RENAISSANCE.acting_seats(state)
    action = RENAISSANCE.legal_actions(state, seat)[0]
    submit_action(game.pk, seat, action, 0)
    state = state_of(game)
    (seat,) = RENAISSANCE.acting_seats(state)
    with pytest.raises(StaleVersion):
        submit_action(game.pk, seat, rng.choice(RENAISSANCE.legal_actions(state, seat)), 0)


def test_diplomacy_comes_from_any_seat_whoever_acts(renaissance_table):
    game = renaissance_table(4, seed=9)
    state = play_until(game, "purchase", random.Random(9))
    (acting,) = RENAISSANCE.acting_seats(state)
    other = (acting + 1) % 4
    gift = next(a for a in RENAISSANCE.side_actions(state, other) if a["type"] == "give_ducats")
    version = game.version
    submit_action(game.pk, other, gift, version)
    game.refresh_from_db()
    assert game.version == version + 1
    entry = Action.objects.get(game=game, seq=version + 1)
    assert entry.seat == other and entry.public is not None


def test_an_offer_is_seen_by_its_two_parties_only(renaissance_table):
    game = renaissance_table(4, seed=13)
    state = play_until(game, "purchase", random.Random(13))
    offers = [
        (seat, action)
        for seat in range(4)
        for action in RENAISSANCE.side_actions(state, seat)
        if action["type"] in ("offer_exchange", "offer_condottiere")
    ]
    assert offers, "this deal gives some seat an offer to make"
    seat, offer = offers[0]
    submit_action(game.pk, seat, offer, game.version)
    entry = Action.objects.filter(game=game).order_by("-seq").first()
    assert entry.public is None  # not in the public log at all
    after = state_of(game)
    outsiders = [s for s in range(4) if s not in (seat, offer["to"])]
    for viewer in [None, *outsiders]:
        assert RENAISSANCE.view_for(after, viewer)["public"]["offers"] == []


@pytest.mark.parametrize(
    "action",
    [
        {"type": "choose_region", "region": "Milano"},  # a Condottiere action
        {"type": "start", "city": "Atlantis"},
        {"type": "return", "city": ["Roma"] * 10_000},
        {"type": "give_ducats", "to": 0, "amount": 1},  # to oneself, from seat 0
        {"type": "vote"},
        "vote",
        {"type": {"give_ducats": 1}, "to": 1, "amount": 1},
        {"type": ["offer_exchange"]},
    ],
)
def test_bad_input_is_refused_and_changes_nothing(renaissance_table, action):
    game = renaissance_table(3, seed=17)
    before = (game.version, game.snapshot, logged(game))
    with pytest.raises((IllegalMove, NotYourTurn)):
        submit_action(game.pk, 0, action, game.version)
    game.refresh_from_db()
    assert (game.version, game.snapshot, logged(game)) == before


def test_a_renaissance_action_on_a_condottiere_game_is_refused(make_user, make_table):
    game = make_table(2, people={0: make_user(), 1: make_user()})
    start_game(game.pk)
    game.refresh_from_db()
    seat = min(ruleset_of(game).acting_seats(load_state(game)))
    with pytest.raises(IllegalMove):
        submit_action(game.pk, seat, {"type": "vote", "war": True}, 0)
    with pytest.raises(NotYourTurn):
        submit_action(game.pk, 1 - seat, {"type": "give_ducats", "to": seat, "amount": 1}, 0)
    game.refresh_from_db()
    assert game.version == 0


def test_each_deciding_seat_has_its_own_clock(renaissance_table):
    game = renaissance_table(4, turn_seconds=60, seed=21)
    play_until(game, "vote", random.Random(21))
    clocks = list(game.seat_deadlines)
    assert all(clock is not None for clock in clocks)
    time.sleep(0.05)
    submit_action(game.pk, 2, {"type": "vote", "war": True}, game.version)
    game.refresh_from_db()
    assert game.seat_deadlines[2] is None
    # The others' clocks run on from when their vote began: a vote changes nobody else's.
    assert [game.seat_deadlines[s] for s in (0, 1, 3)] == [clocks[s] for s in (0, 1, 3)]


def test_a_timed_out_voter_gets_the_stand_ins_vote_and_the_others_keep_theirs(renaissance_table):
    game = renaissance_table(4, turn_seconds=60, seed=23)
    play_until(game, "vote", random.Random(23))
    asked_at = game.version
    deadlines = list(game.seat_deadlines)
    deadlines[1] = time.time() - 5
    Game.objects.filter(pk=game.pk).update(seat_deadlines=deadlines)
    assert expire_turn(game.pk, asked_at) == "moved"
    game.refresh_from_db()
    timed_out = Action.objects.get(game=game, seq=game.version)
    assert (timed_out.seat, timed_out.actor) == (1, Action.Actor.TIMER)
    assert RENAISSANCE.acting_seats(load_state(game)) == {0, 2, 3}
    assert expire_turn(game.pk, asked_at) == "not_due"


def test_the_bots_vote_together_against_one_version(renaissance_table, settings, announced):
    settings.BOT_MOVE_DELAY = 0
    game = renaissance_table(4, bots=(1, 2, 3), seed=29)
    rng = random.Random(29)
    for _ in range(2000):
        state = state_of(game)
        if RENAISSANCE.view_for(state, None)["phase"] == "vote":
            break
        acting = sorted(RENAISSANCE.acting_seats(state))
        if 0 in acting:
            submit_action(game.pk, 0, rng.choice(RENAISSANCE.legal_actions(state, 0)), game.version)
        else:
            run_bot_turn(game.pk, game.version)
    asked_at = game.version
    assert run_bot_turn(game.pk, asked_at) == "moved"
    game.refresh_from_db()
    assert game.version == asked_at + 3
    assert RENAISSANCE.acting_seats(load_state(game)) == {0}
    voters = set(Action.objects.filter(game=game, seq__gt=asked_at).values_list("seat", flat=True))
    assert voters == {1, 2, 3}


def test_a_finished_game_refuses_any_action(renaissance_table):
    game = renaissance_table(3, seed=31)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(GameNotPlaying):
        submit_action(game.pk, 0, {"type": "pass"}, game.version)


def test_one_seat_may_not_flood_a_game_with_offers(renaissance_table, monkeypatch):
    monkeypatch.setitem(RULESETS, "renaissance", replace(RENAISSANCE, side_actions_per_seat=2))
    game = renaissance_table(4, seed=9)
    state = play_until(game, "purchase", random.Random(9))
    (acting,) = RENAISSANCE.acting_seats(state)
    giver = (acting + 1) % 4
    gift = {"type": "give_ducats", "to": acting, "amount": 1}
    for _ in range(2):
        submit_action(game.pk, giver, gift, game.version)
        game.refresh_from_db()
    before = (game.version, logged(game))
    with pytest.raises(IllegalMove) as refused:
        submit_action(game.pk, giver, gift, game.version)
    assert "offers and gifts" in str(refused.value.message)
    game.refresh_from_db()
    assert (game.version, logged(game)) == before


def test_taking_a_seat_back_mid_vote_restarts_only_its_own_clock(renaissance_table, announced):
    game = renaissance_table(4, turn_seconds=60, seed=21)
    play_until(game, "vote", random.Random(21))
    clocks = list(game.seat_deadlines)
    person = Seat.objects.get(game=game, index=1).user
    hand_to_bot(game.pk, person)
    game.refresh_from_db()
    assert game.seat_deadlines[1] is None  # no clock while a bot plays the seat
    announced.clear()
    time.sleep(0.05)
    take_back_seat(game.pk, person)
    game.refresh_from_db()
    assert game.seat_deadlines[1] > clocks[1]
    assert [game.seat_deadlines[s] for s in (0, 2, 3)] == [clocks[s] for s in (0, 2, 3)]
    timers = [args for name, args, delay in announced if name == "turn_expiry"]
    assert timers == [(game.pk, game.version)]


def test_an_aborted_game_keeps_no_clock(renaissance_table):
    game = renaissance_table(4, turn_seconds=60, seed=21)
    assert any(clock is not None for clock in game.seat_deadlines)
    assert abort_game(game.pk)
    game.refresh_from_db()
    assert game.turn_deadline is None and game.seat_deadlines == []
