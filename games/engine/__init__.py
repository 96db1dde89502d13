"""The rules engine of Condottiere (3rd edition): pure Python, standard library only.

Its public face is this package: import from `games.engine`, not from its modules (the bots in
`ai/` do). The modules, the state machine and the fast API: docs/engine.md.
"""

# Re-exports only, grouped by use in __all__ below.

# The game through dict actions and views (the site, game records, bots' decisions).
from .actions import IllegalAction
from .api import (
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    match_points,
    winners,
)

# The board and the cards.
from .board import ADJACENCY, REGIONS, largest_group
from .cards import (
    BISHOP,
    COURTESAN,
    DECK,
    DRUMMER,
    HEROINE,
    MERCENARY_KINDS,
    SCARECROW,
    SPRING,
    SURRENDER,
    WINTER,
    battle_strengths,
    line_strengths,
)

# A full state consistent with one seat's view (for search).
from .determinization import determinize

# The fast move API for search: compact int moves, no validation in apply_move.
from .fast import action_to_move, apply_move, legal_moves, move_to_action
from .moves import (
    BISHOP_FINAL,
    BISHOP_POPE,
    DISCARD_NO,
    DISCARD_YES,
    DRAW_BASE,
    KEEP_BASE,
    PASS,
    PASS_REVEAL,
    PLAY,
    REGION,
    SCARECROW_TAKE,
)

# Starting a game.
from .options import Options

# A game's record: its result once over.
from .record import final_result
from .setup import new_game

# Showing cards to another seat, at any time (not a move: see show.py).
from .show import IllegalShow, apply_show, is_show, show_cards

# The state and its phases (`state.phase`, read-only for bots).
from .state import (
    BATTLE,
    CHOOSE_REGION,
    DISCARD_HAND,
    DRAW,
    FINAL_BATTLE,
    KEEP,
    OVER,
    GameState,
)

# What one seat may know.
from .visibility import view_for

__all__ = [
    "final_result",
    # the game as dict actions and views
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
    "show_cards",
    "apply_show",
    "is_show",
    "IllegalShow",
    "match_points",
    # the board and the cards
    "REGIONS",
    "ADJACENCY",
    "largest_group",
    "DECK",
    "battle_strengths",
    "line_strengths",
    "MERCENARY_KINDS",
    "WINTER",
    "SPRING",
    "BISHOP",
    "COURTESAN",
    "DRUMMER",
    "HEROINE",
    "SCARECROW",
    "SURRENDER",
    # the fast move API for search
    "legal_moves",
    "apply_move",
    "move_to_action",
    "action_to_move",
    "PASS",
    "PASS_REVEAL",
    "PLAY",
    "SCARECROW_TAKE",
    "BISHOP_POPE",
    "BISHOP_FINAL",
    "REGION",
    "DISCARD_NO",
    "DISCARD_YES",
    "KEEP_BASE",
    "DRAW_BASE",
    # the phases
    "CHOOSE_REGION",
    "BATTLE",
    "DISCARD_HAND",
    "KEEP",
    "DRAW",
    "FINAL_BATTLE",
    "OVER",
]
