"""Rating updates after a game finishes: a Celery task, or the in-process pool.

`rate_and_tell(game_id)` is the whole job: rate the game once (idempotent, see games.ratings),
then tell the game's sockets so that the result panel shows the rating changes. With
`BOT_TURNS == "celery"` it runs in a worker; "in_process" runs it on the bot-turn pool, off the
event loop — never Celery's eager mode.
"""

import logging

from celery import shared_task
from django.conf import settings

log = logging.getLogger(__name__)


def rate_and_tell(game_id: int) -> bool:
    from games.models import Game
    from games.ratings import update_for_game
    from games.services.notify import notify_game

    updated = update_for_game(game_id)
    if updated:
        version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        notify_game(Game(pk=game_id).group_name(), version or 0)
    return updated


@shared_task(name="games.update_ratings", acks_late=True, serializer="json", ignore_result=True)
def update_ratings_task(game_id: int) -> bool:
    """Rate a finished game; a no-op when it was rated already (safe to run twice)."""
    return rate_and_tell(game_id)


def schedule_rating_update(game_id: int) -> None:
    """Called after the commit that finished the game, on the configured runner."""
    if settings.BOT_TURNS == "celery":
        update_ratings_task.apply_async((game_id,), task_id=f"ratings-{game_id}")
    else:
        from games.bot_turns import run_in_process

        run_in_process(rate_and_tell, game_id)
