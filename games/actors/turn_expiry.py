"""Turn timers: when a person lets a decision's time run out, a stand-in bot moves for them.

One expiry plays one move (actor "timer", at the stand-in level). A second expiry in a row for
the same seat hands the seat to the stand-in bot (`Seat.standin`), which then keeps playing
until the person takes the seat back. The services announce the job "turn_expiry" with the
decision's delay; the sweep (`games.sweep`) announces it again for a deadline long past, in case
the timer was lost. Either way `expire_turn(game_id, version)` re-checks that nothing moved.
"""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Action, Game, Seat
from games.services import StaleVersion, submit_action
from games.services.decisions import still_deciding
from games.services.frames import STANDIN_LEVEL

from .choosing import acting_seat, choose_move

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


def expire_turn(game_id: int, version: int) -> str:
    """If the game still waits for the decision awaited at `version` (shows since do not count)
    from a person whose deadline passed, move for them."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.PLAYING or not still_deciding(game, version):
        return "stale"
    if game.turn_deadline is None or game.turn_deadline > timezone.now() + CLOCK_TOLERANCE:
        return "not_due"
    found = acting_seat(game, version)
    if found is None:
        return "stale"
    state, seat = found
    if seat.plays_as_bot:  # a bot's turn is the bot runner's business
        return "not_a_person"
    action = choose_move(game.seed, state, seat.index, STANDIN_LEVEL, version, game_id)
    try:
        with transaction.atomic():
            if timed_out_before(game_id, seat.index, version):
                Seat.objects.filter(pk=seat.pk).update(standin=True)
            submit_action(game_id, seat.index, action, expected_version=version, actor="timer")
    except StaleVersion:
        return "stale"
    return "moved"
