"""Turn timers: when a person lets a decision's time run out, a stand-in bot moves for them.

One expiry plays one move (actor "timer", at the stand-in level). A second expiry in a row for
the same seat hands the seat to the stand-in bot (`Seat.standin`), which then keeps playing
until the person takes the seat back. The services announce the job "turn_expiry" with the
decision's delay; the sweep (`games.jobs.sweep`) announces it again for a deadline long past, in
case the timer was lost. Either way `expire_turn(game_id, version)` re-checks that nothing moved.
"""

import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Action, Game, Seat
from games.rules_api import ruleset_of
from games.services import NotYourTurn, StaleVersion, submit_action
from games.services.frames import STANDIN_LEVEL

from .choosing import acting_seats_at, choose_move

# A timer may fire a little before the stored deadline (clocks of different machines).
CLOCK_TOLERANCE = timedelta(seconds=1)


def timed_out_before(game_id: int, seat: int, version: int) -> bool:
    """Did this seat's previous decision also run out of time (two expiries in a row)?"""
    previous = (
        Action.objects.filter(game_id=game_id, seat=seat, seq__lte=version)
        .order_by("-seq")
        .values_list("actor", flat=True)
        .first()
    )
    return previous == Action.Actor.TIMER


def seat_due(game: Game, seat: int) -> bool:
    """Whether `seat`'s own clock has run out (the game's earliest deadline for old rows)."""
    deadlines = game.seat_deadlines
    if not deadlines:
        due_at = game.turn_deadline
        return due_at is not None and due_at <= timezone.now() + CLOCK_TOLERANCE
    moment = deadlines[seat] if seat < len(deadlines) else None
    return moment is not None and moment <= time.time() + CLOCK_TOLERANCE.total_seconds()


def expire_turn(game_id: int, version: int) -> str:
    """For each person still asked the decision they were asked at `version` whose own clock
    ran out (another seat's actions since that left it as it was do not count), move for them.
    Returns "moved", or why nobody was moved for ("stale", "not_due", "not_a_person")."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "stale"
    found = acting_seats_at(game, version)
    if found is None or not found[1]:
        return "stale"
    state, seats = found
    people = [seat for seat in seats if not seat.plays_as_bot]
    if not people:  # a bot's turn is the bot runner's business
        return "not_a_person"
    due = [seat for seat in people if seat_due(game, seat.index)]
    if not due:
        return "not_due"
    outcomes = [move_for(game, state, seat) for seat in due]
    return "moved" if "moved" in outcomes else "stale"


def move_for(game: Game, state, seat: Seat) -> str:
    """The stand-in's move for a person whose clock ran out; twice in a row, the stand-in takes
    the seat."""
    version = game.version
    action = choose_move(
        ruleset_of(game), game.seed, state, seat.index, STANDIN_LEVEL, version, game.pk
    )
    try:
        with transaction.atomic():
            if timed_out_before(game.pk, seat.index, version):
                Seat.objects.filter(pk=seat.pk).update(standin=True)
            submit_action(game.pk, seat.index, action, expected_version=version, actor="timer")
    except (StaleVersion, NotYourTurn):
        return "stale"
    return "moved"
