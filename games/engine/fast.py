"""The fast API for bots and benchmarks (see docs/engine.md).

- `legal_moves(state) -> tuple` of compact int moves, cached on the state;
- `apply_move(state, move) -> state` with NO validation (only pass moves from legal_moves);
- `move_to_action(move) -> dict` and `action_to_move(state, action) -> move` (IllegalAction).
"""

from .actions import action_to_move
from .moves import apply_move, legal_moves, move_to_action

__all__ = ["legal_moves", "apply_move", "move_to_action", "action_to_move"]
