"""Celery tasks of the platform: turn timers (and, registered here, the lobby's autofill and
the rating update)."""

from celery import shared_task

import games.lobby  # noqa: F401  registers the lobby's autofill task in every worker
import games.tasks_ratings  # noqa: F401  registers the rating update task in every worker


@shared_task(name="games.expire_turn", acks_late=True, serializer="json", ignore_result=True)
def expire_turn_task(game_id: int, version: int) -> str:
    """A turn timer ran out at (game, version); a no-op if the game moved on."""
    from games.services import expire_turn

    return expire_turn(game_id, version)


@shared_task(name="games.resume_stalled_games", ignore_result=True)
def resume_stalled_games_task() -> int:
    """Celery beat, every minute: lost bot turns are sent again even where nobody watches."""
    from games.bot_turns import resume_stalled_games

    return len(resume_stalled_games())
