"""The sweep over what is due: a turn timer, a bot turn or an autofill lost with the broker or a
restart is announced again, by one sweeper only, and the work then happens."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import jobs
from games.engine import current_player
from games.jobs import sweep
from games.lobby import tables as lobby
from games.models import Action, Game
from games.services import load_state, start_game
from tests.services import require_postgresql


def announced_of(announced, name: str) -> list[tuple]:
    return [args for job, args, _ in announced if job == name]


def overdue(game, seconds: float) -> None:
    """The game's deadline passed `seconds` ago and its timer never fired."""
    Game.objects.filter(pk=game.pk).update(
        turn_deadline=timezone.now() - timedelta(seconds=seconds)
    )


# --- Turn deadlines ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_deadline_long_past_is_announced_once(timed_game, announced):
    overdue(timed_game, 10)
    now = timezone.now()
    assert sweep.sweep(now)["turn_expiry"] == [timed_game.pk]
    assert sweep.sweep(now)["turn_expiry"] == []  # claimed: the next sweep leaves it alone
    assert announced_of(announced, "turn_expiry") == [(timed_game.pk, 0)]


@pytest.mark.django_db
def test_a_deadline_still_running_or_just_past_is_left_to_its_timer(timed_game, announced):
    assert sweep.sweep()["turn_expiry"] == []
    overdue(timed_game, 0.5)  # the timer may be firing right now
    assert sweep.sweep()["turn_expiry"] == []
    assert announced == []


@pytest.mark.django_db
def test_a_claim_that_ran_out_lets_the_next_sweep_announce_again(timed_game, announced):
    """The announced expiry was lost too: once the claim runs out, it is announced again."""
    overdue(timed_game, 10)
    now = timezone.now()
    assert sweep.sweep(now)["turn_expiry"] == [timed_game.pk]
    later = now + sweep.CLAIM + timedelta(seconds=1)
    assert sweep.sweep(later)["turn_expiry"] == [timed_game.pk]
    assert len(announced_of(announced, "turn_expiry")) == 2


@pytest.mark.django_db
def test_a_claim_does_not_touch_the_games_last_change(timed_game, announced):
    """The stalled-bot check reads updated_at: a claim must not look like a move."""
    overdue(timed_game, 10)
    before = Game.objects.get(pk=timed_game.pk).updated_at
    sweep.sweep()
    assert Game.objects.get(pk=timed_game.pk).updated_at == before


@pytest.mark.django_db(transaction=True)
def test_a_lost_turn_timer_still_expires_the_turn(make_user, make_table, settings, monkeypatch):
    """The timer is lost on purpose; the embedded sweep, on its timer, expires the turn."""
    settings.JOB_RUNNER = "in_process"
    lost = []
    real_later = jobs.later

    def lose_the_first_timer(name, *args, delay=0.0):
        if name == "turn_expiry" and not lost:
            lost.append(args)
            return
        real_later(name, *args, delay=delay)

    monkeypatch.setattr(jobs, "later", lose_the_first_timer)
    game = make_table(2, people={0: make_user(), 1: make_user()}, turn_seconds=1)
    start_game(game.pk)
    assert lost == [(game.pk, 0)]
    absent = current_player(load_state(Game.objects.get(pk=game.pk)))
    time.sleep(1 + sweep.TIMER_GRACE.total_seconds() + 0.2)
    assert not Action.objects.filter(game=game).exists(), "nothing moved without the sweep"

    stop = jobs.start_periodic_sweep(every=0.2)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not Action.objects.filter(game=game).exists():
            time.sleep(0.1)
    finally:
        stop.set()
    moved = Action.objects.filter(game=game).order_by("seq").first()
    assert moved is not None, "the overdue turn never expired"
    assert (moved.seq, moved.seat, moved.actor) == (1, absent, "timer")


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_announce_a_due_turn_once(timed_game, announced):
    require_postgresql()
    overdue(timed_game, 10)
    now = timezone.now()
    barrier = threading.Barrier(4)
    results = []

    def sweeper():
        barrier.wait()
        try:
            results.append(sweep.overdue_turns(now))
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results) == [[], [], [], [timed_game.pk]]
    assert announced_of(announced, "turn_expiry") == [(timed_game.pk, 0)]


# --- Bot turns -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_stalled_bot_turn_and_a_socket_waking_it_announce_it_once(make_table, announced):
    game = make_table(2, bots={0: "random", 1: "random"})
    start_game(game.pk)
    long_ago = timezone.now() - timedelta(seconds=sweep.bot_patience() + 5)
    Game.objects.filter(pk=game.pk).update(updated_at=long_ago)
    assert sweep.resume_stalled_bot_turn(game.pk) is True  # a socket opened the game
    assert sweep.sweep()["bot_turn"] == []  # the sweep finds it claimed
    assert announced_of(announced, "bot_turn") == [(game.pk, 0)]


@pytest.mark.django_db
def test_a_lost_bot_turn_is_announced_again_within_ten_seconds_of_its_move(
    make_table, announced, settings
):
    """A worker killed mid-turn takes the bot's turn with it (its message comes back only after
    the visibility timeout). With the default pauses, the sweep that runs 5 s after the bot's
    move was due announces it again: beat sweeps every 5 s, so the game goes on within 10 s."""
    settings.BOT_MOVE_DELAY, settings.BOT_THINK_SECONDS = 0.8, 1.5  # the defaults
    game = make_table(2, bots={0: "random", 1: "random"})
    start_game(game.pk)
    moved_at = Game.objects.get(pk=game.pk).updated_at
    every = 5.0  # JOB_SWEEP_SECONDS' default (the tests turn the embedded timer off)
    assert sweep.sweep(moved_at + timedelta(seconds=10 - every))["bot_turn"] == [game.pk]
    assert announced_of(announced, "bot_turn") == [(game.pk, 0)]


# --- Autofill -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_lost_autofill_is_announced_and_then_fills_the_table(
    make_user, announced, django_capture_on_commit_callbacks
):
    alice = make_user("alice")
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.play_now(alice, 3, autofill_level="random", autofill_seconds=30)
    [(name, args, _)] = announced  # the autofill announced at creation: lost
    assert (name, args) == ("autofill", (game.pk,))
    assert sweep.sweep()["autofill"] == []  # its wait is not over

    after_the_wait = game.autofill_at + sweep.AUTOFILL_GRACE + timedelta(seconds=1)
    assert sweep.sweep(after_the_wait)["autofill"] == [game.pk]
    assert lobby.autofill_table(game.pk, after_the_wait) is True
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    assert sweep.sweep(after_the_wait + sweep.CLAIM * 2)["autofill"] == []  # nothing left


@pytest.mark.django_db
def test_a_finished_or_aborted_game_is_never_due(timed_game, announced):
    overdue(timed_game, 10)
    Game.objects.filter(pk=timed_game.pk).update(status=Game.Status.ABORTED)
    assert sweep.sweep() == {"turn_expiry": [], "bot_turn": [], "autofill": []}
    assert announced == []
