"""Turn timers: when a person lets a decision's time run out, a stand-in bot moves for them.

One expiry plays one move (actor "timer", at the stand-in level). A second expiry in a row for
the same seat hands the seat to the stand-in bot (`Seat.standin`), which then keeps playing
until the person takes the seat back. Both runners (a Celery task with a countdown, or a daemon
timer in-process) call `expire_turn(game_id, version)`, which re-checks that nothing moved.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Action, Game, Seat

from .errors import StaleVersion
from .frames import STANDIN_LEVEL

log = logging.getLogger(__name__)

# A timer may fire a little before the stored deadline (clocks of different machines).
CLOCK_TOLERANCE = timedelta(seconds=1)


def schedule_timer(game_id: int, version: int, seconds: float) -> None:
    if settings.BOT_TURNS == "celery":
        from games.tasks import expire_turn_task

        expire_turn_task.apply_async(
            (game_id, version), countdown=seconds, task_id=f"turn-timer-{game_id}-{version}"
        )
    else:
        from games.bot_turns import run_in_process

        run_in_process(expire_turn, game_id, version, delay=seconds)


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
    """If the game still waits at `version` for a person whose deadline passed, move for them."""
    from games.bot_turns import acting_seat, choose_move

    from .actions import submit_action

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != version or game.status != Game.Status.PLAYING:
        return "stale"
    if game.turn_deadline is None or game.turn_deadline > timezone.now() + CLOCK_TOLERANCE:
        return "not_due"
    found = acting_seat(game, version)
    if found is None:
        return "stale"
    state, seat = found
    if seat.plays_as_bot:  # a bot's turn is the bot runner's business
        return "not_a_person"
    action = choose_move(game, state, seat.index, STANDIN_LEVEL, version)
    try:
        with transaction.atomic():
            if timed_out_before(game_id, seat.index, version):
                Seat.objects.filter(pk=seat.pk).update(standin=True)
            submit_action(game_id, seat.index, action, expected_version=version, actor="timer")
    except StaleVersion:
        return "stale"
    return "moved"
