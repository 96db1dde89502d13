"""A game's life outside play: aborting a table or a game that is not over (the admin's action).

Like every other change to a game it goes through a service: the row is locked, the status
checked, and the sockets of the game and the lobby are told only after the commit.
"""

from django.db import transaction
from django.utils import timezone

from games.models import Game

from .followups import announce_match_job
from .notify import after_commit, notify_lobby_now, notify_table

ABORTABLE = (Game.Status.OPEN, Game.Status.PLAYING)


def abort_game(game_id: int) -> bool:
    """Abort the game if it is still open or being played; True if it was aborted.

    A finished or already aborted game, or no such game, is left as it is (False). The turn timer
    and the autofill stop with it: no deadline, no autofill time. The version stays, so a late
    move is refused as GameNotPlaying, not as a stale version.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status not in ABORTABLE:
            return False
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.turn_deadline = None
        game.seat_deadlines = []
        game.autofill_at = None
        # A conditional write as well as the lock: SQLite ignores row locks, and a game that a
        # move finished meanwhile must stay finished.
        changed = Game.objects.filter(pk=game.pk, status__in=ABORTABLE).update(
            status=game.status,
            finished_at=game.finished_at,
            turn_deadline=None,
            seat_deadlines=[],
            autofill_at=None,
        )
        if not changed:
            return False
        after_commit(_after_abort, game.pk, game.group_name(), game.version)
    return True


def _after_abort(game_id: int, group: str, version: int) -> None:
    notify_table(group, version)
    notify_lobby_now()
    # The match's job ends the match now, not when the sweep next finds the aborted game.
    announce_match_job(game_id)
