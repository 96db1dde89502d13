"""Celery tasks of the bots: a bot's turn in a live game."""

from celery import shared_task


@shared_task(name="ai.play_bot_turn", acks_late=True, serializer="json", ignore_result=True)
def play_bot_turn(game_id: int, version: int, scheduled_at: float | None = None) -> str:
    """The bot's move at (game, version); a no-op if that version is gone (idempotent)."""
    from games.bot_turns import run_bot_turn

    return run_bot_turn(game_id, version, scheduled_at=scheduled_at)
