"""A bot's turn: one plain function, run as the job "bot_turn" by whichever runner is in force.

`run_bot_turn(game_id, version)` is the whole of a bot's turn. It is idempotent, keyed by
(game, version): it returns at once if the game moved on, is not being played, or the seat to act
is not played by a bot. Otherwise it asks the seat's bot for a move from that seat's VIEW only,
waits so that every bot decision takes `BOT_MOVE_DELAY` in all (thinking included — the same for
every decision, so that the pause never tells anyone what was decided), and submits through the one
way in. A StaleVersion there is normal: someone else moved first.
"""

import logging
import time

from django.conf import settings

from games.models import Game
from games.services import ServiceError, StaleVersion, submit_action
from games.services.frames import STANDIN_LEVEL

from .choosing import acting_seat, choose_move

log = logging.getLogger(__name__)


def run_bot_turn(game_id: int, version: int, scheduled_at: float | None = None) -> str:
    """Play the bot's move at `version`, if it is still a bot's turn there. Returns what happened
    ("moved", "stale", "not_bot_turn", "refused: <code>") for logs and tests."""
    started = time.monotonic()
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "no_game"
    found = acting_seat(game, version)
    if found is None:
        return "stale"
    state, seat = found
    if not seat.plays_as_bot:
        return "not_bot_turn"
    action = choose_move(game, state, seat.index, seat.bot_level or STANDIN_LEVEL, version)
    time.sleep(max(0.0, settings.BOT_MOVE_DELAY - (time.monotonic() - started)))
    latency_ms = int(1000 * (time.time() - scheduled_at)) if scheduled_at else None
    try:
        submit_action(
            game_id,
            seat.index,
            action,
            expected_version=version,
            actor="bot" if seat.is_bot else "standin",
            latency_ms=max(0, latency_ms) if latency_ms is not None else None,
        )
    except StaleVersion:
        return "stale"
    except ServiceError as error:
        log.warning("bot move refused in game %s v%s: %s", game_id, version, error.code)
        return f"refused: {error.code}"
    return "moved"
