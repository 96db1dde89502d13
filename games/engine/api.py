"""The public contract: thin validating wrappers over the fast move API."""

from .actions import action_to_move
from .moves import DRAW_BASE, KEEP_BASE, apply_move, legal_moves, move_to_action
from .state import BY_ADJACENCY, OVER


def current_player(state):
    """The seat that must act, or None when the game is over."""
    return None if state.current < 0 else state.current


# Flat action dicts per move, built once; callers get fresh copies (they may mutate them).
# Keep actions hold a list, so they are always built anew.
_FLAT_ACTIONS = {}


def _action(move):
    if move >= KEEP_BASE and move < DRAW_BASE:
        return move_to_action(move)
    template = _FLAT_ACTIONS.get(move)
    if template is None:
        template = _FLAT_ACTIONS[move] = move_to_action(move)
    return template.copy()


def legal_actions(state):
    """The current player's legal action dicts, each once; [] when the game is over."""
    return [_action(move) for move in legal_moves(state)]


def apply_action(state, action):
    """A new state after the current player's `action`; IllegalAction for anything not legal."""
    return apply_move(state, action_to_move(state, action))


def is_terminal(state):
    return state.phase == OVER


def winners(state):
    """Winning seats: [] while playing, several after a shared final battle."""
    return list(state.winners)


def match_points(state):
    """[rules] Playing for Points: 1 point per region controlled, +5 to a winner by adjacency
    ([ruling] his winning battle gave him a connected group of the adjacency target in force)."""
    if state.phase != OVER:
        raise ValueError("points are scored only for a finished game")
    points = list(state.counts)
    if state.victory == BY_ADJACENCY:
        for seat in state.winners:
            points[seat] += 5
    return points


__all__ = [
    "current_player",
    "legal_actions",
    "apply_action",
    "is_terminal",
    "winners",
    "match_points",
]
