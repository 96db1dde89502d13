"""Renaissance (Pascal Bernard): the second game's rules engine and its reconstructed board.

Pure standard library, like games.engine.
"""

# The rules engine's public face (docs/renaissance/engine.md): import from here, not from the
# modules. The board's own module is games.renaissance.board.
from .api import (
    IllegalAction,
    State,
    acting_seats,
    all_diplomacy,
    apply_action,
    apply_trusted,
    current_player,
    determinize,
    final_scores,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
    winners,
)

# The battle cards' names by kind, the order the views list a line's troops in.
from .cards import NAMES as CARD_NAMES

__all__ = [
    "CARD_NAMES",
    "IllegalAction",
    "State",
    "acting_seats",
    "all_diplomacy",
    "apply_action",
    "apply_trusted",
    "current_player",
    "determinize",
    "final_scores",
    "is_terminal",
    "legal_actions",
    "new_game",
    "view_for",
    "winners",
]
