"""The public contract: thin validating wrappers over the fast move API."""

from .actions import action_to_move
from .moves import apply_move, legal_moves, move_to_action
from .state import BY_ADJACENCY, OVER


def current_player(state):
    """The seat that must act, or None when the game is over."""
    return None if state.current < 0 else state.current


def legal_actions(state):
    """The current player's legal action dicts, each once; [] when the game is over."""
    return [move_to_action(move) for move in legal_moves(state)]


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
