"""What happens around an accepted change: the turn deadline, the result, and — after the
commit — the notice to the sockets and the announcement of the work now due (a bot's turn, a turn
timer, a rating) through the job port, which alone knows who runs it."""

import time
from datetime import timedelta

from django.utils import timezone

from games import jobs
from games.engine import current_player
from games.models import Game, Seat

from .frames import STANDIN_LEVEL
from .notify import notify_game, notify_lobby_now

DISCARD_PHASE = "discard_hand"


def deadline_for(game: Game, state, public_view: dict, seats: list[Seat]):
    """When the decision now awaited times out, or None.

    A timer runs only for a person's seat. While a seat decides whether to discard its hand,
    the deadline is set whoever decides, bot or person: a deadline that appeared only for people
    would tell the others who is being asked."""
    if not game.turn_seconds:
        return None
    seat = current_player(state)
    if seat is None:
        return None
    if public_view.get("phase") != DISCARD_PHASE and seats[seat].plays_as_bot:
        return None
    return timezone.now() + timedelta(seconds=game.turn_seconds)


def bot_acts_next(state, seats: list[Seat]) -> str | None:
    """The level of the bot that plays the seat to act now (a stand-in's level for a person's
    seat handed to it), or None if no bot does."""
    seat = current_player(state)
    if seat is None or not seats[seat].plays_as_bot:
        return None
    return seats[seat].bot_level or STANDIN_LEVEL


def after_change(
    game_id: int, version: int, finished: bool, bot_level: str | None, deadline
) -> None:
    """After the commit: tell the sockets, then set the next decision in motion."""
    group = Game(pk=game_id).group_name()
    notify_game(group, version)
    if finished:
        notify_lobby_now()
        jobs.later("rating", game_id)
        return
    announce_next(game_id, version, bot_level, deadline)


def announce_next(game_id: int, version: int, bot_level: str | None, deadline) -> None:
    """A bot's turn if a bot plays the seat to act, and the turn timer if a deadline is set."""
    if bot_level:
        # The time of the announcement: the bot's latency is measured from it.
        jobs.later("bot_turn", game_id, version, time.time(), bot_level)
    if deadline is not None:
        seconds = (deadline - timezone.now()).total_seconds()
        jobs.later("turn_expiry", game_id, version, delay=seconds)
