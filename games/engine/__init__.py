"""The rules engine of Condottiere (3rd edition): pure Python, standard library only.

Public contract: /work/shared/docs/engine-contract.md; internals: docs/engine.md.
"""

from .actions import IllegalAction
from .api import (
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    match_points,
    winners,
)
from .board import ADJACENCY, REGIONS
from .cards import DECK, battle_strengths
from .determinize import determinize
from .options import Options
from .setup import new_game
from .state import GameState
from .visibility import view_for

__all__ = [
    "REGIONS",
    "ADJACENCY",
    "DECK",
    "Options",
    "GameState",
    "IllegalAction",
    "new_game",
    "current_player",
    "legal_actions",
    "apply_action",
    "is_terminal",
    "winners",
    "view_for",
    "determinize",
    "battle_strengths",
    "match_points",
]
