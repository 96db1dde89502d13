"""A bot's turn: the jobs "bot_turn" (choose) and "bot_move" (play the chosen move when due).

`run_bot_turn(game_id, version)` is idempotent, keyed by (game, version): it returns at once if
the game moved on, is not being played, or the seat to act is not played by a bot. Otherwise it
asks the seat's bot for a move from that seat's VIEW only. Every bot decision is shown
`BOT_MOVE_DELAY` after it was asked for, thinking included — the same pause for every decision,
so that it never tells anyone what was decided. The rest of that pause is not slept on a worker
(which would hold it idle): the move is announced as the job "bot_move" with that delay, and
`play_bot_move` submits it through the one way in if the game still waits for that bot at that
version. A StaleVersion there is normal: someone else moved first.
"""

import logging
import time

from django.conf import settings

from games import jobs
from games.models import Game
from games.services import ServiceError, StaleVersion, submit_action
from games.services.frames import STANDIN_LEVEL

from .choosing import acting_seat, choose_move

log = logging.getLogger(__name__)

# Below this many seconds of pause left, the move is played at once rather than announced.
SHORTEST_ANNOUNCED_PAUSE = 0.02


def run_bot_turn(game_id: int, version: int, scheduled_at: float | None = None) -> str:
    """Choose the bot's move at `version`, if it is still a bot's turn there, and play it when
    its pause is over. Returns what happened ("moved", "announced", "stale", "not_bot_turn",
    "refused: <code>") for logs and tests."""
    asked_at = scheduled_at or time.time()
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
    pause = settings.BOT_MOVE_DELAY - (time.time() - asked_at)
    if pause >= SHORTEST_ANNOUNCED_PAUSE:
        jobs.later("bot_move", game_id, version, action, asked_at, delay=pause)
        return "announced"
    return submit_bot_move(game_id, version, seat, action, asked_at)


def play_bot_move(game_id: int, version: int, action: dict, asked_at: float) -> str:
    """Submit a bot's chosen move if the game still waits at `version` for a seat a bot plays
    (a person may have taken the seat back during the pause)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "no_game"
    found = acting_seat(game, version)
    if found is None:
        return "stale"
    _, seat = found
    if not seat.plays_as_bot:
        return "not_bot_turn"
    return submit_bot_move(game_id, version, seat, action, asked_at)


def submit_bot_move(game_id: int, version: int, seat, action: dict, asked_at: float) -> str:
    """Through the one way in, which refuses it if the game moved on meanwhile."""
    try:
        submit_action(
            game_id,
            seat.index,
            action,
            expected_version=version,
            actor="bot" if seat.is_bot else "standin",
            latency_ms=max(0, int(1000 * (time.time() - asked_at))),
        )
    except StaleVersion:
        return "stale"
    except ServiceError as error:
        log.warning("bot move refused in game %s v%s: %s", game_id, version, error.code)
        return f"refused: {error.code}"
    return "moved"
