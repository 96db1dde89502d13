"""Handing a seat to a stand-in bot and taking it back.

The seat keeps its person; `Seat.standin` only says that a bot chooses its moves meanwhile. Neither
changes the game's state, so the version stays; the sockets are told all the same, because the
table (GAME) changed.
"""

from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from games.rules_api import ruleset_of

from .actions import locked_game, seats_of
from .errors import GameNotPlaying, NotSeated
from .followups import NextTurn, announce_next, decision_clocks
from .frames import STANDIN_LEVEL, load_state
from .notify import after_commit, notify_table


def person_seat(game: Game, user) -> Seat | None:
    """`user`'s own seat, or None; an anonymous visitor has none (a bot seat has no user either,
    so a lookup by a missing user would find the bots' seats)."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        return None
    return Seat.objects.filter(game=game, user_id=user.pk).first()


def set_standin(game_id: int, user, on: bool) -> None:
    """Turn the stand-in bot on or off for `user`'s seat in a game being played."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.PLAYING:
            raise GameNotPlaying(version=game.version)
        seat = person_seat(game, user)
        if seat is None:
            raise NotSeated(version=game.version)
        if seat.standin == on:
            return
        seat.standin = on
        seat.save(update_fields=["standin"])
        # The game row is written too, though only a seat changed: a move planned on the seats
        # as they were is then refused its unlocked write and judged again under the lock
        # (games/services/actions.py, `_submit_unlocked`).
        Game.objects.filter(pk=game.pk).update(updated_at=timezone.now())
        state = load_state(game)
        its_turn = seat.index in ruleset_of(game).acting_seats(state)
        deadline = game.turn_deadline
        if its_turn:
            deadline = restart_clock(game, state, seat.index)
        after_commit(_after_standin_change, game, its_turn, on, deadline)


def restart_clock(game: Game, state, index: int):
    """The seat's clock stops while a bot plays it and starts afresh when its person takes it
    back; the other seats' clocks run on (their timers are announced already). Returns this
    seat's own new deadline (None while a bot plays it), for its timer."""
    versions = game.seat_versions or [game.version] * game.players
    old = list(game.seat_deadlines or [None] * game.players)
    old[index] = None  # a clock of its own starts now; no other seat's decision began (-1)
    deadlines, earliest = decision_clocks(game, state, seats_of(game), versions, -1, old)
    Game.objects.filter(pk=game.pk).update(turn_deadline=earliest, seat_deadlines=deadlines)
    own = deadlines[index]
    return None if own is None else datetime.fromtimestamp(own, tz=UTC)


def _after_standin_change(game: Game, its_turn: bool, bot_plays: bool, deadline) -> None:
    notify_table(game.group_name(), game.version)
    if its_turn:
        # The bot moves at once if it now plays this seat; the person's timer starts again.
        level = STANDIN_LEVEL if bot_plays else None
        announce_next(game.pk, game.version, NextTurn(level, deadline, game_name=game.ruleset))


def hand_to_bot(game_id: int, user) -> None:
    set_standin(game_id, user, True)


def take_back_seat(game_id: int, user) -> None:
    set_standin(game_id, user, False)
