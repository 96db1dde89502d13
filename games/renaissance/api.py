"""The engine's public face (the package re-exports it): the same names as games.engine's.

`acting_seats(state)` is the set of seats that may act now (several in the secret vote);
`legal_actions(state, seat)` and `apply_action(state, seat, action)` take the seat.
"""

from . import diplomacy
from .actions import HANDLERS, IllegalAction, apply_action, settle
from .determinization import determinize
from .flow import renaissance_points, tie_break_key, treasury
from .legal import acting_seats, legal_actions
from .setup import new_game
from .state import OVER, PHASE_NAMES, State, clone
from .visibility import all_diplomacy, view_for


def apply_trusted(state, seat, action):
    """`apply_action` without its check, for search: the same new state, when `action` is one
    of `legal_actions(state, seat)` or of `diplomacy_actions(state, seat)`, as given (not
    rebuilt, blue cards in the listed order). Anything else is undefined: a wrong state or an
    exception, never an IllegalAction. The check it skips is the search's cost on diplomacy
    (each check lists every offer, gift and answer the seat may make); on moves it saves the
    search the scan of the legal list."""
    s = clone(state)
    if action["type"] in diplomacy.TYPES:
        diplomacy.apply_diplomacy(s, seat, action)
        settle(s)
        return s
    HANDLERS[s.phase](s, seat, action)
    settle(s)
    if s.offers:
        diplomacy.prune(s)
    return s


def is_terminal(state):
    return state.phase == OVER


def winners(state):
    """Winning seats: [] while playing; several if still tied after every tie-break."""
    return list(state.winners)


def final_scores(state):
    """Renaissance Points per seat (so far, while playing)."""
    return list(state.points)


def current_player(state):
    """The one seat that acts, or None (in the vote several may: see acting_seats)."""
    seats = acting_seats(state)
    return next(iter(seats)) if len(seats) == 1 else None


__all__ = [
    "all_diplomacy",
    "State",
    "PHASE_NAMES",
    "IllegalAction",
    "new_game",
    "acting_seats",
    "current_player",
    "legal_actions",
    "apply_action",
    "apply_trusted",
    "view_for",
    "determinize",
    "is_terminal",
    "final_scores",
    "winners",
    "renaissance_points",
    "treasury",
    "tie_break_key",
]
