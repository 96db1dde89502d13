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

from games import jobs, pending_bot_turns
from games.engine import GameState, current_player
from games.models import Action, Game
from games.services import NotYourTurn, ServiceError, StaleVersion, submit_action
from games.services.decisions import still_deciding
from games.services.errors import NotBotTurn
from games.services.frames import STANDIN_LEVEL, load_state

from .choosing import acting_seat, choose_move

log = logging.getLogger(__name__)

# Below this many seconds of pause left, the move is played at once rather than announced.
SHORTEST_ANNOUNCED_PAUSE = 0.02


def run_bot_turn(
    game_id: int,
    version: int,
    scheduled_at: float | None = None,
    level: str | None = None,
    known: tuple[int, str] | None = None,
) -> str:
    """Choose the bot's move at `version`, if it is still a bot's turn there, and play it when
    its pause is over. `level` and `known` = (the game's seed, its snapshot at `version`) come
    from the move that made this version, which saves reading the game; the one way in checks
    everything again under the game's lock. Without them the game is read. Returns what
    happened ("moved", "announced", "stale", "not_bot_turn", "refused: <code>").

    At most one message per game waits in the queue (games/pending_bot_turns.py): if a newer
    version was announced while this one waited, its turn is played here instead, read from
    the game, and the older version is never thought about."""
    asked_at = scheduled_at or time.time()
    newest = pending_bot_turns.take(game_id)
    if newest is not None and newest > version:
        version, level, known = newest, None, None
    if level is not None and known is not None:
        seed, snapshot = known
        state = GameState.from_json(snapshot)
        seat_index = current_player(state)
        if seat_index is None:
            return "stale"
    else:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return "no_game"
        found = acting_bot(game, version, level)
        if isinstance(found, str):
            return found
        state, seat_index, level = found
        seed = game.seed
    action = choose_move(seed, state, seat_index, level, version, game_id)
    pause = settings.BOT_MOVE_DELAY - (time.time() - asked_at)
    if pause >= SHORTEST_ANNOUNCED_PAUSE:
        jobs.later("bot_move", game_id, version, seat_index, action, asked_at, delay=pause)
        return "announced"
    return play_bot_move(game_id, version, seat_index, action, asked_at)


def acting_bot(game: Game, version: int, level: str | None):
    """(state, seat index, bot level) of the bot to act at `version`, or why there is none."""
    if level is not None:
        if game.status != Game.Status.PLAYING or not still_deciding(game, version):
            return "stale"
        state = load_state(game)
        seat_index = current_player(state)
        return "stale" if seat_index is None else (state, seat_index, level)
    found = acting_seat(game, version)
    if found is None:
        return "stale"
    state, seat = found
    if not seat.plays_as_bot:
        return "not_bot_turn"
    return state, seat.index, seat.bot_level or STANDIN_LEVEL


def play_bot_move(game_id: int, version: int, seat: int, action: dict, asked_at: float) -> str:
    """Submit a bot's chosen move for `seat`. The one way in refuses it if the game moved on or
    a person took the seat back during the pause, all under the game's lock."""
    try:
        submit_action(
            game_id,
            seat,
            action,
            expected_version=version,
            actor=Action.Actor.BOT,  # or STANDIN: the service logs whichever plays the seat
            latency_ms=max(0, int(1000 * (time.time() - asked_at))),
        )
    except (StaleVersion, NotYourTurn):
        return "stale"
    except NotBotTurn:
        return "not_bot_turn"
    except ServiceError as error:
        log.warning("bot move refused in game %s v%s: %s", game_id, version, error.code)
        return f"refused: {error.code}"
    return "moved"
