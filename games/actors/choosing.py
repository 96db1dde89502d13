"""Choosing a move for a seat from that seat's view, and finding the seat that must act."""

import hashlib
import logging

from django.conf import settings

import ai
from games.engine import current_player, view_for
from games.models import Game, Seat
from games.services.decisions import still_deciding
from games.services.frames import load_state

from .public_history import bot_choice

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "random"


def derived_seed(game_seed: int, version: int) -> int:
    """The bot's seed for the decision at this version: reproducible, different every turn."""
    digest = hashlib.blake2b(f"{game_seed}:{version}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def make_seat_bot(level: str, seed: int):
    """The bot of this level, or the random bot while that level is not written yet."""
    try:
        return ai.make_bot(level, seed=seed, time_limit=settings.BOT_THINK_SECONDS)
    except (NotImplementedError, ValueError):
        log.warning("bot level %r is not available: playing %r", level, FALLBACK_LEVEL)
        return ai.make_bot(FALLBACK_LEVEL, seed=seed)


def choose_move(
    game_seed: int, state, seat: int, level: str, version: int, game_id: int | None = None
) -> dict:
    """A bot's move for `seat`, chosen from that seat's view and the game's public history."""
    bot = make_seat_bot(level, derived_seed(game_seed, version))
    return bot_choice(bot, view_for(state, seat), game_id, version)


def acting_seat(game: Game, version: int):
    """(state, seat row) of the seat that must act, if the game still waits for the decision
    awaited at `version` (shows since do not count: games/services/decisions.py)."""
    if game.status != Game.Status.PLAYING or not still_deciding(game, version):
        return None
    state = load_state(game)
    index = current_player(state)
    if index is None:
        return None
    seat = Seat.objects.filter(game=game, index=index).first()
    return None if seat is None else (state, seat)
