"""What happens around an accepted change: the turn deadline, the result, and — after the
commit — the notice to the sockets and the announcement of the work now due (a bot's turn, a turn
timer, a rating) through the job port, which alone knows who runs it."""

import time
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from games import jobs, pending_bot_turns
from games.engine import current_player
from games.matches.models import MatchGame
from games.models import Game, Seat

from .frames import STANDIN_LEVEL
from .notify import notify_game, notify_lobby_now


def deadline_for(game: Game, state, seats: list[Seat]):
    """When the decision now awaited times out, or None: a timer runs only for a person's seat.
    ([ruling] The seat asked in the hand-discard step is public like any other turn, so a
    deadline that appears only for people reveals nothing there either.)"""
    if not game.turn_seconds:
        return None
    seat = current_player(state)
    if seat is None or seats[seat].plays_as_bot:
        return None
    return timezone.now() + timedelta(seconds=game.turn_seconds)


def bot_acts_next(state, seats: list[Seat]) -> str | None:
    """The level of the bot that plays the seat to act now (a stand-in's level for a person's
    seat handed to it), or None if no bot does."""
    seat = current_player(state)
    if seat is None or not seats[seat].plays_as_bot:
        return None
    return seats[seat].bot_level or STANDIN_LEVEL


@dataclass(frozen=True)
class NextTurn:
    """Who acts after a commit, as the committing transaction saw it: the bot's level (None: a
    person, or nobody), the turn's deadline, and the game's seed and snapshot at the new
    version, so that a bot's job need not read them again."""

    bot_level: str | None
    deadline: object = None
    seed: int | None = None
    snapshot: str | None = None


def after_change(
    game_id: int, version: int, finished: bool, next_turn: NextTurn, change: dict | None = None
) -> None:
    """After the commit: tell the sockets (with the move's `change`, which spares them a read),
    then set the next decision in motion."""
    group = Game(pk=game_id).group_name()
    notify_game(group, version, change)
    if finished:
        notify_lobby_now()
        jobs.later("rating", game_id)
        announce_match_job(game_id)
        return
    announce_next(game_id, version, next_turn)


def announce_match_job(game_id: int) -> None:
    """After a game of a match ends (finished or aborted): the match's job scores it, or ends
    the match, and sees to its next game (#15). A game of no match announces nothing."""
    if MatchGame.objects.filter(game_id=game_id).exists():
        jobs.later("match_next_game", game_id)


def announce_next(game_id: int, version: int, next_turn: NextTurn) -> None:
    """A bot's turn if a bot plays the seat to act, and the turn timer if a deadline is set.
    A bot's turn is sent only if none of the game's waits in the queue: the waiting one plays
    the newest version announced (games/pending_bot_turns.py)."""
    if next_turn.bot_level and pending_bot_turns.announce(game_id, version):
        # The time of the announcement: the bot's latency is measured from it.
        args = [game_id, version, time.time(), next_turn.bot_level]
        if next_turn.snapshot is not None:
            args += [next_turn.seed, next_turn.snapshot]
        jobs.later("bot_turn", *args)
    if next_turn.deadline is not None:
        seconds = (next_turn.deadline - timezone.now()).total_seconds()
        jobs.later("turn_expiry", game_id, version, delay=seconds)
