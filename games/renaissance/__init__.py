"""Renaissance (Pascal Bernard): the second game's rules engine and its reconstructed board.

Pure standard library, like games.engine.
"""

# The rules engine's public face (docs/renaissance/engine.md): import from here, not from the
# modules. The board's own module is games.renaissance.board.
from .api import (
    IllegalAction,
    State,
    acting_seats,
    apply_action,
    current_player,
    determinize,
    final_scores,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
    winners,
)

__all__ = [
    "IllegalAction",
    "State",
    "acting_seats",
    "apply_action",
    "current_player",
    "determinize",
    "final_scores",
    "is_terminal",
    "legal_actions",
    "new_game",
    "view_for",
    "winners",
]
