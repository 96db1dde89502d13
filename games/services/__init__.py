"""The one way in: every change to a game goes through these functions (see actions.py)."""

from .actions import AlreadyStarted, TableNotReady, load_state, start_game, submit_action
from .errors import (
    GameNotPlaying,
    IllegalMove,
    NotSeated,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from .frames import game_frame, seat_of
from .seats import hand_to_bot, take_back_seat

__all__ = [
    "AlreadyStarted",
    "GameNotPlaying",
    "IllegalMove",
    "NotSeated",
    "NotYourTurn",
    "ServiceError",
    "StaleVersion",
    "TableNotReady",
    "game_frame",
    "hand_to_bot",
    "load_state",
    "seat_of",
    "start_game",
    "submit_action",
    "take_back_seat",
]
